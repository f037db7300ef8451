/**
 * Realtime presence (spec client-api.md, "Realtime"; issue 25 item 3) over real sockets, on SQLite
 * and PostgreSQL: a subscriber is on the document's list (its `subscribed` answer lists it), the
 * others are told when it arrives, moves and leaves (never echoed to the connection that set it),
 * the list in storage is what `presence/get` answers on any server, the server API's presence
 * writes reach subscribers, and presence/delete tells everyone, the removed user included.
 */
import { PgStorage } from "@atrium/sql-pg"
import { testDatabase } from "@atrium/sql-pg/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { serveAtrium, type HttpAtrium } from "../../../../test-support/HttpAtrium.js"
import { openSocket, type Socket } from "../../../../test-support/RealtimeClient.js"
import { createTestWorkspace, httpClient, type TestClient, type TestCredentials } from "../../src/testing/index.js"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const doc = { organizationId: "acme", documentId: "board" }
const userOf = (userId: string) => ({ userId, name: `User ${userId}`, email: `${userId}@example.com` })

/** A server's realtime socket URL and client API, for one workspace's users. */
const usersOf = (url: string, client: TestClient, creds: TestCredentials) => {
  const tokenOf = async (userId: string) => {
    const answer = await client.post("/v2/auth/generate_token", { userId, userProperties: { name: `User ${userId}`, email: `${userId}@example.com` }, permissions: { resources: [] } }, creds.headers)
    return answer.body.result.data.token as string
  }
  return {
    /** A socket of the user, subscribed to the document (its `subscribed` answer kept). */
    enter: async (userId: string, serverUrl = url) => {
      const socket = await openSocket(`${serverUrl.replace("http", "ws")}/v2/client/realtime?token=${await tokenOf(userId)}`)
      socket.send({ type: "subscribe", id: "s", ...doc })
      const subscribed = await socket.next((m) => m.type === "subscribed" || m.type === "error")
      return { socket, subscribed }
    },
    /** client presence/get as the user. */
    listed: async (userId: string, serverUrl = url) => {
      const answer = await httpClient(serverUrl).post("/v2/client/presence/get", doc, { authorization: `Bearer ${await tokenOf(userId)}` })
      expect(answer.status).toBe(200)
      return answer.body.result.data as Array<any>
    }
  }
}

const presenceOf = (socket: Socket, userId: string) => socket.next((m) => m.type === "presence" && m.userId === userId)
const leaveOf = (socket: Socket, userId: string) => socket.next((m) => m.type === "presence.leave" && m.userId === userId)

