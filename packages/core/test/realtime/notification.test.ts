/**
 * The realtime `notification` message (spec client-api.md, "Realtime"; issue 25 item 1, issue 26
 * item 6): a notification made by a comment change or by notifications/add reaches every open
 * connection of each user whose "for you" view shows it, whatever the connection subscribes to, on
 * any server of the database; nobody else's, and not the actor's. Real sockets, SQLite and
 * PostgreSQL, and two servers on one PostgreSQL database.
 */
import { PgStorage } from "@atrium/sql-pg"
import { testDatabase } from "@atrium/sql-pg/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type HttpAtrium, serveAtrium } from "../../../../test-support/HttpAtrium.js"
import { openSocket, type Socket } from "../../../../test-support/RealtimeClient.js"
import { createTestWorkspace, httpClient, type TestClient, type TestCredentials } from "../../src/testing/index.js"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const user = (userId: string) => ({ userId, name: `User ${userId}` })
const mention = (userId: string) => ({ userId, text: `@${userId}` })

/** One workspace's users on a server: their tokens, their sockets (subscribed to nothing), their client calls. */
const usersOf = (client: TestClient, creds: TestCredentials) => {
  const tokenOf = async (userId: string) => {
    const answer = await client.post("/v2/auth/generate_token", { userId, userProperties: { name: `User ${userId}`, email: `${userId}@example.com` }, permissions: { resources: [] } }, creds.headers)
    return answer.body.result.data.token as string
  }
  return {
    tokenOf,
    connect: async (userId: string, serverUrl: string) => {
      const socket = await openSocket(`${serverUrl.replace("http", "ws")}/v2/client/realtime?token=${await tokenOf(userId)}`)
      // The connection's follow is written as it opens: a round trip makes sure it is.
      socket.send({ type: "unsubscribe", id: "ping", organizationId: "org", documentId: "none" })
      await socket.next((m) => m.id === "ping")
      return socket
    },
    ok: async (path: string, data: unknown, serverUrl?: string) => {
      const answer = await (serverUrl === undefined ? client : httpClient(serverUrl)).post(path, data, creds.headers)
      if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
      return answer.body.result
    }
  }
}

const notificationOf = async (socket: Socket, match: (notification: any) => boolean = () => true) =>
  (await socket.next((m) => m.type === "notification" && match(m.notification))).notification
const noNotification = (socket: Socket) => expect(socket.received.filter((m) => m.type === "notification")).toEqual([])

