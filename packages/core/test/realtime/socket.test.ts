/**
 * The realtime WebSocket over a real node:http server (node-http's attachRealtime) with real `ws`
 * clients, on SQLite and PostgreSQL: authentication before the upgrade, subscribe with the access
 * rule, every change made through the server API arriving as an `event` in order, resuming from a
 * seq, a private thread's events only to those who may see it, unsubscribe, and bad frames answered
 * with an error message or a close code.
 */
import { attachRealtime, toNodeListener } from "@atrium/node-http"
import { PgStorage } from "@atrium/sql-pg"
import { testDatabase } from "@atrium/sql-pg/testing"
import * as Effect from "effect/Effect"
import { createServer } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { listen } from "../../../../test-support/backends.js"
import { serveAtrium, type HttpAtrium } from "../../../../test-support/HttpAtrium.js"
import { openSocket as open, refusal } from "../../../../test-support/RealtimeClient.js"
import { RealtimeLogRepo } from "../../src/realtime/RealtimeLogRepo.js"
import { createTestWorkspace, httpClient, type TestClient, type TestCredentials, testAtrium } from "../../src/testing/index.js"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

for (const storage of ["sqlite", "postgres"] as const) {
  describe(`realtime over a WebSocket [${storage}]`, () => {
    let served: HttpAtrium
    let client: TestClient
    let creds: TestCredentials
    const doc = { organizationId: "acme", documentId: "spec-42" }
    const wsUrl = (token: string) => `${served.url.replace("http", "ws")}/v2/client/realtime?token=${encodeURIComponent(token)}`
    const tokenOf = async (userId: string, resources: ReadonlyArray<unknown> = [{ type: "document", id: doc.documentId, organizationId: doc.organizationId, accessRole: "editor" }]) => {
      const answer = await client.post("/v2/auth/generate_token", { userId, userProperties: { name: userId, email: `${userId}@example.com` }, permissions: { resources } }, creds.headers)
      return answer.body.result.data.token as string
    }
    const ok = async (path: string, data: unknown) => {
      const answer = await client.post(path, data, creds.headers)
      if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
      return answer.body.result
    }
    const addThread = (annotationId: string, extra: Record<string, unknown> = {}, where = doc) =>
      ok("/v2/commentannotations/add", {
        ...where,
        createOrganization: true,
        createDocument: true,
        commentAnnotations: [{ annotationId, commentData: [{ commentText: `on ${annotationId}`, from: { userId: "ann" } }], ...extra }]
      })

    beforeAll(async () => {
      served = await serveAtrium(storage, { realtime: true })
      client = httpClient(served.url)
      creds = await createTestWorkspace(client)
      // The document is restricted: a grant (the tokens') is what lets a user in.
      await addThread("t0")
      await ok("/v2/organizations/documents/access/update", { organizationId: doc.organizationId, documentIds: [doc.documentId], accessType: "restricted" })
    })
    afterAll(() => served?.stop())

    it("refuses a missing, broken or foreign token before the upgrade, with the client API's answer", async () => {
      const base = `${served.url.replace("http", "ws")}/v2/client/realtime`
      expect(await refusal(base)).toEqual({ status: 401, body: { error: { status: "UNAUTHENTICATED", message: "Invalid token.", details: { reason: "no_token" } } } })
      expect((await refusal(`${base}?token=not.a.jwt`)).body.error).toMatchObject({ status: "UNAUTHENTICATED", message: "Invalid token." })
      const token = await tokenOf("ann")
      const tampered = token.slice(0, -4) + (token.endsWith("AAAA") ? "BBBB" : "AAAA")
      expect((await refusal(wsUrl(tampered))).status).toBe(401)
      expect((await refusal(`${served.url.replace("http", "ws")}/v2/client/elsewhere?token=${token}`)).status).toBe(404)
    })

    it("subscribes a user who may read the document, and sends every change made through the server API, in order", async () => {
      const socket = await open(wsUrl(await tokenOf("ann")))
      socket.send({ type: "subscribe", id: "s1", ...doc })
      const subscribed = await socket.next((m) => m.type === "subscribed")
      expect(subscribed).toMatchObject({ type: "subscribed", id: "s1", ...doc })
      expect(Array.isArray(subscribed.presence)).toBe(true)
      await addThread("t1")
      await ok("/v2/commentannotations/comments/add", { ...doc, annotationId: "t1", commentData: [{ commentText: "reply", from: { userId: "bob" } }] })
      const first = await socket.next((m) => m.type === "event")
      const second = await socket.next((m) => m.type === "event")
      expect(first).toMatchObject({ type: "event", ...doc, event: { type: "comment_annotation.add" } })
      expect(first.event.data.commentAnnotation.annotationId).toBe("t1")
      expect(typeof first.event.timestamp).toBe("number")
      expect(second).toMatchObject({ type: "event", ...doc, seq: first.seq + 1, event: { type: "comment.add" } })
      socket.ws.close()
    })

    it("refuses a document the user may not read, echoing the id; the socket stays open", async () => {
      const socket = await open(wsUrl(await tokenOf("carol", [])))
      socket.send({ type: "subscribe", id: 7, ...doc })
      expect(await socket.next()).toEqual({ type: "error", id: 7, status: "PERMISSION_DENIED", message: `User carol has no access to document ${doc.documentId}.` })
      socket.send({ type: "subscribe", id: 8, organizationId: "acme", documentId: "open-doc" })
      expect(await socket.next()).toMatchObject({ type: "subscribed", id: 8 })
      socket.ws.close()
    })

    it("resumes after the last seq a client saw: what it missed, then what comes", async () => {
      const token = await tokenOf("ann")
      const first = await open(wsUrl(token))
      first.send({ type: "subscribe", ...doc })
      await first.next((m) => m.type === "subscribed")
      await addThread("r1")
      const seen = await first.next((m) => m.type === "event")
      first.ws.close()
      await first.closed
      // While it was away: two changes (the server still logs them: another subscriber follows the key).
      const keeper = await open(wsUrl(token))
      keeper.send({ type: "subscribe", ...doc })
      await keeper.next((m) => m.type === "subscribed")
      await addThread("r2")
      await addThread("r3")
      await keeper.next((m) => m.type === "event" && m.event.data.commentAnnotation?.annotationId === "r3")
      const back = await open(wsUrl(token))
      back.send({ type: "subscribe", ...doc, afterSeq: seen.seq })
      await back.next((m) => m.type === "subscribed")
      const missed = [await back.next((m) => m.type === "event"), await back.next((m) => m.type === "event")]
      expect(missed.map((m) => m.event.data.commentAnnotation.annotationId)).toEqual(["r2", "r3"])
      expect(missed.map((m) => m.seq)).toEqual([seen.seq + 1, seen.seq + 2])
      await addThread("r4")
      expect((await back.next((m) => m.type === "event")).seq).toBe(seen.seq + 3)
      keeper.ws.close()
      back.ws.close()
    })

    it("resumes a lone subscriber too: its key stays followed a while after its last socket drops", async () => {
      // A workspace of its own: no other test's socket follows its key.
      const own = await createTestWorkspace(client)
      const post = async (path: string, data: unknown) => (await client.post(path, data, own.headers)).body.result.data
      const { token } = await post("/v2/auth/generate_token", { userId: "ann", userProperties: { name: "ann", email: "ann@example.com" }, permissions: { resources: [] } })
      const add = (annotationId: string) =>
        post("/v2/commentannotations/add", { ...doc, createOrganization: true, createDocument: true, commentAnnotations: [{ annotationId, commentData: [{ commentText: annotationId, from: { userId: "bo" } }] }] })
      const first = await open(wsUrl(token))
      first.send({ type: "subscribe", ...doc })
      await first.next((m) => m.type === "subscribed")
      await add("a1")
      const seen = await first.next((m) => m.type === "event")
      first.ws.terminate() // the key's only socket, on any server
      await first.closed
      await sleep(300) // the server has seen it go
      await add("a2")
      const back = await open(wsUrl(token))
      back.send({ type: "subscribe", ...doc, afterSeq: seen.seq })
      await back.next((m) => m.type === "subscribed")
      const missed = await back.next((m) => m.type === "event")
      expect([missed.seq, missed.event.data.commentAnnotation.annotationId]).toEqual([seen.seq + 1, "a2"])
      back.ws.close()
    })

    it("tells a client resuming after its key went unfollowed to resync: what changed meanwhile was never logged", async () => {
      const own = await createTestWorkspace(client)
      const post = async (path: string, data: unknown) => (await client.post(path, data, own.headers)).body.result.data
      const { token } = await post("/v2/auth/generate_token", { userId: "ann", userProperties: { name: "ann", email: "ann@example.com" }, permissions: { resources: [] } })
      const add = (annotationId: string) =>
        post("/v2/commentannotations/add", { ...doc, createOrganization: true, createDocument: true, commentAnnotations: [{ annotationId, commentData: [{ commentText: annotationId, from: { userId: "bo" } }] }] })
      await add("b0")
      const first = await open(wsUrl(token))
      first.send({ type: "subscribe", ...doc })
      const subscribed = await first.next((m) => m.type === "subscribed")
      expect(subscribed).toMatchObject({ seq: 0, since: expect.any(Number) })
      first.ws.terminate()
      await first.closed
      await sleep(300)
      // The key's follows run out (as 30 s without a socket of the key would) and the servers' cache of them (1 s).
      await served.atrium.runtime.runPromise(Effect.flatMap(RealtimeLogRepo, (log) => log.forgetExpiredFollows(Date.now() + 60_000)))
      await sleep(1_200)
      await add("b1") // not logged: nobody follows the key
      const back = await open(wsUrl(token))
      back.send({ type: "subscribe", ...doc, afterSeq: subscribed.seq, since: subscribed.since })
      const again = await back.next((m) => m.type === "subscribed")
      expect(again.since).toBeGreaterThan(subscribed.since)
      expect(await back.next((m) => m.type === "resync")).toEqual({ type: "resync", ...doc, seq: again.seq })
      // A resume within the run goes on as before: the next change arrives, with no resync.
      await add("b2")
      expect((await back.next((m) => m.type === "event")).event.data.commentAnnotation.annotationId).toBe("b2")
      const third = await open(wsUrl(token))
      third.send({ type: "subscribe", ...doc, afterSeq: again.seq, since: again.since })
      await third.next((m) => m.type === "subscribed")
      expect((await third.next((m) => m.type === "event")).event.data.commentAnnotation.annotationId).toBe("b2")
      await sleep(200)
      expect(third.received.filter((m) => m.type === "resync")).toEqual([])
      back.ws.close()
      third.ws.close()
    })

    it("sends a restricted thread's events only to the users it lists", async () => {
      const [ann, dave] = [await open(wsUrl(await tokenOf("ann"))), await open(wsUrl(await tokenOf("dave")))]
      for (const socket of [ann, dave]) {
        socket.send({ type: "subscribe", ...doc })
        await socket.next((m) => m.type === "subscribed")
      }
      await addThread("private-1", { visibility: { type: "restricted", userIds: ["ann"] } })
      await addThread("public-1")
      expect((await ann.next((m) => m.type === "event")).event.data.commentAnnotation.annotationId).toBe("private-1")
      expect((await ann.next((m) => m.type === "event")).event.data.commentAnnotation.annotationId).toBe("public-1")
      // Dave gets the public one only: the private one came first, so it would have arrived first.
      expect((await dave.next((m) => m.type === "event")).event.data.commentAnnotation.annotationId).toBe("public-1")
      expect(dave.received.filter((m) => m.type === "event")).toEqual([])
      ann.ws.close()
      dave.ws.close()
    })

    it("stops sending a document's changes after unsubscribe", async () => {
      const socket = await open(wsUrl(await tokenOf("ann")))
      socket.send({ type: "subscribe", ...doc })
      await socket.next((m) => m.type === "subscribed")
      socket.send({ type: "unsubscribe", id: "u", ...doc })
      expect(await socket.next()).toEqual({ type: "unsubscribed", id: "u", ...doc })
      await addThread("after-unsubscribe")
      await sleep(300)
      expect(socket.received).toEqual([])
      socket.ws.close()
    })

    it("answers bad frames with an error message, and closes on an oversized one (1009)", async () => {
      const socket = await open(wsUrl(await tokenOf("ann")))
      socket.send("{not json")
      expect(await socket.next()).toEqual({ type: "error", status: "INVALID_ARGUMENT", message: "A frame must be a JSON object: this one is not JSON." })
      socket.send("[]")
      expect((await socket.next()).message).toBe("A frame must be a JSON object with a \"type\".")
      socket.send({ type: "dance", id: "d" })
      expect(await socket.next()).toEqual({ type: "error", id: "d", status: "INVALID_ARGUMENT", message: "Unknown message type \"dance\": send subscribe, unsubscribe, presence or broadcast." })
      socket.send({ type: "subscribe", organizationId: "acme" })
      expect((await socket.next()).message).toBe("subscribe: \"documentId\" must be a string of 1 to 256 characters.")
      socket.ws.send(Buffer.from([1, 2, 3]), { binary: true })
      expect((await socket.next()).message).toBe("Frames must be JSON text, not binary.")
      socket.send({ type: "subscribe", ...doc, afterSeq: -1 })
      expect((await socket.next()).status).toBe("INVALID_ARGUMENT")
      // Still usable after all of that.
      socket.send({ type: "subscribe", id: "ok", ...doc })
      expect(await socket.next()).toMatchObject({ type: "subscribed", id: "ok" })
      socket.send("x".repeat(20_000))
      expect((await socket.closed).code).toBe(1009)
    })
  })
}