for (const storage of ["sqlite", "postgres"] as const) {
  describe(`realtime presence [${storage}]`, () => {
    let served: HttpAtrium
    let client: TestClient
    let creds: TestCredentials
    let users: ReturnType<typeof usersOf>
    const ok = async (path: string, data: unknown) => {
      const answer = await client.post(path, data, creds.headers)
      if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
      return answer.body.result
    }

    beforeAll(async () => {
      served = await serveAtrium(storage, { realtime: true })
      client = httpClient(served.url)
      creds = await createTestWorkspace(client)
      users = usersOf(served.url, client, creds)
    })
    afterAll(() => served?.stop())

    it("lists the subscriber itself, tells the others who arrives, moves and leaves, and echoes nothing to the sender", async () => {
      const ann = await users.enter("ann")
      expect(ann.subscribed.presence).toEqual([{ ...userOf("ann"), status: "online", data: null, lastSeenAt: expect.any(Number) }])
      const bob = await users.enter("bob")
      expect(bob.subscribed.presence.map((p: any) => p.userId)).toEqual(["ann", "bob"])
      expect(await presenceOf(ann.socket, "bob")).toEqual({ type: "presence", ...doc, userId: "bob", user: userOf("bob"), status: "online", data: null })

      bob.socket.send({ type: "presence", ...doc, data: { x: 10, y: 20 } })
      expect(await presenceOf(ann.socket, "bob")).toMatchObject({ status: "online", data: { x: 10, y: 20 } })
      // A newcomer a moment later sees the cursor where it is, not storage's copy of up to a second ago.
      const cy = await users.enter("cy")
      expect(cy.subscribed.presence.find((p: any) => p.userId === "bob")).toMatchObject({ data: { x: 10, y: 20 } })
      cy.socket.ws.close()
      await leaveOf(ann.socket, "cy")
      bob.socket.send({ type: "presence", ...doc, status: "away" })
      expect(await presenceOf(ann.socket, "bob")).toMatchObject({ status: "away", data: { x: 10, y: 20 } })
      bob.socket.send({ type: "presence", ...doc, data: null })
      expect(await presenceOf(ann.socket, "bob")).toMatchObject({ status: "away", data: null })
      await sleep(200)
      expect(bob.socket.received.filter((m) => m.type === "presence" && m.userId === "bob")).toEqual([])

      bob.socket.send({ type: "unsubscribe", id: "u", ...doc })
      expect(await leaveOf(ann.socket, "bob")).toEqual({ type: "presence.leave", ...doc, userId: "bob" })
      expect((await users.listed("ann")).map((p) => p.userId)).toEqual(["ann"])
      const bobAgain = await users.enter("bob")
      await presenceOf(ann.socket, "bob")
      bobAgain.socket.ws.close()
      // A clean close leaves at once.
      expect(await leaveOf(ann.socket, "bob")).toEqual({ type: "presence.leave", ...doc, userId: "bob" })
      ann.socket.ws.close()
      bob.socket.ws.close()
    })

    it("keeps presence in storage: presence/get lists what a cursor set last, however fast it moved", async () => {
      const carl = await users.enter("carl")
      const dora = await users.enter("dora")
      // 60 moves a second for half a second: the others get at most one every 50 ms, the last one always.
      for (let i = 1; i <= 30; i++) {
        carl.socket.send({ type: "presence", ...doc, data: { x: i } })
        await sleep(16)
      }
      await dora.socket.next((m) => m.type === "presence" && m.userId === "carl" && m.data?.x === 30)
      const told = dora.socket.received.filter((m) => m.type === "presence" && m.userId === "carl")
      expect(told.length).toBeLessThanOrEqual(14)
      // Written at most once a second: within a second and a bit, the list has the last position.
      await sleep(1_200)
      const listed = await users.listed("dora")
      expect(listed.find((p) => p.userId === "carl")).toEqual({ ...userOf("carl"), status: "online", data: { x: 30 }, lastSeenAt: expect.any(Number) })
      carl.socket.ws.close()
      await leaveOf(dora.socket, "carl")
      expect((await users.listed("dora")).map((p) => p.userId)).not.toContain("carl")
      dora.socket.ws.close()
    })

    it("a user with two connections stays on the list until the last one leaves", async () => {
      const watcher = await users.enter("wes")
      const first = await users.enter("eve")
      const second = await users.enter("eve")
      expect(second.subscribed.presence.map((p: any) => p.userId)).toContain("eve")
      first.socket.ws.close()
      await sleep(300)
      expect(watcher.socket.received.filter((m) => m.type === "presence.leave" && m.userId === "eve")).toEqual([])
      expect((await users.listed("wes")).map((p) => p.userId)).toContain("eve")
      second.socket.ws.close()
      await leaveOf(watcher.socket, "eve")
      watcher.socket.ws.close()
    })

    it("reaches subscribers with the server API's presence writes, and presence/delete tells everyone, the removed user too", async () => {
      const fay = await users.enter("fay")
      const gus = await users.enter("gus")
      await presenceOf(fay.socket, "gus")
      await ok("/v2/presence/update", { ...doc, users: [{ userId: "hal", name: "Hal", status: "away" }] })
      for (const socket of [fay.socket, gus.socket]) {
        expect(await presenceOf(socket, "hal")).toEqual({ type: "presence", ...doc, userId: "hal", user: { userId: "hal", name: "Hal", email: null }, status: "away", data: null })
      }
      await ok("/v2/presence/delete", { ...doc, userIds: ["gus", "hal", "nobody"] })
      for (const socket of [fay.socket, gus.socket]) {
        const left = [await leaveOf(socket, "gus"), await leaveOf(socket, "hal")]
        expect(left).toEqual([{ type: "presence.leave", ...doc, userId: "gus" }, { type: "presence.leave", ...doc, userId: "hal" }])
      }
      expect((await users.listed("fay")).map((p) => p.userId)).not.toContain("gus")
      // Gus still receives the document's changes, and is back on the list once it sets presence again.
      await ok("/v2/commentannotations/add", { ...doc, createOrganization: true, createDocument: true, commentAnnotations: [{ annotationId: "after-delete", commentData: [{ commentText: "hi", from: { userId: "fay" } }] }] })
      await gus.socket.next((m) => m.type === "event")
      gus.socket.send({ type: "presence", ...doc, data: { back: true } })
      expect(await presenceOf(fay.socket, "gus")).toMatchObject({ status: "online", data: { back: true } })
      expect((await users.listed("fay")).find((p) => p.userId === "gus")).toMatchObject({ data: { back: true } })
      fay.socket.ws.close()
      gus.socket.ws.close()
    })

    it("answers presence frames that are not allowed with an error, and keeps the socket", async () => {
      const { socket } = await users.enter("ivy")
      const elsewhere = { organizationId: "acme", documentId: "not-subscribed" }
      socket.send({ type: "presence", id: 1, ...elsewhere, data: {} })
      expect(await socket.next((m) => m.type === "error")).toEqual({
        type: "error",
        id: 1,
        status: "INVALID_ARGUMENT",
        message: "presence: subscribe to document not-subscribed of organization acme first."
      })
      socket.send({ type: "presence", id: 2, ...doc, data: [1, 2] })
      expect((await socket.next((m) => m.type === "error")).message).toBe("presence: \"data\" must be a JSON object (or null to clear it).")
      socket.send({ type: "presence", id: 3, ...doc, data: { text: "x".repeat(4_100) } })
      expect((await socket.next((m) => m.type === "error")).message).toBe("presence: \"data\" is over 4096 bytes as JSON.")
      socket.send({ type: "presence", id: 4, ...doc, status: "dancing" })
      expect((await socket.next((m) => m.type === "error")).message).toBe("presence: \"status\" must be one of online, away, offline.")
      // Just under the limit is fine.
      socket.send({ type: "presence", id: 5, ...doc, data: { text: "x".repeat(4_000) } })
      await sleep(1_200)
      expect((await users.listed("ivy")).find((p) => p.userId === "ivy")?.data.text).toHaveLength(4_000)
      socket.ws.close()
    })
  })
}

