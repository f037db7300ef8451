/**
 * `revoked` (spec client-api.md, "Realtime"; issue 25): a subscriber who loses read access to the
 * document — its grant removed, the user removed from the document, the organization disabled —
 * is told `revoked` with a reason and gets nothing more of it, and its presence leaves; the others
 * keep theirs. Access events themselves never reach users' pages. Real sockets, SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { serveAtrium, type HttpAtrium } from "../../../../test-support/HttpAtrium.js"
import { openSocket, type Socket } from "../../../../test-support/RealtimeClient.js"
import { createTestWorkspace, httpClient, type TestClient, type TestCredentials } from "../../src/testing/index.js"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

for (const storage of ["sqlite", "postgres"] as const) {
  describe(`realtime revoked [${storage}]`, () => {
    let served: HttpAtrium
    let client: TestClient
    let creds: TestCredentials
    let n = 0
    const ok = async (path: string, data: unknown) => {
      const answer = await client.post(path, data, creds.headers)
      if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
      return answer.body.result
    }
    /** A restricted document of its own organization, which only grants open. */
    const restrictedDocument = async () => {
      const where = { organizationId: `org-${++n}`, documentId: "plan" }
      await ok("/v2/commentannotations/add", { ...where, createOrganization: true, createDocument: true, commentAnnotations: [{ annotationId: "t0", commentData: [{ commentText: "first", from: { userId: "host" } }] }] })
      await ok("/v2/organizations/documents/access/update", { organizationId: where.organizationId, documentIds: [where.documentId], accessType: "restricted" })
      return where
    }
    const grant = (userId: string, where: { organizationId: string; documentId: string }) =>
      ok("/v2/auth/permissions/add", { user: { userId }, permissions: { resources: [{ type: "document", id: where.documentId, organizationId: where.organizationId, accessRole: "viewer" }] } })
    /** A user's socket subscribed to the document, its token granting nothing (the stored grants decide). */
    const subscriber = async (userId: string, where: { organizationId: string; documentId: string }) => {
      const answer = await client.post("/v2/auth/generate_token", { userId, userProperties: { name: userId, email: `${userId}@example.com` }, permissions: { resources: [] } }, creds.headers)
      const socket = await openSocket(`${served.url.replace("http", "ws")}/v2/client/realtime?token=${answer.body.result.data.token}`)
      socket.send({ type: "subscribe", id: "s", ...where })
      expect(await socket.next((m) => m.type === "subscribed" || m.type === "error")).toMatchObject({ type: "subscribed" })
      return socket
    }
    const addThread = (where: { organizationId: string; documentId: string }, annotationId: string) =>
      ok("/v2/commentannotations/add", { ...where, commentAnnotations: [{ annotationId, commentData: [{ commentText: annotationId, from: { userId: "host" } }] }] })
    /** After the revocation: the next change reaches `kept` and not `revoked`. */
    const onlyKeptHears = async (where: { organizationId: string; documentId: string }, kept: Socket, revoked: Socket) => {
      await addThread(where, `after-${n}`)
      await kept.next((m) => m.type === "event" && m.event.data.commentAnnotation?.annotationId === `after-${n}`)
      await sleep(200)
      expect(revoked.received.filter((m) => m.type === "event")).toEqual([])
    }

    beforeAll(async () => {
      served = await serveAtrium(storage, { realtime: true })
      client = httpClient(served.url)
      creds = await createTestWorkspace(client)
    })
    afterAll(() => served?.stop())

    it("a removed grant: revoked, nothing more, presence leaves; the other subscriber and its grant are untouched", async () => {
      const where = await restrictedDocument()
      await grant("ann", where)
      await grant("bob", where)
      const [ann, bob] = [await subscriber("ann", where), await subscriber("bob", where)]
      await ann.next((m) => m.type === "presence" && m.userId === "bob")
      await ok("/v2/auth/permissions/remove", { userId: "bob", permissions: { resources: [{ type: "document", id: where.documentId, organizationId: where.organizationId }] } })
      expect(await bob.next((m) => m.type === "revoked")).toEqual({ type: "revoked", ...where, reason: "access_removed" })
      expect(await ann.next((m) => m.type === "presence.leave")).toEqual({ type: "presence.leave", ...where, userId: "bob" })
      await onlyKeptHears(where, ann, bob)
      expect(ann.received.filter((m) => m.type === "revoked")).toEqual([])
      // Bob may not come back; the socket itself stays open.
      bob.send({ type: "subscribe", id: "again", ...where })
      expect(await bob.next((m) => m.id === "again")).toMatchObject({ type: "error", status: "PERMISSION_DENIED" })
      ann.ws.close()
      bob.ws.close()
    })

    it("a user removed from the document: revoked", async () => {
      const where = await restrictedDocument()
      await ok("/v2/users/add", { ...where, users: [{ userId: "cat", accessRole: "editor" }, { userId: "dan", accessRole: "editor" }] })
      const [cat, dan] = [await subscriber("cat", where), await subscriber("dan", where)]
      await ok("/v2/users/delete", { ...where, userIds: ["dan"] })
      expect(await dan.next((m) => m.type === "revoked")).toEqual({ type: "revoked", ...where, reason: "access_removed" })
      await onlyKeptHears(where, cat, dan)
      cat.ws.close()
      dan.ws.close()
    })

    it("the organization disabled: every subscriber of its documents is revoked, with that reason", async () => {
      const where = await restrictedDocument()
      await grant("eve", where)
      const open = { organizationId: where.organizationId, documentId: "open-doc" }
      const eve = await subscriber("eve", where)
      eve.send({ type: "subscribe", id: "open", ...open })
      await eve.next((m) => m.id === "open")
      await ok("/v2/organizations/access/disablestate/update", { organizationIds: [where.organizationId], disabled: true })
      const revoked = [await eve.next((m) => m.type === "revoked"), await eve.next((m) => m.type === "revoked")]
      expect(revoked.map((m) => m.documentId).sort()).toEqual(["open-doc", "plan"])
      expect(revoked.every((m) => m.reason === "organization_disabled")).toBe(true)
      eve.ws.close()
    })

    it("access events never reach subscribers as events", async () => {
      const where = await restrictedDocument()
      await grant("fay", where)
      const fay = await subscriber("fay", where)
      await grant("gus", where)
      await ok("/v2/organizations/documents/access/update", { organizationId: where.organizationId, documentIds: [where.documentId], accessType: "restricted" })
      await addThread(where, "marker")
      const events = [await fay.next((m) => m.type === "event")]
      expect(events.map((m) => m.event.type)).toEqual(["comment_annotation.add"])
      await sleep(200)
      expect(fay.received.filter((m) => m.type === "event" || m.type === "revoked")).toEqual([])
      fay.ws.close()
    })
  })
}
