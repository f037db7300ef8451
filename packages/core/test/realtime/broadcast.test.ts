/**
 * Broadcast (issue 25 item 5; docs/realtime.md, "Broadcast") over real sockets, on SQLite and
 * PostgreSQL, and across two servers on one PostgreSQL database: the server API's
 * livestate/broadcast reaches every subscriber of the document as a `broadcast` message (merged
 * or replaced), and no one else; an editor's `broadcast` frame reaches the others, never its own
 * connection; a viewer's is refused, and so are frames that are not right.
 */
import { PgStorage } from "@atrium/sql-pg"
import { testDatabase } from "@atrium/sql-pg/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { serveAtrium, type HttpAtrium } from "../../../../test-support/HttpAtrium.js"
import { openSocket, type Socket } from "../../../../test-support/RealtimeClient.js"
import { createTestWorkspace, httpClient, type TestCredentials } from "../../src/testing/index.js"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const doc = { organizationId: "acme", documentId: "board" }

interface Grant {
  readonly organizationId: string
  readonly documentId: string
  readonly accessRole: "viewer" | "editor"
}

/** A server's API and sockets for one workspace: broadcasts through the server API, users' sockets subscribed to a document. */
const workspaceOn = (url: string, creds: TestCredentials) => {
  const post = (path: string, data: unknown, serverUrl = url) => httpClient(serverUrl).post(path, data, creds.headers)
  return {
    post,
    ok: async (path: string, data: unknown, serverUrl = url) => {
      const answer = await post(path, data, serverUrl)
      if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
      return answer.body
    },
    /** A socket of the user (its token granting `grants`), subscribed to `where`. */
    enter: async (userId: string, where: { organizationId: string; documentId: string } = doc, { grants = [], serverUrl = url }: { grants?: ReadonlyArray<Grant>; serverUrl?: string } = {}) => {
      const resources = grants.map((grant) => ({ type: "document", id: grant.documentId, organizationId: grant.organizationId, accessRole: grant.accessRole }))
      const answer = await post("/v2/auth/generate_token", { userId, userProperties: { name: userId, email: `${userId}@example.com` }, permissions: { resources } })
      const socket = await openSocket(`${serverUrl.replace("http", "ws")}/v2/client/realtime?token=${answer.body.result.data.token}`)
      socket.send({ type: "subscribe", id: "s", ...where })
      expect(await socket.next((m) => m.id === "s")).toMatchObject({ type: "subscribed" })
      return socket
    }
  }
}

const broadcastOf = (socket: Socket, liveStateDataId: string) => socket.next((m) => m.type === "broadcast" && m.liveStateDataId === liveStateDataId)
const broadcastsIn = (socket: Socket) => socket.received.filter((m) => m.type === "broadcast")

