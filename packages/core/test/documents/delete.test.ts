/**
 * documents/delete, v2 and v1 (issue 28): each document and every row of it go, with
 * `document.delete` (delivered, signed, to the key's endpoint on loopback) and
 * `access.document_deleted`; a missing one fails its item as the hosted service answers; a
 * repeated or concurrent call deletes once; another key's document of the same id is not touched.
 * Every table is walked in test/jobs/inventory.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { forEachBackend } from "../../../../test-support/backends.js"
import { expectCap } from "../../../../test-support/caps.js"
import { eventRecorder } from "../../../../test-support/eventRecorder.js"
import { type Receiver, startReceiver, verified } from "../../../../test-support/receiver.js"
import { MAX_DOCUMENTS_PER_CALL } from "../../src/documents/DocumentSchemas.js"

const { eventsOf, listener } = eventRecorder()
let receiver: Receiver
beforeAll(async () => {
  receiver = await startReceiver()
})
afterAll(() => receiver.close())

forEachBackend("organizations/documents/delete", (ctx) => {
  /** Documents d1 and d2 in org, each with a thread, presence and an activity. */
  const setUp = async (headers: Record<string, string>) => {
    const { client } = ctx()
    const post = async (path: string, data: unknown) => {
      const answer = await client.post(path, data, headers)
      expect(answer.status, `${path}: ${answer.text}`).toBe(200)
      return answer.body.result
    }
    await post("/v2/organizations/documents/add", { organizationId: "org", createOrganization: true, documents: [{ documentId: "d1", documentName: "One" }, { documentId: "d2", documentName: "Two" }] })
    for (const documentId of ["d1", "d2"]) {
      await post("/v2/commentannotations/add", {
        organizationId: "org",
        documentId,
        commentAnnotations: [{ annotationId: `t-${documentId}`, commentData: [{ commentId: 1, commentText: "hi", from: { userId: "ann" } }] }]
      })
      await post("/v2/presence/add", { organizationId: "org", documentId, users: [{ userId: "ann", status: "online" }] })
      await post("/v2/activities/add", { organizationId: "org", documentId, activities: [{ id: `a-${documentId}`, featureType: "custom", actionType: "x", actionUser: { userId: "ann" }, targetEntityId: documentId }] })
    }
  }

  const what = async (headers: Record<string, string>, documentId: string) => {
    const { client } = ctx()
    return {
      documents: (await client.post("/v2/organizations/documents/get", { organizationId: "org", documentIds: [documentId] }, headers)).body.result.data.length,
      threads: (await client.post("/v2/commentannotations/get", { organizationId: "org", documentId }, headers)).body.result.data.length,
      activities: (await client.post("/v2/activities/get", { organizationId: "org", documentId }, headers)).body.result.data.length
    }
  }

  describe("v2", () => {
    it("deletes each document with everything of it, emits its events, and delivers document.delete signed to the key's endpoint", async () => {
      const { atrium, client, workspace } = ctx()
      const creds = await workspace()
      await client.post("/v2/workspace/advancedwebhookconfig/update", { isEnabled: true }, creds.headers)
      const endpoint = (await client.post("/v2/workspace/advancedwebhook/endpoints/create", { url: receiver.url, filterTypes: ["document.delete"] }, creds.headers)).body.result.data
      const { secret } = (await client.post("/v2/workspace/advancedwebhook/endpoints/secret/get", { endpointId: endpoint.id }, creds.headers)).body.result.data
      await setUp(creds.headers)
      const d2 = await what(creds.headers, "d2")
      const seen = eventsOf(creds.apiKey).length

      const deleted = await client.post("/v2/organizations/documents/delete", { organizationId: "org", documentIds: ["d1"] }, creds.headers)
      expect(deleted.status).toBe(200)
      expect(deleted.body.result).toEqual({ status: "success", message: "Document(s) deleted successfully.", data: { d1: { success: true, id: expect.any(String), message: "Deleted Successfully" } } })
      expect(await what(creds.headers, "d1")).toEqual({ documents: 0, threads: 0, activities: 0 })
      expect(await what(creds.headers, "d2")).toEqual(d2)
      expect(eventsOf(creds.apiKey).slice(seen).map((e) => [e.type, e.channels, e.data])).toEqual([
        ["document.delete", ["org", "org/d1"], { organizationId: "org", documentId: "d1" }],
        ["access.document_deleted", ["org", "org/d1"], { resource: { type: "document", id: "d1", organizationId: "org" } }]
      ])

      const before = receiver.received.length
      await atrium.runDue()
      await receiver.waitFor(before + 1)
      const delivery = receiver.received.slice(before).find((r) => verified(secret, r).event === "document.delete")
      expect(verified(secret, delivery!)).toMatchObject({ event: "document.delete", data: { organizationId: "org", documentId: "d1" } })
    })

    it("a missing document fails its item (INTERNAL with every item), the others are deleted; repeated, nothing changes", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await setUp(creds.headers)
      const partial = await client.post("/v2/organizations/documents/delete", { organizationId: "org", documentIds: ["d1", "ghost"] }, creds.headers)
      expect(partial.status).toBe(500)
      expect(partial.body).toEqual({
        error: {
          status: "INTERNAL",
          message: "Error deleting document(s).",
          details: {
            d1: { success: true, id: expect.any(String), message: "Deleted Successfully" },
            ghost: { success: false, id: "ghost", message: "Document does not exist", code: "not-found" }
          }
        }
      })
      expect(await what(creds.headers, "d1")).toEqual({ documents: 0, threads: 0, activities: 0 })
      const seen = eventsOf(creds.apiKey).length
      const again = await client.post("/v2/organizations/documents/delete", { organizationId: "org", documentIds: ["d1"] }, creds.headers)
      expect(again.body.error.details.d1).toEqual({ success: false, id: "d1", message: "Document does not exist", code: "not-found" })
      expect(eventsOf(creds.apiKey).slice(seen)).toEqual([])
      expect((await what(creds.headers, "d2")).threads).toBe(1)
    })

    it("concurrent deletes of one document delete it once", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await setUp(creds.headers)
      const seen = eventsOf(creds.apiKey).length
      const answers = await Promise.all(Array.from({ length: 8 }, () => client.post("/v2/organizations/documents/delete", { organizationId: "org", documentIds: ["d1", "d2"] }, creds.headers)))
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1)
      expect(answers.filter((a) => a.status === 500)).toHaveLength(7)
      expect(eventsOf(creds.apiKey).slice(seen).filter((e) => e.type === "document.delete")).toHaveLength(2)
    })
  })

  describe("v1, isolation and caps", () => {
    it("v1 answers 200 with a failed item for a missing document", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await setUp(creds.headers)
      const answered = await client.post("/v1/organizations/documents/delete", { organizationId: "org", documentIds: ["d2", "ghost"] }, creds.headers)
      expect(answered.status).toBe(200)
      expect(answered.body.result).toEqual({
        status: "success",
        message: "Document(s) deleted successfully.",
        data: {
          d2: { success: true, id: expect.any(String), message: "Deleted Successfully" },
          ghost: { success: false, id: "ghost", message: "Document does not exist", code: "not-found" }
        }
      })
      expect(await what(creds.headers, "d2")).toEqual({ documents: 0, threads: 0, activities: 0 })
    })

    it("another key's document of the same id is not touched, and a malformed call deletes nothing", async () => {
      const { client, workspace } = ctx()
      const a = await workspace()
      const b = await workspace()
      await setUp(a.headers)
      const before = await what(a.headers, "d1")
      const foreign = await client.post("/v1/organizations/documents/delete", { organizationId: "org", documentIds: ["d1"] }, b.headers)
      expect(foreign.body.result.data.d1.success).toBe(false)
      for (const data of [{ organizationId: "org" }, { organizationId: "org", documentIds: [] }, { documentIds: ["d1"] }, { organizationId: "org", documentIds: ["d1", 2] }]) {
        const bad = await client.post("/v2/organizations/documents/delete", data, a.headers)
        expect(bad.status, JSON.stringify(data)).toBe(400)
        expect(bad.body.error.status).toBe("INVALID_ARGUMENT")
      }
      expect(await what(a.headers, "d1")).toEqual(before)
    })

    it(`takes ${MAX_DOCUMENTS_PER_CALL} documents; one more is refused, nothing deleted`, async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const post = (path: string, data: unknown) => client.post(path, data, creds.headers)
      const ids = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}-${i}`)
      await post("/v2/organizations/documents/add", { organizationId: "org", createOrganization: true, documents: ids(MAX_DOCUMENTS_PER_CALL, "over").map((documentId) => ({ documentId })) })
      await post("/v2/organizations/documents/add", { organizationId: "org", documents: [{ documentId: `over-${MAX_DOCUMENTS_PER_CALL}` }] })
      // v1: the call at the cap names documents that do not exist, which v2 answers 500.
      await expectCap({ post, path: "/v1/organizations/documents/delete", field: "documentIds", max: MAX_DOCUMENTS_PER_CALL, data: (n, tag) => ({ organizationId: "org", documentIds: ids(n, tag) }) })
      const left = await post("/v2/organizations/documents/get", { organizationId: "org" })
      expect(left.body.result.data).toHaveLength(MAX_DOCUMENTS_PER_CALL + 1)
    })
  })
}, { options: { allowPrivateNetworks: true }, listeners: [listener] })