for (const storage of ["sqlite", "postgres"] as const) {
  describe(`realtime notification [${storage}]`, () => {
    let served: HttpAtrium
    let client: TestClient
    let creds: TestCredentials
    let users: ReturnType<typeof usersOf>

    beforeAll(async () => {
      served = await serveAtrium(storage, { realtime: true })
      client = httpClient(served.url)
      creds = await createTestWorkspace(client)
      users = usersOf(client, creds)
      await users.ok("/v2/organizations/folders/add", { organizationId: "org", createOrganization: true, folders: [{ folderId: "closed", accessType: "restricted" }] })
      await users.ok("/v1/organizations/documents/add", { organizationId: "org", folderId: "closed", documents: [{ documentId: "secret" }] })
      await users.ok("/v1/organizations/documents/add", { organizationId: "org", documents: [{ documentId: "open" }] })
    })
    afterAll(() => served?.stop())

    it("a mention through the client API reaches the mentioned user's every connection, as their inbox shows it; not the author's", async () => {
      const [ann, bob, bobAgain, cat] = [
        await users.connect("ann", served.url),
        await users.connect("bob", served.url),
        await users.connect("bob", served.url),
        await users.connect("cat", served.url)
      ]
      const annToken = await users.tokenOf("ann")
      const added = await client.post("/v2/client/commentannotations/add", {
        organizationId: "org",
        documentId: "open",
        commentAnnotations: [{ annotationId: "m1", commentData: [{ commentText: "look @bob", taggedUserContacts: [mention("bob")] }] }]
      }, { authorization: `Bearer ${annToken}` })
      expect(added.status, added.text).toBe(200)
      const pushed = await notificationOf(bob)
      expect(pushed).toMatchObject({
        notificationSource: "comment",
        actionType: "comment_annotation.add",
        targetAnnotationId: "m1",
        displayBodyMessage: "look @bob",
        notifyUsersByUserId: { bob: true },
        readAt: null,
        forYou: true,
        metadata: { organizationId: "org", documentId: "open" }
      })
      expect(await notificationOf(bobAgain)).toEqual(pushed)
      // What the inbox answers is what was pushed.
      const inbox = await client.post("/v2/client/notifications/get", { organizationId: "org" }, { authorization: `Bearer ${await users.tokenOf("bob")}` })
      expect(inbox.body.result.data[0]).toEqual(pushed)
      await sleep(200)
      noNotification(ann)
      noNotification(cat)
      for (const socket of [ann, bob, bobAgain, cat]) socket.ws.close()
    })

    it("notifications/add: its users (notifyUsers), or every reader of the document (notifyAll); the inbox preference NONE and a closed document keep it away", async () => {
      const [dan, eve, fay] = [await users.connect("dan", served.url), await users.connect("eve", served.url), await users.connect("fay", served.url)]
      await users.ok("/v2/notifications/add", { organizationId: "org", documentId: "open", notificationId: "to-dan", actionUser: user("host"), displayHeadlineMessageTemplate: "For dan", displayBodyMessage: "body", notifyUsers: [user("dan")], notifyAll: false })
      expect(await notificationOf(dan)).toMatchObject({ id: "to-dan", notificationSource: "custom", displayHeadlineMessageTemplate: "For dan", readAt: null })
      // fay turns her inbox off for the document: nothing of it reaches her.
      await client.post("/v2/client/notifications/config/set", { organizationId: "org", documentIds: ["open"], config: { inbox: "NONE" } }, { authorization: `Bearer ${await users.tokenOf("fay")}` })
      await users.ok("/v2/notifications/add", { organizationId: "org", documentId: "open", notificationId: "to-all", actionUser: user("host"), displayHeadlineMessageTemplate: "For all", displayBodyMessage: "body", notifyUsers: [], notifyAll: true })
      expect(await notificationOf(dan, (n) => n.id === "to-all")).toMatchObject({ notifyAll: true, forYou: true })
      expect(await notificationOf(eve, (n) => n.id === "to-all")).toMatchObject({ notifyAll: true })
      // A document nobody of them may read: addressed to everyone, it reaches no one.
      await users.ok("/v2/notifications/add", { organizationId: "org", documentId: "secret", notificationId: "closed", actionUser: user("host"), displayHeadlineMessageTemplate: "Secret", displayBodyMessage: "body", notifyUsers: [user("eve")], notifyAll: true })
      // The same id again adds nothing, so pushes nothing.
      await users.ok("/v2/notifications/add", { organizationId: "org", documentId: "open", notificationId: "to-dan", actionUser: user("host"), displayHeadlineMessageTemplate: "For dan", displayBodyMessage: "body", notifyUsers: [user("dan")], notifyAll: false })
      await sleep(300)
      expect(dan.received.filter((m) => m.type === "notification")).toEqual([])
      expect(eve.received.filter((m) => m.type === "notification")).toEqual([])
      noNotification(fay)
      for (const socket of [dan, eve, fay]) socket.ws.close()
    })
  })
}

describe("realtime notification across two servers on one PostgreSQL database", () => {
  it("a notification made on one server reaches its user's connection on the other", async (test) => {
    const db = await testDatabase()
    if (db.server.startsWith("PGlite")) {
      await db.drop()
      return test.skip()
    }
    const servers = await Promise.all([0, 1].map(() => serveAtrium(PgStorage.layer({ url: db.url }), { realtime: true })))
    try {
      const [a, b] = servers.map((s) => s.url) as [string, string]
      const creds = await createTestWorkspace(httpClient(a))
      const users = usersOf(httpClient(a), creds)
      const bob = await users.connect("bob", b)
      await users.ok("/v2/commentannotations/add", {
        organizationId: "org",
        documentId: "open",
        createOrganization: true,
        createDocument: true,
        commentAnnotations: [{ annotationId: "x1", commentData: [{ commentText: "across @bob", from: user("ann"), taggedUserContacts: [mention("bob")], triggerNotification: true }] }]
      }, a)
      expect(await notificationOf(bob)).toMatchObject({ actionType: "comment_annotation.add", targetAnnotationId: "x1", notifyUsersByUserId: { bob: true } })
      await users.ok("/v2/notifications/add", { organizationId: "org", documentId: "open", notificationId: "n2", actionUser: user("host"), displayHeadlineMessageTemplate: "n2", displayBodyMessage: "body", notifyUsers: [user("bob")], notifyAll: false }, a)
      expect(await notificationOf(bob)).toMatchObject({ id: "n2" })
      bob.ws.close()
    } finally {
      await Promise.all(servers.map((s) => s.stop()))
      await db.drop()
    }
  })
})