for (const storage of ["sqlite", "postgres"] as const) {
  describe(`realtime broadcast [${storage}]`, () => {
    let served: HttpAtrium
    let creds: TestCredentials
    let space: ReturnType<typeof workspaceOn>

    beforeAll(async () => {
      served = await serveAtrium(storage, { realtime: true })
      creds = await createTestWorkspace(httpClient(served.url))
      space = workspaceOn(served.url, creds)
    })
    afterAll(() => served?.stop())

    it("the server API's broadcast reaches every subscriber of the document, replaced or merged, and no one else", async () => {
      const [ann, bob] = [await space.enter("ann"), await space.enter("bob")]
      const elsewhere = await space.enter("cy", { ...doc, documentId: "other" })
      await space.ok("/v2/livestate/broadcast", { ...doc, liveStateDataId: "mode", data: { mode: "present", slide: 1 } })
      for (const socket of [ann, bob]) {
        // From the server API: no userId.
        expect(await broadcastOf(socket, "mode")).toEqual({ type: "broadcast", ...doc, liveStateDataId: "mode", data: { mode: "present", slide: 1 } })
      }
      await space.ok("/v1/livestate/broadcast", { ...doc, liveStateDataId: "mode", data: { slide: 2 }, merge: true })
      expect((await broadcastOf(ann, "mode")).data).toEqual({ mode: "present", slide: 2 })
      await space.ok("/v2/livestate/broadcast", { ...doc, liveStateDataId: "mode", data: { slide: 3 }, merge: false })
      expect((await broadcastOf(ann, "mode")).data).toEqual({ slide: 3 })
      // Bob got each too, in order (one read per message and server, sent to all its subscribers).
      expect([(await broadcastOf(bob, "mode")).data, (await broadcastOf(bob, "mode")).data]).toEqual([{ mode: "present", slide: 2 }, { slide: 3 }])
      // Each live state is its own: a merge into another starts from nothing.
      await space.ok("/v2/livestate/broadcast", { ...doc, liveStateDataId: "pointer", data: { x: 5 }, merge: true })
      for (const socket of [ann, bob]) expect((await broadcastOf(socket, "pointer")).data).toEqual({ x: 5 })

      // Another API key's broadcast under the same ids reaches its own subscribers only.
      const other = await createTestWorkspace(httpClient(served.url))
      const otherSpace = workspaceOn(served.url, other)
      const outsider = await otherSpace.enter("ann")
      await otherSpace.ok("/v2/livestate/broadcast", { ...doc, liveStateDataId: "mode", data: { from: "other key" }, merge: true })
      expect((await broadcastOf(outsider, "mode")).data).toEqual({ from: "other key" })
      await sleep(300)
      for (const socket of [ann, bob]) expect(broadcastsIn(socket)).toEqual([])
      expect(broadcastsIn(elsewhere)).toEqual([])
      for (const socket of [ann, bob, elsewhere, outsider]) socket.ws.close()
    })

    it("concurrent merges all land, and each subscriber gets the versions in order, the last always", async () => {
      const [ann, bob] = [await space.enter("ann"), await space.enter("bob")]
      await Promise.all(Array.from({ length: 20 }, (_, i) =>
        space.ok("/v2/livestate/broadcast", { ...doc, liveStateDataId: "tally", data: { [`k${i}`]: i }, merge: true })))
      for (const socket of [ann, bob]) {
        await socket.next((m) => m.type === "broadcast" && Object.keys(m.data).length === 20)
        const sizes = socket.received.filter((m) => m.type === "broadcast").map((m) => Object.keys(m.data).length)
        // What was received before the last (taken by next) grew one merge at a time at least, never back.
        expect([...sizes].sort((a, b) => a - b)).toEqual(sizes)
        expect(sizes.every((size) => size < 20)).toBe(true)
      }
      ann.ws.close()
      bob.ws.close()
    })

    it("an editor's broadcast frame reaches the others and its user's other connection, not the connection that sent it", async () => {
      const [ann, annElsewhere, bob] = [await space.enter("ann"), await space.enter("ann"), await space.enter("bob")]
      ann.send({ type: "broadcast", id: 1, ...doc, liveStateDataId: "cursor", data: { x: 1, y: 2 } })
      const sent = { type: "broadcast", ...doc, liveStateDataId: "cursor", data: { x: 1, y: 2 }, userId: "ann" }
      expect(await broadcastOf(bob, "cursor")).toEqual(sent)
      expect(await broadcastOf(annElsewhere, "cursor")).toEqual(sent)
      bob.send({ type: "broadcast", ...doc, liveStateDataId: "cursor", data: { y: 9 }, merge: true })
      expect(await broadcastOf(ann, "cursor")).toEqual({ ...sent, data: { x: 1, y: 9 }, userId: "bob" })
      await sleep(300)
      // Neither sender was sent its own, and no success answer comes (as for presence).
      expect(broadcastsIn(ann)).toEqual([])
      expect(broadcastsIn(bob)).toEqual([])
      expect(ann.received.filter((m) => m.id === 1)).toEqual([])
      // The server API merges into what the frames left.
      await space.ok("/v2/livestate/broadcast", { ...doc, liveStateDataId: "cursor", data: { z: 0 }, merge: true })
      expect((await broadcastOf(ann, "cursor")).data).toEqual({ x: 1, y: 9, z: 0 })
      for (const socket of [ann, annElsewhere, bob]) socket.ws.close()
    })

    it("a viewer's broadcast is refused PERMISSION_DENIED and reaches no one; the viewer still receives the editor's", async () => {
      const where = { organizationId: "closed", documentId: "plan" }
      await space.ok("/v2/commentannotations/add", { ...where, createOrganization: true, createDocument: true, commentAnnotations: [{ annotationId: "t0", commentData: [{ commentText: "hi", from: { userId: "host" } }] }] })
      await space.ok("/v2/organizations/documents/access/update", { organizationId: where.organizationId, documentIds: [where.documentId], accessType: "restricted" })
      const viewer = await space.enter("vic", where, { grants: [{ ...where, accessRole: "viewer" }] })
      const editor = await space.enter("eda", where, { grants: [{ ...where, accessRole: "editor" }] })
      viewer.send({ type: "broadcast", id: "b1", ...where, liveStateDataId: "cursor", data: { x: 1 } })
      expect(await viewer.next((m) => m.id === "b1")).toEqual({
        type: "error",
        id: "b1",
        status: "PERMISSION_DENIED",
        message: "User vic may only read document plan: writing needs editor."
      })
      editor.send({ type: "broadcast", ...where, liveStateDataId: "cursor", data: { x: 2 }, merge: true })
      // The viewer's was not kept either: the editor's merge starts from nothing.
      expect(await broadcastOf(viewer, "cursor")).toEqual({ type: "broadcast", ...where, liveStateDataId: "cursor", data: { x: 2 }, userId: "eda" })
      expect(broadcastsIn(editor)).toEqual([])
      viewer.ws.close()
      editor.ws.close()
    })

    it("answers broadcast frames that are not right with an error saying what is wrong, and keeps the socket", async () => {
      const [ann, bob] = [await space.enter("ann"), await space.enter("bob")]
      const refusal = async (frame: Record<string, unknown>) => {
        ann.send({ ...frame, id: "bad" })
        const error = await ann.next((m) => m.id === "bad")
        expect(error).toMatchObject({ type: "error", status: "INVALID_ARGUMENT" })
        return error.message as string
      }
      const frame = { type: "broadcast", ...doc, liveStateDataId: "cursor", data: { x: 1 } }
      expect(await refusal({ ...frame, documentId: "not-subscribed" })).toBe("broadcast: subscribe to document not-subscribed of organization acme first.")
      expect(await refusal({ ...frame, liveStateDataId: undefined })).toBe("broadcast: \"liveStateDataId\" must be a string of 1 to 256 characters.")
      expect(await refusal({ ...frame, liveStateDataId: "x".repeat(257) })).toBe("broadcast: \"liveStateDataId\" must be a string of 1 to 256 characters.")
      expect(await refusal({ ...frame, data: undefined })).toBe("broadcast: \"data\" must be a JSON object.")
      expect(await refusal({ ...frame, data: [1, 2] })).toBe("broadcast: \"data\" must be a JSON object.")
      expect(await refusal({ ...frame, data: null })).toBe("broadcast: \"data\" must be a JSON object.")
      expect(await refusal({ ...frame, merge: "yes" })).toBe("broadcast: \"merge\" must be true or false.")
      expect(await refusal({ ...frame, organizationId: 7 })).toBe("broadcast: \"organizationId\" must be a string of 1 to 256 characters.")
      expect(await refusal({ type: "shout", ...doc })).toBe("Unknown message type \"shout\": send subscribe, unsubscribe, presence or broadcast.")
      // None reached anyone; the socket is still open and subscribed: a good frame goes through.
      expect(broadcastsIn(bob)).toEqual([])
      ann.send(frame)
      expect((await broadcastOf(bob, "cursor")).data).toEqual({ x: 1 })
      ann.ws.close()
      bob.ws.close()
    })
  })
}