describe("realtime across two servers on one PostgreSQL database", () => {
  it("a change made through one server's API reaches a subscriber of the other, in order", async (test) => {
    const db = await testDatabase()
    // PGlite (the fallback where no server runs) serves every connection from one session: no NOTIFY crosses.
    if (db.server.startsWith("PGlite")) {
      await db.drop()
      return test.skip()
    }
    const servers = await Promise.all([0, 1].map(async () => {
      const atrium = testAtrium(PgStorage.layer({ url: db.url }))
      await atrium.ready()
      const server = createServer(toNodeListener(atrium))
      const realtime = attachRealtime(server, atrium)
      const url = await listen(server)
      return { atrium, url, stop: async () => {
        await realtime.close()
        await new Promise<void>((resolve) => server.close(() => resolve()))
        await atrium.dispose()
      } }
    }))
    try {
      const [a, b] = servers.map((s) => httpClient(s.url))
      const creds = await createTestWorkspace(a!)
      const where = { organizationId: "acme", documentId: "spec-42" }
      const token = (await a!.post("/v2/auth/generate_token", { userId: "ann", userProperties: { name: "Ann", email: "ann@example.com" }, permissions: { resources: [] } }, creds.headers)).body.result.data.token
      const socket = await open(`${servers[0]!.url.replace("http", "ws")}/v2/client/realtime?token=${token}`)
      socket.send({ type: "subscribe", ...where })
      await socket.next((m) => m.type === "subscribed")
      for (const id of ["b1", "b2", "b3"]) {
        const answer = await b!.post("/v2/commentannotations/add", {
          ...where,
          createOrganization: true,
          createDocument: true,
          commentAnnotations: [{ annotationId: id, commentData: [{ commentText: id, from: { userId: "bob" } }] }]
        }, creds.headers)
        expect(answer.status).toBe(200)
      }
      const got = [await socket.next((m) => m.type === "event"), await socket.next((m) => m.type === "event"), await socket.next((m) => m.type === "event")]
      expect(got.map((m) => m.event.data.commentAnnotation.annotationId)).toEqual(["b1", "b2", "b3"])
      expect(got.map((m) => m.seq)).toEqual([1, 2, 3])
      socket.ws.close()
    } finally {
      await Promise.all(servers.map((s) => s.stop()))
      await db.drop()
    }
  })
})
