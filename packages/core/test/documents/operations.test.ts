import { describe, expect, it } from "vitest"
import { forEachBackend } from "../../../../test-support/backends.js"
import { expectCap } from "../../../../test-support/caps.js"
import { MAX_DOCUMENTS_PER_CALL } from "../../src/documents/DocumentSchemas.js"

forEachBackend("organizations/documents", (ctx) => {
  describe("v1 add + v2 get", () => {
    it("adds documents and pages through them with pageToken", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const documents = Array.from({ length: 5 }, (_, i) => ({ documentId: `doc-${i}`, documentName: `Doc ${i}` }))
      const added = await client.post("/v1/organizations/documents/add", { organizationId: "org", documents }, creds.headers)
      expect(added.status).toBe(200)
      expect(Object.keys(added.body.result.data)).toHaveLength(5)

      const seen: Array<string> = []
      let pageToken: string | undefined
      do {
        const page = await client.post("/v2/organizations/documents/get", { organizationId: "org", pageSize: 2, ...(pageToken && { pageToken }) }, creds.headers)
        expect(page.status).toBe(200)
        seen.push(...page.body.result.data.map((d: { id: string }) => d.id))
        pageToken = page.body.result.pageToken
      } while (pageToken)
      expect(seen).toEqual(["doc-0", "doc-1", "doc-2", "doc-3", "doc-4"])
    })

    it("never shows another API key's documents", async () => {
      const { client, workspace } = ctx()
      const a = await workspace()
      const b = await workspace()
      await client.post("/v1/organizations/documents/add", { organizationId: "shared", documents: [{ documentId: "secret" }] }, a.headers)
      const got = await client.post("/v2/organizations/documents/get", { organizationId: "shared" }, b.headers)
      expect(got.body.result.data).toEqual([])
    })

    it("refuses 31 documentIds and accepts 30", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const ids = (n: number) => Array.from({ length: n }, (_, i) => `d${i}`)
      const over = await client.post("/v2/organizations/documents/get", { organizationId: "o", documentIds: ids(31) }, creds.headers)
      expect(over.status).toBe(400)
      expect(over.body.error.status).toBe("INVALID_ARGUMENT")
      expect(over.body.error.message).toContain("data.documentIds")
      const at = await client.post("/v2/organizations/documents/get", { organizationId: "o", documentIds: ids(30) }, creds.headers)
      expect(at.status).toBe(200)
    })
  })

  describe("update and move", () => {
    const setUp = async (client: ReturnType<typeof ctx>["client"], headers: Record<string, string>) => {
      await client.post("/v2/organizations/folders/add", { organizationId: "org", createOrganization: true, folders: [{ folderId: "specs", folderName: "Specs" }, { folderId: "archive", folderName: "Archive" }] }, headers)
      await client.post("/v1/organizations/documents/add", { organizationId: "org", folderId: "specs", documents: [{ documentId: "d1", documentName: "One" }, { documentId: "d2", documentName: "Two" }] }, headers)
    }
    const inFolder = async (client: ReturnType<typeof ctx>["client"], headers: Record<string, string>, folderId?: string) =>
      (await client.post("/v2/organizations/documents/get", { organizationId: "org", ...(folderId && { folderId }) }, headers)).body.result.data
        .map((d: { id: string; documentName: string }) => `${d.id}:${d.documentName}`)

    it("v2 update renames existing documents in place; a missing one fails as the hosted service answers, the others written", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await setUp(client, creds.headers)
      const ids = (await client.post("/v2/organizations/documents/get", { organizationId: "org" }, creds.headers)).body.result.data
      expect(ids).toHaveLength(2)

      const ok = await client.post("/v2/organizations/documents/update", { organizationId: "org", documents: [{ documentId: "d2", documentName: "Two, revised", owner: "ann" }] }, creds.headers)
      expect(ok.status).toBe(200)
      expect(ok.body.result).toEqual({ status: "success", message: "Document(s) updated successfully.", data: { d2: { success: true, id: expect.any(String), message: "Updated Successfully" } } })

      const partial = await client.post("/v2/organizations/documents/update", { organizationId: "org", documents: [{ documentId: "d1", documentName: "One, revised" }, { documentId: "ghost", documentName: "Ghost" }] }, creds.headers)
      expect(partial.status).toBe(500)
      expect(partial.body).toEqual({
        error: {
          status: "INTERNAL",
          message: "Error updating document(s).",
          details: {
            d1: { success: true, id: expect.any(String), message: "Updated Successfully" },
            ghost: { success: false, id: "ghost", message: "Document does not exist", code: "not-found" }
          }
        }
      })
      // Renamed where they were (update never moves), and nothing created for the missing one.
      expect(await inFolder(client, creds.headers, "specs")).toEqual(["d1:One, revised", "d2:Two, revised"])
      expect(await inFolder(client, creds.headers)).toEqual(["d1:One, revised", "d2:Two, revised"])
    })

    it("v1 update answers 200 with a failed item for a missing document", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await setUp(client, creds.headers)
      const answered = await client.post("/v1/organizations/documents/update", { organizationId: "org", documents: [{ documentId: "d1", documentName: "Uno" }, { documentId: "ghost" }] }, creds.headers)
      expect(answered.status).toBe(200)
      expect(answered.body.result.data).toEqual({
        d1: { success: true, id: expect.any(String), message: "Updated Successfully" },
        ghost: { success: false, id: "ghost", message: "Document does not exist", code: "not-found" }
      })
      expect(await inFolder(client, creds.headers, "specs")).toEqual(["d1:Uno", "d2:Two"])
    })

    it("move puts documents into a folder all or none: a missing folder or document moves nothing", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await setUp(client, creds.headers)
      const move = (data: object) => client.post("/v2/organizations/documents/move", { organizationId: "org", ...data }, creds.headers)

      const moved = await move({ documentIds: ["d1"], folderId: "archive" })
      expect([moved.status, moved.body]).toEqual([200, { result: { status: "success", message: "Documents moved successfully." } }])
      expect(await inFolder(client, creds.headers, "archive")).toEqual(["d1:One"])
      expect(await inFolder(client, creds.headers, "specs")).toEqual(["d2:Two"])

      const noFolder = await move({ documentIds: ["d2"], folderId: "nowhere" })
      expect([noFolder.status, noFolder.body]).toEqual([404, { error: { status: "NOT_FOUND", message: "Folder nowhere does not exist in organization org." } }])
      const noDocument = await move({ documentIds: ["d2", "ghost"], folderId: "archive" })
      expect([noDocument.status, noDocument.body]).toEqual([404, { error: { status: "NOT_FOUND", message: "Document ghost does not exist in organization org." } }])
      expect(await inFolder(client, creds.headers, "specs")).toEqual(["d2:Two"])

      const tooMany = await move({ documentIds: Array.from({ length: 31 }, (_, i) => `d${i}`), folderId: "archive" })
      expect(tooMany.status).toBe(400)
      expect(tooMany.body.error.message).toContain("documentIds")
      const noTarget = await move({ documentIds: ["d2"] })
      expect(noTarget.status).toBe(400)
      expect(noTarget.body.error.message).toContain("folderId")
    })

    it("touches only the caller's documents", async () => {
      const { client, workspace } = ctx()
      const a = await workspace()
      const b = await workspace()
      await setUp(client, a.headers)
      const renamed = await client.post("/v1/organizations/documents/update", { organizationId: "org", documents: [{ documentId: "d1", documentName: "B's" }] }, b.headers)
      expect(renamed.body.result.data.d1.success).toBe(false)
      const moved = await client.post("/v2/organizations/documents/move", { organizationId: "org", documentIds: ["d1"], folderId: "archive" }, b.headers)
      expect(moved.status).toBe(404)
      expect(await inFolder(client, a.headers, "specs")).toEqual(["d1:One", "d2:Two"])
    })
  })

  describe("caps (issue 21: one call's work stays short)", () => {
    it(`v1 and v2 documents/add take ${MAX_DOCUMENTS_PER_CALL} documents; one more is refused, nothing written`, async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const post = (path: string, data: unknown) => client.post(path, data, creds.headers)
      const documents = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ({ documentId: `${tag}-${i}`, documentName: `Document ${i}` }))
      await expectCap({ post, path: "/v1/organizations/documents/add", field: "documents", max: MAX_DOCUMENTS_PER_CALL, data: (n, tag) => ({ organizationId: "o", documents: documents(n, `v1-${tag}`) }) })
      await expectCap({ post, path: "/v2/organizations/documents/add", field: "documents", max: MAX_DOCUMENTS_PER_CALL, data: (n, tag) => ({ organizationId: "o", documents: documents(n, `v2-${tag}`) }) })
      const listed = await post("/v2/organizations/documents/get", { organizationId: "o", pageSize: 1000 })
      expect(listed.body.result.data.map((d: { id: string }) => d.id).sort()).toEqual(
        [...documents(MAX_DOCUMENTS_PER_CALL, "v1-at"), ...documents(MAX_DOCUMENTS_PER_CALL, "v2-at")].map((d) => d.documentId).sort()
      )
    })
  })
})