describe("realtime broadcast across two servers on one PostgreSQL database", () => {
  it("a broadcast through either server, by the server API or a frame, reaches the subscribers of both", async (test) => {
    const db = await testDatabase()
    if (db.server.startsWith("PGlite")) {
      await db.drop()
      return test.skip()
    }
    const servers = await Promise.all([0, 1].map(() => serveAtrium(PgStorage.layer({ url: db.url }), { realtime: true })))
    try {
      const [a, b] = servers.map((s) => s.url) as [string, string]
      const space = workspaceOn(a, await createTestWorkspace(httpClient(a)))
      const ann = await space.enter("ann", doc, { serverUrl: a })
      const bob = await space.enter("bob", doc, { serverUrl: b })
      await space.ok("/v2/livestate/broadcast", { ...doc, liveStateDataId: "mode", data: { slide: 1 } }, b)
      for (const socket of [ann, bob]) expect((await broadcastOf(socket, "mode")).data).toEqual({ slide: 1 })
      // Merged on server A into what server B stored.
      await space.ok("/v2/livestate/broadcast", { ...doc, liveStateDataId: "mode", data: { laser: true }, merge: true }, a)
      for (const socket of [ann, bob]) expect((await broadcastOf(socket, "mode")).data).toEqual({ slide: 1, laser: true })
      bob.send({ type: "broadcast", ...doc, liveStateDataId: "mode", data: { slide: 2 }, merge: true })
      expect(await broadcastOf(ann, "mode")).toEqual({ type: "broadcast", ...doc, liveStateDataId: "mode", data: { slide: 2, laser: true }, userId: "bob" })
      await sleep(300)
      expect(broadcastsIn(bob)).toEqual([])
      ann.ws.close()
      bob.ws.close()
    } finally {
      await Promise.all(servers.map((s) => s.stop()))
      await db.drop()
    }
  })
})
