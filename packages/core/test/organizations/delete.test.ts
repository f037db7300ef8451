/**
 * organizations/delete (issue 28): the organization and everything in it go, in one transaction,
 * with `organization.delete` and `access.organization_deleted`; an unknown one fails its item; a
 * repeated or concurrent call deletes once; another key's organization of the same id is not
 * touched; a malformed call deletes nothing. Every table is walked in test/jobs/inventory.test.ts.
 */
import { describe, expect, it } from "vitest"
import { forEachBackend } from "../../../../test-support/backends.js"
import { expectCap } from "../../../../test-support/caps.js"
import { eventRecorder } from "../../../../test-support/eventRecorder.js"
import { MAX_ORGANIZATIONS_PER_DELETE } from "../../src/organizations/OrganizationSchemas.js"

const { eventsOf, listener } = eventRecorder()

forEachBackend("organizations/delete", (ctx) => {
  /** An organization with a document, a folder, a comment thread and a grant. */
  const filled = async (headers: Record<string, string>, organizationId: string) => {
    const { client } = ctx()
    const post = async (path: string, data: unknown) => {
      const answer = await client.post(path, data, headers)
      expect(answer.status, `${path}: ${answer.text}`).toBe(200)
      return answer.body.result
    }
    await post("/v2/organizations/add", { organizations: [{ organizationId, organizationName: `Org ${organizationId}` }] })
    await post("/v2/organizations/folders/add", { organizationId, folders: [{ folderId: "f", folderName: "F" }] })
    await post("/v2/organizations/documents/add", { organizationId, folderId: "f", documents: [{ documentId: "d", documentName: "D" }] })
    await post("/v2/commentannotations/add", {
      organizationId,
      documentId: "d",
      commentAnnotations: [{ annotationId: "t", commentData: [{ commentId: 1, commentText: "hello", from: { userId: "ann" } }] }]
    })
    await post("/v2/auth/permissions/add", { user: { userId: "bob" }, permissions: { resources: [{ type: "document", id: "d", organizationId, accessRole: "viewer" }] } })
  }

  const read = async (headers: Record<string, string>, organizationId: string) => {
    const { client } = ctx()
    return {
      organizations: (await client.post("/v2/organizations/get", { organizationIds: [organizationId] }, headers)).body.result.data,
      documents: (await client.post("/v2/organizations/documents/get", { organizationId }, headers)).body.result.data,
      folders: (await client.post("/v2/organizations/folders/get", { organizationId }, headers)).body.result.data,
      threads: (await client.post("/v2/commentannotations/get", { organizationId, documentId: "d" }, headers)).body.result.data
    }
  }

  describe("deletes", () => {
    it("the organization and everything in it, answering per organization and emitting its events; an unknown one fails its item", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await filled(creds.headers, "gone")
      await filled(creds.headers, "stays")
      const stays = await read(creds.headers, "stays")
      const seen = eventsOf(creds.apiKey).length

      const deleted = await client.post("/v2/organizations/delete", { organizationIds: ["gone", "ghost"] }, creds.headers)
      expect(deleted.status).toBe(200)
      expect(deleted.body).toEqual({
        result: {
          status: "success",
          message: "Organization(s) deleted successfully.",
          data: {
            gone: { success: true, id: "gone", message: "Deleted Successfully" },
            ghost: { success: false, id: "ghost", message: "Organization does not exist" }
          }
        }
      })
      expect(await read(creds.headers, "gone")).toEqual({ organizations: [], documents: [], folders: [], threads: [] })
      expect(await read(creds.headers, "stays")).toEqual(stays)
      expect(eventsOf(creds.apiKey).slice(seen).map((e) => [e.type, e.organizationId, e.data])).toEqual([
        ["organization.delete", "gone", { organizationId: "gone" }],
        ["access.organization_deleted", "gone", { resource: { type: "organization", id: "gone", organizationId: "gone" } }]
      ])

      // The same id starts afresh: nothing of the old one comes back.
      await client.post("/v2/organizations/add", { organizations: [{ organizationId: "gone" }] }, creds.headers)
      expect(await read(creds.headers, "gone")).toEqual({
        organizations: [{ id: "gone", organizationName: "", disabled: false }],
        documents: [],
        folders: [],
        threads: []
      })
      // Not even bob's viewer grant on the old document: a public document's default role is his now.
      await client.post("/v2/organizations/documents/add", { organizationId: "gone", documents: [{ documentId: "d" }] }, creds.headers)
      const roleOfBob = async (organizationId: string) =>
        (await client.post("/v2/auth/permissions/get", { organizationId, userIds: ["bob"], documentIds: ["d"] }, creds.headers)).body.result.data.bob.documents.d.accessRole
      expect(await roleOfBob("gone")).toBe("editor")
      expect(await roleOfBob("stays")).toBe("viewer")
    })

    it("a disabled organization too", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await filled(creds.headers, "off")
      await client.post("/v2/organizations/access/disablestate/update", { organizationIds: ["off"], disabled: true }, creds.headers)
      const deleted = await client.post("/v2/organizations/delete", { organizationIds: ["off"] }, creds.headers)
      expect(deleted.body.result.data.off).toEqual({ success: true, id: "off", message: "Deleted Successfully" })
      // Gone, so no longer disabled: a new one of that id is open.
      await client.post("/v2/organizations/add", { organizations: [{ organizationId: "off" }] }, creds.headers)
      const documents = await client.post("/v2/organizations/documents/get", { organizationId: "off" }, creds.headers)
      expect(documents.status, documents.text).toBe(200)
    })
  })

  describe("safe to repeat, and isolated", () => {
    it("concurrent deletes of one organization: one deletes it, the others find nothing, and its events are emitted once", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await filled(creds.headers, "raced")
      const seen = eventsOf(creds.apiKey).length
      const answers = await Promise.all(Array.from({ length: 8 }, () => client.post("/v2/organizations/delete", { organizationIds: ["raced"] }, creds.headers)))
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200))
      expect(answers.filter((a) => a.body.result.data.raced.success)).toHaveLength(1)
      expect(eventsOf(creds.apiKey).slice(seen).filter((e) => e.type === "organization.delete")).toHaveLength(1)
    })

    it("another key's organization of the same id is not touched, and a malformed call deletes nothing", async () => {
      const { client, workspace } = ctx()
      const a = await workspace()
      const b = await workspace()
      await filled(a.headers, "shared")
      const before = await read(a.headers, "shared")
      const foreign = await client.post("/v2/organizations/delete", { organizationIds: ["shared"] }, b.headers)
      expect(foreign.body.result.data.shared).toEqual({ success: false, id: "shared", message: "Organization does not exist" })
      for (const data of [{}, { organizationIds: [] }, { organizationIds: ["shared", 7] }, { organizationIds: "shared" }]) {
        const bad = await client.post("/v2/organizations/delete", data, a.headers)
        expect(bad.status, JSON.stringify(data)).toBe(400)
        expect(bad.body.error.status).toBe("INVALID_ARGUMENT")
        expect(bad.body.error.message).toContain("organizationIds")
      }
      expect(await read(a.headers, "shared")).toEqual(before)
    })

    it(`takes ${MAX_ORGANIZATIONS_PER_DELETE} organizations; one more is refused, nothing deleted`, async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const post = (path: string, data: unknown) => client.post(path, data, creds.headers)
      const ids = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}-${i}`)
      await post("/v2/organizations/add", { organizations: ids(MAX_ORGANIZATIONS_PER_DELETE + 1, "over").map((organizationId) => ({ organizationId })) })
      await expectCap({
        post,
        path: "/v2/organizations/delete",
        field: "organizationIds",
        max: MAX_ORGANIZATIONS_PER_DELETE,
        data: (n, tag) => ({ organizationIds: ids(n, tag) })
      })
      expect((await post("/v2/organizations/get", {})).body.result.data).toHaveLength(MAX_ORGANIZATIONS_PER_DELETE + 1)
    })
  })
}, { listeners: [listener] })