describe("realtime presence across two servers on one PostgreSQL database", () => {
  it("each user sees the other arrive, move and leave, presence/get on either server lists both, and access ended on one revokes on the other", async (test) => {
    const db = await testDatabase()
    if (db.server.startsWith("PGlite")) {
      await db.drop()
      return test.skip()
    }
    const servers = await Promise.all([0, 1].map(() => serveAtrium(PgStorage.layer({ url: db.url }), { realtime: true })))
    try {
      const [a, b] = servers.map((s) => s.url)
      const creds = await createTestWorkspace(httpClient(a!))
      const users = usersOf(a!, httpClient(a!), creds)
      const ann = await users.enter("ann", a)
      const bob = await users.enter("bob", b)
      expect(bob.subscribed.presence.map((p: any) => p.userId)).toEqual(["ann", "bob"])
      expect(await presenceOf(ann.socket, "bob")).toMatchObject({ user: userOf("bob"), status: "online" })
      ann.socket.send({ type: "presence", ...doc, data: { x: 1 } })
      expect(await presenceOf(bob.socket, "ann")).toMatchObject({ data: { x: 1 } })
      bob.socket.send({ type: "presence", ...doc, data: { x: 2 } })
      expect(await presenceOf(ann.socket, "bob")).toMatchObject({ data: { x: 2 } })
      await sleep(1_200)
      for (const url of [a, b]) expect((await users.listed("ann", url)).map((p) => [p.userId, p.data])).toEqual([["ann", { x: 1 }], ["bob", { x: 2 }]])
      bob.socket.ws.close()
      expect(await leaveOf(ann.socket, "bob")).toEqual({ type: "presence.leave", ...doc, userId: "bob" })
      // Access ended through the other server reaches this one's subscriber too.
      expect((await httpClient(b!).post("/v2/organizations/add", { organizations: [{ organizationId: doc.organizationId }] }, creds.headers)).status).toBe(200)
      expect((await httpClient(b!).post("/v2/organizations/access/disablestate/update", { organizationIds: [doc.organizationId], disabled: true }, creds.headers)).status).toBe(200)
      expect(await ann.socket.next((m) => m.type === "revoked")).toEqual({ type: "revoked", ...doc, reason: "organization_disabled" })
      ann.socket.ws.close()
    } finally {
      await Promise.all(servers.map((s) => s.stop()))
      await db.drop()
    }
  })
})
