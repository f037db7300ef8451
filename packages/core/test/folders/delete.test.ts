/**
 * folders/delete (issue 28): the folder, its subfolders, their grants, and every document in them
 * with all of its rows go in one transaction, with `document.delete` and `folder.delete` (and their
 * access events); a missing folder is NOT_FOUND "Folder not found." and a repeat changes nothing;
 * another key's folder of the same id is not touched. Every table: test/jobs/inventory.test.ts.
 */
import { describe, expect, it } from "vitest"
import { forEachBackend } from "../../../../test-support/backends.js"
import { eventRecorder } from "../../../../test-support/eventRecorder.js"

const { eventsOf, listener } = eventRecorder()

forEachBackend("organizations/folders/delete", (ctx) => {
  /** specs > drafts > old, and a sibling top folder; a document in each, a grant on drafts. */
  const setUp = async (headers: Record<string, string>) => {
    const { client } = ctx()
    const post = async (path: string, data: unknown) => {
      const answer = await client.post(path, data, headers)
      expect(answer.status, `${path}: ${answer.text}`).toBe(200)
      return answer.body.result
    }
    await post("/v2/organizations/folders/add", {
      organizationId: "org",
      createOrganization: true,
      folders: [
        { folderId: "specs", folderName: "Specs" },
        { folderId: "drafts", folderName: "Drafts", parentFolderId: "specs" },
        { folderId: "old", folderName: "Old", parentFolderId: "drafts" },
        { folderId: "other", folderName: "Other" }
      ]
    })
    for (const folderId of ["specs", "drafts", "old", "other"]) {
      await post("/v2/organizations/documents/add", { organizationId: "org", folderId, documents: [{ documentId: `in-${folderId}` }] })
      await post("/v2/commentannotations/add", {
        organizationId: "org",
        documentId: `in-${folderId}`,
        commentAnnotations: [{ annotationId: `t-${folderId}`, commentData: [{ commentId: 1, commentText: "hi", from: { userId: "ann" } }] }]
      })
    }
    await post("/v2/auth/permissions/add", { user: { userId: "bob" }, permissions: { resources: [{ type: "folder", id: "drafts", organizationId: "org", accessRole: "viewer" }] } })
  }

  const folders = async (headers: Record<string, string>) =>
    (await ctx().client.post("/v2/organizations/folders/get", { organizationId: "org" }, headers)).body.result.data.map((f: { folderId: string }) => f.folderId).sort()
  const documents = async (headers: Record<string, string>) =>
    (await ctx().client.post("/v2/organizations/documents/get", { organizationId: "org" }, headers)).body.result.data.map((d: { id: string }) => d.id).sort()

  describe("deletes", () => {
    it("the folder, the folders under it and every document in them, with their threads and grants, emitting each one's events", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await setUp(creds.headers)
      const seen = eventsOf(creds.apiKey).length
      const deleted = await client.post("/v2/organizations/folders/delete", { organizationId: "org", folderId: "drafts" }, creds.headers)
      expect(deleted.status).toBe(200)
      expect(deleted.body).toEqual({ result: { status: "success", message: "Folder deletion initiated successfully.", data: null } })
      expect(await folders(creds.headers)).toEqual(["other", "specs"])
      expect(await documents(creds.headers)).toEqual(["in-other", "in-specs"])
      const threads = await client.post("/v2/commentannotations/get", { organizationId: "org", documentId: "in-old" }, creds.headers)
      expect(threads.body.result.data).toEqual([])
      expect(eventsOf(creds.apiKey).slice(seen).map((e) => `${e.type} ${JSON.stringify((e.data as { resource?: unknown }).resource ?? e.data)}`)).toEqual([
        `document.delete {"organizationId":"org","documentId":"in-drafts"}`,
        `access.document_deleted {"type":"document","id":"in-drafts","organizationId":"org"}`,
        `document.delete {"organizationId":"org","documentId":"in-old"}`,
        `access.document_deleted {"type":"document","id":"in-old","organizationId":"org"}`,
        `folder.delete {"organizationId":"org","folderId":"drafts"}`,
        `access.folder_deleted {"type":"folder","id":"drafts","organizationId":"org"}`,
        `folder.delete {"organizationId":"org","folderId":"old"}`,
        `access.folder_deleted {"type":"folder","id":"old","organizationId":"org"}`
      ])
      // Bob's grant went with the folder: a new folder of that id does not give it back.
      await client.post("/v2/organizations/folders/add", { organizationId: "org", folders: [{ folderId: "drafts", folderName: "Drafts again" }] }, creds.headers)
      const permissions = await client.post("/v2/auth/permissions/get", { organizationId: "org", userIds: ["bob"], folderIds: ["drafts"] }, creds.headers)
      expect(permissions.body.result.data.bob.folders?.drafts?.accessRole).not.toBe("viewer")
    })

    it("a missing folder is NOT_FOUND, and a repeated call changes nothing", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await setUp(creds.headers)
      expect((await client.post("/v2/organizations/folders/delete", { organizationId: "org", folderId: "old" }, creds.headers)).status).toBe(200)
      const seen = eventsOf(creds.apiKey).length
      for (const folderId of ["old", "ghost", "root"]) {
        const missing = await client.post("/v2/organizations/folders/delete", { organizationId: "org", folderId }, creds.headers)
        expect(missing.status).toBe(404)
        expect(missing.body).toEqual({ error: { status: "NOT_FOUND", message: "Folder not found." } })
      }
      expect(eventsOf(creds.apiKey).slice(seen)).toEqual([])
      expect(await folders(creds.headers)).toEqual(["drafts", "other", "specs"])
    })
  })

  describe("isolation", () => {
    it("another key's folder of the same id is not touched, and a malformed call deletes nothing", async () => {
      const { client, workspace } = ctx()
      const a = await workspace()
      const b = await workspace()
      await setUp(a.headers)
      const foreign = await client.post("/v2/organizations/folders/delete", { organizationId: "org", folderId: "specs" }, b.headers)
      expect(foreign.status).toBe(404)
      for (const data of [{ organizationId: "org" }, { folderId: "specs" }, { organizationId: "org", folderId: ["specs"] }]) {
        const bad = await client.post("/v2/organizations/folders/delete", data, a.headers)
        expect(bad.status, JSON.stringify(data)).toBe(400)
        expect(bad.body.error.status).toBe("INVALID_ARGUMENT")
      }
      expect(await folders(a.headers)).toEqual(["drafts", "old", "other", "specs"])
      expect(await documents(a.headers)).toEqual(["in-drafts", "in-old", "in-other", "in-specs"])
    })
  })
}, { listeners: [listener] })
