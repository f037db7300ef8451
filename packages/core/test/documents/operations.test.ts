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
