/**
 * Notifications (issue 26, docs/notifications.md): who a comment change notifies (involved users,
 * less the actor, less those the access rule or the thread's visibility keep out; server writes
 * only with triggerNotification; triggers), each user's views and the inbox preference acting on
 * them, and the hosted operations (add, get, update, delete) and the client API's. Over every storage,
 * and over HTTP on one of them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { forEachBackend, type Started } from "../../../../test-support/backends.js"
import { type Receiver, startReceiver, verified } from "../../../../test-support/receiver.js"
import type { TestCredentials } from "../../src/testing/index.js"

forEachBackend("notifications", (ctx: () => Started) => {
  const call = (creds: TestCredentials, path: string, data: unknown) => ctx().client.post(path, data, creds.headers)
  const ok = async (creds: TestCredentials, path: string, data: unknown) => {
    const answer = await call(creds, path, data)
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
    return answer.body.result
  }
  const refused = async (creds: TestCredentials, path: string, data: unknown) => {
    const answer = await call(creds, path, data)
    expect(answer.status, answer.text).toBe(400)
    expect(answer.body.error.status).toBe("INVALID_ARGUMENT")
    return answer.body.error.message as string
  }
  const tokenFor = async (creds: TestCredentials, userId: string) =>
    (await ok(creds, "/v2/auth/generate_token", { userId, userProperties: { name: `User ${userId}`, email: `${userId}@example.com` }, permissions: { resources: [] } })).data.token as string
  const asUser = (token: string, path: string, data: unknown) => ctx().client.post(path, data, { authorization: `Bearer ${token}` })
  const okAs = async (token: string, path: string, data: unknown) => {
    const answer = await asUser(token, path, data)
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
    return answer.body.result
  }

  /** "open" at the organization's root (public), "secret" in a restricted folder nobody is granted. */
  const workspace = async () => {
    const creds = await ctx().workspace()
    await ok(creds, "/v2/organizations/folders/add", { organizationId: "org", createOrganization: true, folders: [{ folderId: "closed", accessType: "restricted" }] })
    await ok(creds, "/v1/organizations/documents/add", { organizationId: "org", folderId: "closed", documents: [{ documentId: "secret" }] })
    await ok(creds, "/v1/organizations/documents/add", { organizationId: "org", documents: [{ documentId: "open" }] })
    return creds
  }
  const user = (userId: string) => ({ userId, name: `User ${userId}` })
  const mention = (userId: string) => ({ userId, text: `@${userId}` })
  /** The document's notifications, newest first. */
  const ofDocument = async (creds: TestCredentials, documentId: string) =>
    (await ok(creds, "/v2/notifications/get", { organizationId: "org", documentId })).data as Array<Record<string, any>>
  const recipientsOf = (notification: Record<string, any>) => Object.keys(notification.notifyUsersByUserId).sort()
  const viewOf = async (creds: TestCredentials, userId: string, view?: "forYou" | "all") =>
    (await ok(creds, "/v2/notifications/get", { organizationId: "org", userId, ...(view && { view }) })).data as Array<Record<string, any>>

  describe("who a comment change notifies", () => {
    /** One thread by ann (mentioning bob, assigned to cat), then a reply by bob mentioning dan. */
    const cases: ReadonlyArray<{
      readonly name: string
      readonly documentId: string
      readonly trigger: boolean
      readonly visibility?: unknown
      readonly triggers?: Record<string, boolean>
      readonly thread: ReadonlyArray<string> | null
      readonly reply: ReadonlyArray<string> | null
    }> = [
      { name: "no triggerNotification: nobody", documentId: "open", trigger: false, thread: null, reply: null },
      { name: "mentioned and assignee, then the thread's people but the actor", documentId: "open", trigger: true, thread: ["bob", "cat"], reply: ["ann", "cat", "dan"] },
      {
        name: "a restricted thread: only the users it lists",
        documentId: "open",
        trigger: true,
        visibility: { type: "restricted", userIds: ["bob"] },
        thread: ["bob"],
        reply: ["ann"]
      },
      { name: "a document nobody mentioned may read: nobody", documentId: "secret", trigger: true, thread: [], reply: [] },
      { name: "replies turned off (triggers.comment.reply)", documentId: "open", trigger: true, triggers: { reply: false }, thread: ["bob", "cat"], reply: null },
      { name: "mentions turned off (triggers.comment.mention)", documentId: "open", trigger: true, triggers: { mention: false }, thread: ["cat"], reply: ["ann", "cat"] }
    ]
    for (const c of cases) {
      it(c.name, async () => {
        const creds = await workspace()
        if (c.triggers) await ok(creds, "/v2/workspace/notificationconfig/update", { notificationServiceConfig: { triggers: { comment: c.triggers } } })
        const flag = c.trigger ? { triggerNotification: true } : {}
        await ok(creds, "/v2/commentannotations/add", {
          organizationId: "org",
          documentId: c.documentId,
          commentAnnotations: [{
            annotationId: "t1",
            assignedTo: user("cat"),
            ...(c.visibility !== undefined && { visibility: c.visibility }),
            commentData: [{ commentText: "hello @bob", from: user("ann"), taggedUserContacts: [mention("bob")], ...flag }]
          }]
        })
        const afterThread = await ofDocument(creds, c.documentId)
        if (c.thread === null) expect(afterThread).toEqual([])
        else {
          expect(afterThread).toHaveLength(1)
          expect(recipientsOf(afterThread[0]!)).toEqual(c.thread)
          expect(afterThread[0]).toMatchObject({ notificationSource: "comment", actionType: "comment_annotation.add", targetAnnotationId: "t1", displayBodyMessage: "hello @bob" })
        }
        await ok(creds, "/v2/commentannotations/comments/add", {
          organizationId: "org",
          documentId: c.documentId,
          annotationId: "t1",
          commentData: [{ commentText: "see @dan", from: user("bob"), taggedUserContacts: [mention("dan")], ...flag }]
        })
        const replies = (await ofDocument(creds, c.documentId)).filter((n) => n.actionType === "comment.add")
        if (c.reply === null) expect(replies).toEqual([])
        else {
          expect(replies).toHaveLength(1)
          expect(recipientsOf(replies[0]!)).toEqual(c.reply)
        }
      })
    }

    it("through the client API, always; an assignment and a status change too", async () => {
      const creds = await workspace()
      const ann = await tokenFor(creds, "ann")
      await okAs(ann, "/v2/client/commentannotations/add", {
        organizationId: "org",
        documentId: "open",
        commentAnnotations: [{ annotationId: "t1", commentData: [{ commentText: "hi", taggedUserContacts: [mention("bob")] }] }]
      })
      await okAs(ann, "/v2/client/commentannotations/update", {
        organizationId: "org",
        documentId: "open",
        annotationIds: ["t1"],
        updatedData: { assignedTo: user("cat"), status: { id: "RESOLVED", name: "Resolved", type: "terminal" } }
      })
      const byType = Object.fromEntries((await ofDocument(creds, "open")).map((n) => [n.actionType, recipientsOf(n)]))
      expect(byType).toEqual({
        "comment_annotation.add": ["bob"],
        "comment_annotation.assign": ["bob", "cat"],
        "comment_annotation.status_change": ["bob", "cat"]
      })
      // An assignment alone: the acting user is left out even though the status was changed by someone else before.
      const bob = await tokenFor(creds, "bob")
      await okAs(bob, "/v2/client/commentannotations/update", { organizationId: "org", documentId: "open", annotationIds: ["t1"], updatedData: { assignedTo: user("ann") } })
      const reassigned = (await ofDocument(creds, "open")).filter((n) => n.actionType === "comment_annotation.assign")
      expect(reassigned.map((n) => [n.actionUser.userId, recipientsOf(n)])).toContainEqual(["bob", ["ann"]])
      // The server API's update does not notify.
      await ok(creds, "/v2/commentannotations/update", { organizationId: "org", documentId: "open", annotationIds: ["t1"], updatedData: { assignedTo: user("dan") } })
      expect(await ofDocument(creds, "open")).toHaveLength(4)
    })
  })

  describe("views and the inbox preference", () => {
    const seed = async () => {
      const creds = await workspace()
      await ok(creds, "/v2/commentannotations/add", {
        organizationId: "org",
        documentId: "open",
        commentAnnotations: [
          { annotationId: "public", commentData: [{ commentText: "p", from: user("ann"), taggedUserContacts: [mention("bob")], triggerNotification: true }] },
          {
            annotationId: "private",
            visibility: { type: "restricted", userIds: ["bob"] },
            commentData: [{ commentText: "q", from: user("ann"), taggedUserContacts: [mention("bob")], triggerNotification: true }]
          }
        ]
      })
      return creds
    }
    const threadsIn = (notifications: Array<Record<string, any>>) => notifications.map((n) => n.targetAnnotationId).sort()

    it("for you: addressed to the user; all: also those of documents they may read that the thread shows them", async () => {
      const creds = await seed()
      expect(threadsIn(await viewOf(creds, "bob"))).toEqual(["private", "public"])
      expect(threadsIn(await viewOf(creds, "dan"))).toEqual([])
      expect(threadsIn(await viewOf(creds, "dan", "all"))).toEqual(["public"])
      const [first] = await viewOf(creds, "bob")
      expect(first).toMatchObject({ readAt: null, forYou: true })
    })

    it("inbox NONE hides, MINE keeps only those addressed to the user, per document else organization", async () => {
      const creds = await seed()
      await ok(creds, "/v2/notifications/config/set", { organizationId: "org", userIds: ["dan"], config: { inbox: "MINE" } })
      expect(await viewOf(creds, "dan", "all")).toEqual([])
      await ok(creds, "/v2/notifications/config/set", { organizationId: "org", userIds: ["dan"], documentIds: ["open"], config: { inbox: "ALL" } })
      expect(threadsIn(await viewOf(creds, "dan", "all"))).toEqual(["public"])
      await ok(creds, "/v2/notifications/config/set", { organizationId: "org", userIds: ["bob"], documentIds: ["open"], config: { inbox: "NONE" } })
      expect(await viewOf(creds, "bob")).toEqual([])
      await ok(creds, "/v2/notifications/config/set", { organizationId: "org", userIds: ["bob"], documentIds: ["open"], config: { inbox: "MINE" } })
      expect(threadsIn(await viewOf(creds, "bob"))).toEqual(["private", "public"])
    })

    it("a thread made private later, or deleted, stays hidden from those it does not list", async () => {
      const creds = await seed()
      await ok(creds, "/v2/commentannotations/update", {
        organizationId: "org",
        documentId: "open",
        annotationIds: ["public"],
        updatedData: { visibility: { type: "restricted", userIds: ["ann"] } }
      })
      expect(threadsIn(await viewOf(creds, "bob"))).toEqual(["private"])
      await ok(creds, "/v2/commentannotations/delete", { organizationId: "org", documentId: "open", annotationIds: ["private"] })
      expect(threadsIn(await viewOf(creds, "bob"))).toEqual(["private"])
      expect(threadsIn(await viewOf(creds, "dan", "all"))).toEqual([])
    })
  })

  describe("notifications/add, get, update, delete", () => {
    const added = (extra: Record<string, unknown> = {}) => ({
      organizationId: "org",
      documentId: "open",
      actionUser: user("ann"),
      displayHeadlineMessageTemplate: "{actionUser} did something",
      displayBodyMessage: "body",
      notifyUsers: [user("bob")],
      notifyAll: false,
      ...extra
    })

    it("adds once per notificationId, to notifyUsers, or to every user who may read the document (notifyAll)", async () => {
      const creds = await workspace()
      const first = await ok(creds, "/v2/notifications/add", added({ notificationId: "n-1" }))
      expect(first).toEqual({
        status: "success",
        message: "Notification added successfully.",
        data: { success: true, message: "Notification added successfully.", notificationId: "n-1", added: true }
      })
      const again = await ok(creds, "/v2/notifications/add", added({ notificationId: "n-1", displayBodyMessage: "other" }))
      expect(again.data.added).toBe(false)
      const [stored, ...rest] = await ofDocument(creds, "open")
      expect(rest).toEqual([])
      expect(stored).toMatchObject({ id: "n-1", displayBodyMessage: "body", notificationSource: "custom", notifyAll: false, notifyUsersByUserId: { bob: true } })
      expect((await viewOf(creds, "bob")).map((n) => n.id)).toEqual(["n-1"])
      expect(await viewOf(creds, "dan")).toEqual([])
      await ok(creds, "/v2/notifications/add", added({ notificationId: "everyone", notifyAll: true }))
      expect((await viewOf(creds, "dan")).map((n) => n.id)).toEqual(["everyone"])
      // verifyUserPermissions: only those who may read the document.
      await ok(creds, "/v2/notifications/add", added({ notificationId: "checked", documentId: "secret", verifyUserPermissions: true }))
      expect(recipientsOf((await ofDocument(creds, "secret"))[0]!)).toEqual([])
    })

    it("refuses bad input, saying what is wrong", async () => {
      const creds = await workspace()
      expect(await refused(creds, "/v2/notifications/add", added({ notificationId: "a b" }))).toContain("data.notificationId")
      const { displayBodyMessage: _b, ...noBody } = added()
      expect(await refused(creds, "/v2/notifications/add", noBody)).toContain("data.displayBodyMessage")
      expect(await refused(creds, "/v2/notifications/get", { organizationId: "org" })).toContain("documentId")
      expect(await refused(creds, "/v2/notifications/get", { organizationId: "org", documentId: "open", view: "all" })).toContain("data.view")
      expect(await refused(creds, "/v2/notifications/delete", { organizationId: "org" })).toContain("notificationIds")
      expect(await refused(creds, "/v2/notifications/update", { organizationId: "org", notifications: [] })).toContain("data.notifications")
      expect(await refused(creds, "/v2/notifications/get", { organizationId: "org", documentId: "open", pageToken: "nonsense" })).toContain("pageToken")
    })

    it("pages with pageToken, each page bound to its query", async () => {
      const creds = await workspace()
      for (let i = 0; i < 5; i++) await ok(creds, "/v2/notifications/add", added({ notificationId: `n${i}` }))
      const seen: Array<string> = []
      let token: string | undefined
      let pages = 0
      do {
        const page = await ok(creds, "/v2/notifications/get", { organizationId: "org", userId: "bob", pageSize: 2, ...(token && { pageToken: token }) })
        seen.push(...page.data.map((n: { id: string }) => n.id))
        token = page.pageToken
        pages++
        if (token !== undefined) {
          expect(await refused(creds, "/v2/notifications/get", { organizationId: "org", userId: "dan", pageSize: 2, pageToken: token })).toContain("pageToken")
        }
      } while (token !== undefined)
      expect(pages).toBe(3)
      expect(seen.sort()).toEqual(["n0", "n1", "n2", "n3", "n4"])
      const asc = await ok(creds, "/v2/notifications/get", { organizationId: "org", documentId: "open", order: "asc" })
      const desc = await ok(creds, "/v2/notifications/get", { organizationId: "org", documentId: "open" })
      expect(asc.data.map((n: { id: string }) => n.id)).toEqual([...desc.data.map((n: { id: string }) => n.id)].reverse())
    })

    it("update answers per id; readByUserIds marks read, and read ones leave for-you unless persisted", async () => {
      const creds = await workspace()
      await ok(creds, "/v2/notifications/add", added({ notificationId: "a", notifyUsers: [user("bob"), user("cat")] }))
      await ok(creds, "/v2/notifications/add", added({ notificationId: "b", notifyUsers: [user("bob"), user("cat")] }))
      const updated = await ok(creds, "/v2/notifications/update", {
        organizationId: "org",
        notifications: [
          { id: "a", readByUserIds: ["bob"] },
          { id: "b", readByUserIds: ["cat"], persistReadForUsers: true, displayBodyMessage: "changed" },
          { id: "missing", readByUserIds: ["bob"] }
        ]
      })
      expect(updated.data.a).toEqual({ success: true, message: "Notification updated." })
      expect(updated.data.b).toEqual({ success: true, message: "Notification updated." })
      expect(updated.data.missing.success).toBe(false)
      expect(updated.data.missing.message).toContain("missing not found")
      expect((await viewOf(creds, "bob")).map((n) => n.id)).toEqual(["b"])
      const cat = await viewOf(creds, "cat")
      // cat read b (kept: persisted), not a.
      expect(cat.map((n) => [n.id, n.readAt === null]).sort()).toEqual([["a", true], ["b", false]])
      expect(cat.find((n) => n.id === "b")!.displayBodyMessage).toBe("changed")
      const bobAll = await viewOf(creds, "bob", "all")
      expect(bobAll.find((n) => n.id === "a")!.readAt).toEqual(expect.any(Number))
    })

    it("delete answers per id; with userId, only from that user's inbox", async () => {
      const creds = await workspace()
      for (const id of ["a", "b", "c"]) await ok(creds, "/v2/notifications/add", added({ notificationId: id }))
      const mine = await ok(creds, "/v2/notifications/delete", { organizationId: "org", userId: "bob", notificationIds: ["a", "zz"] })
      expect(mine.data.a).toEqual({ success: true, message: "Notification deleted." })
      expect(mine.data.zz.success).toBe(false)
      expect((await viewOf(creds, "bob")).map((n) => n.id).sort()).toEqual(["b", "c"])
      expect((await viewOf(creds, "bob", "all")).map((n) => n.id).sort()).toEqual(["b", "c"])
      expect(await ofDocument(creds, "open")).toHaveLength(3)
      const gone = await ok(creds, "/v2/notifications/delete", { organizationId: "org", notificationIds: ["b"] })
      expect(gone.data).toEqual({ b: { success: true, message: "Notification deleted." } })
      expect((await ofDocument(creds, "open")).map((n) => n.id).sort()).toEqual(["a", "c"])
      const byDocument = await ok(creds, "/v2/notifications/delete", { organizationId: "org", documentId: "open" })
      expect(Object.keys(byDocument.data).sort()).toEqual(["a", "c"])
      expect(await ofDocument(creds, "open")).toEqual([])
    })
  })

  describe("the client API", () => {
    it("the user's inbox with readAt and unreadCount; mark read by id or all; their own preferences", async () => {
      const creds = await workspace()
      const bob = await tokenFor(creds, "bob")
      for (const id of ["a", "b", "c"]) {
        await ok(creds, "/v2/notifications/add", {
          organizationId: "org",
          documentId: "open",
          notificationId: id,
          actionUser: user("ann"),
          displayHeadlineMessageTemplate: "x",
          displayBodyMessage: "y",
          notifyUsers: [user("bob")],
          notifyAll: false
        })
      }
      const inbox = await okAs(bob, "/v2/client/notifications/get", { organizationId: "org" })
      expect(inbox.unreadCount).toBe(3)
      expect(inbox.data.map((n: { readAt: unknown }) => n.readAt)).toEqual([null, null, null])
      const marked = await okAs(bob, "/v2/client/notifications/update", { organizationId: "org", notificationIds: ["a", "nope"] })
      expect(marked.data.a.success).toBe(true)
      expect(marked.data.nope.success).toBe(false)
      expect(marked.unreadCount).toBe(2)
      const all = await okAs(bob, "/v2/client/notifications/update", { organizationId: "org", all: true })
      expect(all.unreadCount).toBe(0)
      expect((await okAs(bob, "/v2/client/notifications/get", { organizationId: "org", view: "all" })).data.every((n: { readAt: unknown }) => typeof n.readAt === "number")).toBe(true)
      const refusedUser = await asUser(bob, "/v2/client/notifications/get", { organizationId: "org", userId: "cat" })
      expect(refusedUser.status).toBe(400)
      expect(refusedUser.body.error.message).toContain("data.userId")
      const both = await asUser(bob, "/v2/client/notifications/update", { organizationId: "org", all: true, notificationIds: ["a"] })
      expect(both.status).toBe(400)
      await okAs(bob, "/v2/client/notifications/config/set", { organizationId: "org", documentIds: ["open"], config: { inbox: "NONE" } })
      const config = await okAs(bob, "/v2/client/notifications/config/get", { organizationId: "org", documentIds: ["open"] })
      expect(config.data[0]).toMatchObject({ config: { inbox: "NONE", email: "MINE" }, metadata: { userId: "bob", documentId: "open" } })
      expect((await okAs(bob, "/v2/client/notifications/get", { organizationId: "org", view: "all" })).data).toEqual([])
    })
  })
  describe("notification.add, to webhooks", () => {
    let receiver: Receiver
    beforeAll(async () => {
      receiver = await startReceiver()
    })
    afterAll(() => receiver.close())

    it("every notification made emits it once, with its data as notifications/get answers it; one made twice, once", async () => {
      const creds = await workspace()
      await ok(creds, "/v2/workspace/advancedwebhookconfig/update", { isEnabled: true })
      const endpoint = (await ok(creds, "/v2/workspace/advancedwebhook/endpoints/create", { url: receiver.url, filterTypes: ["notification.add"] })).data
      const { secret } = (await ok(creds, "/v2/workspace/advancedwebhook/endpoints/secret/get", { endpointId: endpoint.id })).data
      const before = receiver.received.length
      await ok(creds, "/v2/commentannotations/add", {
        organizationId: "org",
        documentId: "open",
        commentAnnotations: [{ annotationId: "t1", commentData: [{ commentText: "hi @bob", from: user("ann"), taggedUserContacts: [mention("bob")], triggerNotification: true }] }]
      })
      const host = { organizationId: "org", documentId: "open", notificationId: "host-1", actionUser: user("host"), displayHeadlineMessageTemplate: "Deploy done", displayBodyMessage: "body", notifyUsers: [user("cat")], notifyAll: false }
      await ok(creds, "/v2/notifications/add", host)
      await ok(creds, "/v2/notifications/add", host)
      // A comment that asks for no notification makes none, so emits none.
      await ok(creds, "/v2/commentannotations/add", { organizationId: "org", documentId: "open", commentAnnotations: [{ annotationId: "t2", commentData: [{ commentText: "quiet", from: user("ann") }] }] })
      const deadline = Date.now() + 20_000
      while (receiver.received.length < before + 2 && Date.now() < deadline) {
        await ctx().atrium.runDue()
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      await ctx().atrium.runDue()
      const bodies = receiver.received.slice(before).map((r) => verified(secret, r))
      expect(bodies.map((b) => b.event)).toEqual(["notification.add", "notification.add"])
      const stored = await ofDocument(creds, "open")
      const [fromComment, fromHost] = [stored.find((n) => n.actionType === "comment_annotation.add")!, stored.find((n) => n.id === "host-1")!]
      expect(bodies[0].data).toEqual(fromComment)
      expect(bodies[0].data.notifyUsersByUserId).toEqual({ bob: true })
      expect(bodies[1].data).toEqual(fromHost)
      expect(bodies[1].data).toMatchObject({ id: "host-1", notifyUsersByUserId: { cat: true }, notifyAll: false })
    })
  })
})
