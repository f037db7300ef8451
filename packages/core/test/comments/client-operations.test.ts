/**
 * The client API's comment operations (spec client-api.md, "Operations"; issue 24): a user calls
 * with its token and acts as itself. Every document named is checked with the access rule (viewer
 * to read and react, editor to write); reads leave out threads of documents the user may not read
 * and threads whose visibility does not show it; deleting threads and changing or deleting comments
 * take the user's own unless it is an admin; inputs never name the actor. Over every storage.
 */
import { expect, it } from "vitest"
import { forEachBackend, type Started } from "../../../../test-support/backends.js"
import type { TestCredentials } from "../../src/testing/index.js"

forEachBackend("client API: comments", (ctx: () => Started) => {
  const ok = async (creds: TestCredentials, path: string, data: unknown) => {
    const answer = await ctx().client.post(path, data, creds.headers)
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
    return answer.body.result
  }
  const tokenFor = async (creds: TestCredentials, userId: string, resources: ReadonlyArray<unknown> = [], isAdmin = false) =>
    (await ok(creds, "/v2/auth/generate_token", {
      userId,
      userProperties: { name: `User ${userId}`, email: `${userId}@example.com`, isAdmin },
      permissions: { resources }
    })).data.token as string
  const asUser = (token: string, path: string, data: unknown) => ctx().client.post(`/v2/client/commentannotations${path}`, data, { authorization: `Bearer ${token}` })
  const okAs = async (token: string, path: string, data: unknown) => {
    const answer = await asUser(token, path, data)
    if (answer.status !== 200) throw new Error(`client ${path}: ${answer.status} ${answer.text}`)
    return answer.body.result
  }
  /** The error a client call answers, with its HTTP status. */
  const refusedAs = async (token: string, path: string, data: unknown) => {
    const answer = await asUser(token, path, data)
    expect(answer.status, answer.text).toBeGreaterThanOrEqual(400)
    return { http: answer.status, status: answer.body.error.status as string, message: answer.body.error.message as string }
  }

  const inOpen = { organizationId: "org", documentId: "open" }
  const inSecret = { organizationId: "org", documentId: "secret" }
  const text = (commentText: string) => ({ commentData: [{ commentText }] })

  /**
   * "open" at the organization's root (public: editor for any user), "secret" in a restricted
   * folder; tokens for a user with no grant (ann, bob), a viewer and an editor of "secret" by the
   * token's entries, and an admin with no grant.
   */
  const workspace = async () => {
    const creds = await ctx().workspace()
    await ok(creds, "/v2/organizations/folders/add", { organizationId: "org", createOrganization: true, folders: [{ folderId: "closed", accessType: "restricted" }] })
    await ok(creds, "/v1/organizations/documents/add", { organizationId: "org", folderId: "closed", documents: [{ documentId: "secret" }] })
    await ok(creds, "/v1/organizations/documents/add", { organizationId: "org", documents: [{ documentId: "open" }] })
    const secretAs = (accessRole: string) => [{ type: "document", id: "secret", organizationId: "org", accessRole }]
    return {
      creds,
      ann: await tokenFor(creds, "ann"),
      bob: await tokenFor(creds, "bob"),
      viewer: await tokenFor(creds, "vic", secretAs("viewer")),
      editor: await tokenFor(creds, "eve", secretAs("editor")),
      admin: await tokenFor(creds, "root", [], true)
    }
  }
  /** The threads as the server (the host) sees them. */
  const stored = async (creds: TestCredentials, data: Record<string, unknown> = {}) =>
    (await ok(creds, "/v2/commentannotations/get", { organizationId: "org", ...data })).data as Array<any>

  it("add, get, count, read: the acting user writes and reads as itself, answered as the server operations answer", async () => {
    const { ann, creds } = await workspace()
    const added = await okAs(ann, "/add", { ...inOpen, commentAnnotations: [{ annotationId: "t1", ...text("first") }] })
    expect(added).toMatchObject({ status: "success", message: "Comment Annotation(s) added successfully.", data: { t1: { success: true, annotationId: "t1" } } })
    const user = { userId: "ann", name: "User ann", email: "ann@example.com" }
    expect((await stored(creds))[0]).toMatchObject({ annotationId: "t1", from: user, comments: [{ commentText: "first", from: user }] })

    const page = await okAs(ann, "/get", { organizationId: "org", documentId: "open" })
    expect(page.message).toBe("Annotation(s) fetched successfully.")
    expect(page.data).toEqual(await stored(creds, { documentId: "open" }))
    const grouped = await okAs(ann, "/get", { organizationId: "org", groupByDocumentId: true })
    expect([grouped.message, Object.keys(grouped.data)]).toEqual(["Annotations fetched successfully.", ["open"]])

    expect(await okAs(ann, "/count/get", { organizationId: "org", documentIds: ["open", "secret2"] }))
      .toEqual({ status: "success", message: "Comment count retrieved successfully.", data: { open: { total: 1, unread: 1 }, secret2: { total: 0, unread: 0 } } })
    expect((await okAs(ann, "/read", { ...inOpen, annotationIds: ["t1", "gone"] })).data).toEqual({
      t1: { success: true, id: "t1", message: "Marked as read" },
      gone: { success: false, id: "gone", message: "Annotation not found." }
    })
    expect((await okAs(ann, "/count/get", { organizationId: "org", documentIds: ["open"] })).data).toEqual({ open: { total: 1, unread: 0 } })
    // The marker is the actor's: the server's count for another user still finds it unread.
    expect((await ok(creds, "/v2/commentannotations/count/get", { organizationId: "org", documentIds: ["open"], userId: "bob" })).data).toEqual({ open: { total: 1, unread: 1 } })
  })

  it("comments, reactions and updates: the actor writes each, and a status it sends is its change", async () => {
    const { ann, bob, creds } = await workspace()
    await okAs(ann, "/add", { ...inOpen, commentAnnotations: [{ annotationId: "t1", commentData: [{ commentId: 1, commentText: "first" }] }] })
    expect((await okAs(bob, "/comments/add", { ...inOpen, annotationId: "t1", commentData: [{ commentId: 2, commentText: "reply" }] })).data).toEqual([2])
    expect((await okAs(bob, "/comments/update", { ...inOpen, annotationId: "t1", commentIds: [2], updatedData: { commentText: "edited" } })).data)
      .toEqual({ 2: { success: true, id: 2, message: "Updated successfully" } })
    expect((await okAs(bob, "/comments/reactions/add", { ...inOpen, annotationId: "t1", commentId: 1, reaction: { reactionId: "HEART" } })).data)
      .toEqual({ reactionAnnotationId: "t1:1:HEART" })
    expect(await refusedAs(bob, "/comments/reactions/add", { ...inOpen, annotationId: "t1", commentId: 1, reaction: { reactionId: "HEART" } }))
      .toMatchObject({ http: 409, status: "ALREADY_EXISTS" })
    const update = await okAs(bob, "/update", { ...inOpen, annotationIds: ["t1"], updatedData: { status: { id: "done", name: "Done", type: "terminal" }, priority: { id: "P1", name: "High" } } })
    expect(update.data).toEqual({ t1: { success: true, id: "t1", message: "Annotations updated successfully" } })

    const [thread] = await stored(creds)
    expect(thread).toMatchObject({
      from: { userId: "ann" },
      status: { id: "done" },
      statusUpdatedByUserId: "bob",
      resolvedByUserId: "bob",
      priority: { id: "P1" },
      comments: [
        { commentId: 1, from: { userId: "ann" }, reactionAnnotations: [{ icon: "HEART", fromUsers: [{ from: { userId: "bob", name: "User bob", email: "bob@example.com" } }] }] },
        { commentId: 2, commentText: "edited", status: "updated", from: { userId: "bob" } }
      ]
    })
    expect((await okAs(bob, "/comments/reactions/delete", { ...inOpen, annotationId: "t1", commentId: 1, reaction: { reactionId: "HEART" } })).message).toBe("Reaction deleted successfully.")
    // A status that is not terminal is the actor's change and resolves nothing.
    await okAs(ann, "/update", { ...inOpen, annotationIds: ["t1"], updatedData: { status: { id: "OPEN", name: "Open", type: "default" } } })
    const [reopened] = await stored(creds)
    expect([reopened.statusUpdatedByUserId, reopened.resolvedByUserId]).toEqual(["ann", undefined])
  })

  it("inputs never name the actor: from, userId, statusUpdatedByUserId, resolvedByUserId and updateUsers are refused, naming the field, and nothing is written", async () => {
    const { ann, creds } = await workspace()
    await okAs(ann, "/add", { ...inOpen, commentAnnotations: [{ annotationId: "t1", commentData: [{ commentId: 1, commentText: "mine" }] }] })
    const bob = { userId: "bob" }
    const cases: Array<[string, unknown, string]> = [
      ["/add", { ...inOpen, commentAnnotations: [{ annotationId: "t2", commentData: [{ commentText: "x", from: bob }] }] }, "data.commentAnnotations[0].commentData[0].from"],
      ["/comments/add", { ...inOpen, annotationId: "t1", commentData: [{ commentText: "x", from: bob }] }, "data.commentData[0].from"],
      ["/comments/update", { ...inOpen, annotationId: "t1", commentIds: [1], updatedData: { commentText: "x", from: bob } }, "data.updatedData.from"],
      ["/update", { ...inOpen, annotationIds: ["t1"], updatedData: { from: bob } }, "data.updatedData.from"],
      ["/update", { ...inOpen, annotationIds: ["t1"], updatedData: { statusUpdatedByUserId: "bob" } }, "data.updatedData.statusUpdatedByUserId"],
      ["/update", { ...inOpen, annotationIds: ["t1"], updatedData: { resolvedByUserId: "bob" } }, "data.updatedData.resolvedByUserId"],
      ["/update", { ...inOpen, updateUsers: [{ oldUser: { userId: "ann" }, newUser: bob }] }, "data.updateUsers"],
      ["/comments/reactions/add", { ...inOpen, annotationId: "t1", commentId: 1, reaction: { reactionId: "UP" }, from: bob }, "data.from"],
      ["/comments/reactions/delete", { ...inOpen, annotationId: "t1", commentId: 1, reaction: { reactionId: "UP" }, from: bob }, "data.from"],
      ["/read", { ...inOpen, annotationIds: ["t1"], userId: "bob" }, "data.userId"],
      ["/count/get", { organizationId: "org", documentIds: ["open"], userId: "bob" }, "data.userId"]
    ]
    const before = await stored(creds)
    for (const [path, data, field] of cases) {
      const refused = await refusedAs(ann, path, data)
      expect(refused, path).toMatchObject({ http: 400, status: "INVALID_ARGUMENT" })
      expect(refused.message, path).toContain(`Invalid ${field}: `)
      expect(refused.message, path).toContain(field === "data.updateUsers" ? "only the server API may do" : "the token's user")
    }
    expect(await stored(creds)).toEqual(before)
  })

  it("viewer, editor, none: reads need viewer, writes editor (a viewer's write is refused with nothing written), by token entries and stored grants", async () => {
    const { ann, creds, editor, viewer } = await workspace()
    await ok(creds, "/v2/commentannotations/add", { ...inSecret, commentAnnotations: [{ annotationId: "s1", commentData: [{ commentId: 1, commentText: "hush", from: { userId: "eve" } }] }] })
    const before = await stored(creds)

    // No grant on a restricted document: nothing at all, naming the document.
    for (const [path, data] of [
      ["/get", { organizationId: "org", documentIds: ["open", "secret"] }],
      ["/count/get", { organizationId: "org", documentIds: ["secret"] }],
      ["/read", { ...inSecret, annotationIds: ["s1"] }],
      ["/comments/reactions/add", { ...inSecret, annotationId: "s1", commentId: 1, reaction: { reactionId: "UP" } }],
      ["/add", { ...inSecret, commentAnnotations: [text("x")] }]
    ] as const) {
      expect(await refusedAs(ann, path, data), path).toEqual({ http: 403, status: "PERMISSION_DENIED", message: "User ann has no access to document secret." })
    }

    // A viewer reads, counts, marks read and reacts; every write is refused and writes nothing.
    expect((await okAs(viewer, "/get", { organizationId: "org", documentId: "secret" })).data.map((t: any) => t.annotationId)).toEqual(["s1"])
    expect((await okAs(viewer, "/count/get", { organizationId: "org", documentIds: ["secret"] })).data).toEqual({ secret: { total: 1, unread: 1 } })
    await okAs(viewer, "/read", { ...inSecret, annotationIds: ["s1"] })
    await okAs(viewer, "/comments/reactions/add", { ...inSecret, annotationId: "s1", commentId: 1, reaction: { reactionId: "UP" } })
    await okAs(viewer, "/comments/reactions/delete", { ...inSecret, annotationId: "s1", commentId: 1, reaction: { reactionId: "UP" } })
    const denied = { http: 403, status: "PERMISSION_DENIED", message: "User vic may only read document secret: writing needs editor." }
    for (const [path, data] of [
      ["/add", { ...inSecret, commentAnnotations: [text("x")] }],
      ["/update", { ...inSecret, annotationIds: ["s1"], updatedData: { priority: { id: "P0", name: "Now" } } }],
      ["/delete", { ...inSecret, annotationIds: ["s1"] }],
      ["/comments/add", { ...inSecret, annotationId: "s1", commentData: [{ commentText: "x" }] }],
      ["/comments/update", { ...inSecret, annotationId: "s1", commentIds: [1], updatedData: { commentText: "x" } }],
      ["/comments/delete", { ...inSecret, annotationId: "s1" }]
    ] as const) {
      expect(await refusedAs(viewer, path, data), path).toEqual(denied)
    }
    expect(await stored(creds)).toEqual(before)

    // An editor by its token's entry writes; a user with a grant stored by the server API too.
    await okAs(editor, "/comments/add", { ...inSecret, annotationId: "s1", commentData: [{ commentText: "by eve" }] })
    await ok(creds, "/v2/auth/permissions/add", { user: { userId: "ann" }, permissions: { resources: [{ type: "folder", id: "closed", organizationId: "org", accessRole: "editor" }] } })
    await okAs(ann, "/add", { ...inSecret, commentAnnotations: [{ annotationId: "s2", ...text("by ann") }] })
    expect((await stored(creds, { documentId: "secret" })).map((t) => [t.annotationId, t.comments.length])).toEqual([["s2", 1], ["s1", 2]])
    // Revoked, it counts at the next call.
    await ok(creds, "/v2/auth/permissions/remove", { userId: "ann", permissions: { resources: [{ type: "folder", id: "closed", organizationId: "org" }] } })
    expect((await refusedAs(ann, "/get", { organizationId: "org", documentId: "secret" })).status).toBe("PERMISSION_DENIED")
  })

  it("reads across documents leave out those the user may not read; an id asked for there is null, as one that does not exist", async () => {
    const { ann, creds, viewer } = await workspace()
    await ok(creds, "/v2/commentannotations/add", { ...inSecret, commentAnnotations: [{ annotationId: "s1", commentData: [{ commentText: "hush", from: { userId: "eve" } }] }] })
    await ok(creds, "/v2/commentannotations/add", { ...inOpen, commentAnnotations: [{ annotationId: "o1", commentData: [{ commentText: "hi", from: { userId: "eve" } }] }] })
    const ids = async (token: string, data: Record<string, unknown> = {}) =>
      (await okAs(token, "/get", { organizationId: "org", ...data })).data.map((t: any) => t?.annotationId ?? null)
    expect(await ids(ann)).toEqual(["o1"])
    expect((await ids(viewer)).sort()).toEqual(["o1", "s1"])
    expect(await ids(ann, { annotationIds: ["s1", "o1", "gone"] })).toEqual(["o1", null, null])
    expect(await ids(viewer, { annotationIds: ["s1", "gone"] })).toEqual(["s1", null])
  })

  it("visibility: a private thread shows only to its author and the users it names (restricted) or the organization's users (organizationPrivate)", async () => {
    const { ann, bob, creds } = await workspace()
    const threadBy = (annotationId: string, userId: string, visibility?: unknown) =>
      ({ annotationId, commentData: [{ commentId: 1, commentText: `${annotationId} text`, from: { userId } }], ...(visibility !== undefined && { visibility }) })
    await ok(creds, "/v2/commentannotations/add", {
      ...inOpen,
      commentAnnotations: [
        threadBy("public", "dan"),
        threadBy("for-bob", "dan", { type: "restricted", userIds: ["bob"] }),
        threadBy("team", "dan", { type: "organizationPrivate", organizationId: "org" }),
        threadBy("anns-note", "ann", { type: "restricted", userIds: ["ann"] })
      ]
    })
    await ok(creds, "/v2/organizations/usergroups/add", { organizationId: "org", organizationUserGroups: [{ groupId: "team", groupName: "Team" }] })
    await ok(creds, "/v2/organizations/usergroups/users/add", { organizationId: "org", organizationUserGroupId: "team", userIds: ["gus"] })
    const gus = await tokenFor(creds, "gus")
    const member = await tokenFor(creds, "mo", [{ type: "organization", id: "org" }])
    const seen = async (token: string) => (await okAs(token, "/get", inOpen)).data.map((t: any) => t.annotationId).sort()
    expect(await seen(ann)).toEqual(["anns-note", "public"])
    expect(await seen(bob)).toEqual(["for-bob", "public"])
    // The organization's users: one of its user groups, or a grant on it (here the token's).
    expect(await seen(gus)).toEqual(["public", "team"])
    expect(await seen(member)).toEqual(["public", "team"])
    // isAdmin manages others' comments; it does not see more.
    expect(await seen(await tokenFor(creds, "root", [], true))).toEqual(["public"])

    expect((await okAs(ann, "/count/get", { organizationId: "org", documentIds: ["open"] })).data).toEqual({ open: { total: 2, unread: 2 } })
    await okAs(bob, "/read", { ...inOpen, annotationIds: ["for-bob", "team"] })
    expect((await okAs(bob, "/count/get", { organizationId: "org", documentIds: ["open"] })).data).toEqual({ open: { total: 2, unread: 1 } })
    expect((await okAs(bob, "/count/get", { organizationId: "org", documentIds: ["open"], statusIds: ["OPEN"] })).data).toEqual({ open: { total: 2, unread: 1 } })
    expect((await okAs(ann, "/get", { ...inOpen, annotationIds: ["for-bob", "public"] })).data.map((t: any) => t?.annotationId ?? null)).toEqual(["public", null])
    expect((await okAs(gus, "/get", { ...inOpen, annotationIds: ["team", "anns-note"] })).data.map((t: any) => t?.annotationId ?? null)).toEqual(["team", null])

    // To ann, bob's thread does not exist: every call on it answers as for a thread that does not.
    const absent = { http: 404, status: "NOT_FOUND", message: "Annotation for-bob not found in document open." }
    expect(await refusedAs(ann, "/comments/add", { ...inOpen, annotationId: "for-bob", commentData: [{ commentText: "x" }] })).toEqual(absent)
    expect(await refusedAs(ann, "/comments/reactions/add", { ...inOpen, annotationId: "for-bob", commentId: 1, reaction: { reactionId: "UP" } })).toEqual(absent)
    expect(await refusedAs(ann, "/comments/delete", { ...inOpen, annotationId: "for-bob" })).toEqual(absent)
    expect((await okAs(ann, "/update", { ...inOpen, annotationIds: ["for-bob"], updatedData: { priority: { id: "P0", name: "Now" } } })).data)
      .toEqual({ "for-bob": { success: false, id: "for-bob", message: "Annotation not found." } })
    expect((await okAs(ann, "/read", { ...inOpen, annotationIds: ["for-bob"] })).data["for-bob"].success).toBe(false)
    // Updating every thread of the document changes only those the user sees.
    await okAs(ann, "/update", { ...inOpen, updatedData: { priority: { id: "P2", name: "Later" } } })
    expect((await stored(creds, inOpen)).map((t) => [t.annotationId, t.priority?.id ?? null]).sort())
      .toEqual([["anns-note", "P2"], ["for-bob", null], ["public", "P2"], ["team", null]])
  })

  it("pages of a user's view are full until the last, passing over runs of threads it may not see", async () => {
    const { ann, creds } = await workspace()
    const hidden = (annotationId: string) => ({ annotationId, commentData: [{ commentText: "x", from: { userId: "dan" } }], visibility: { type: "restricted", userIds: ["dan"] } })
    const shown = (annotationId: string) => ({ annotationId, commentData: [{ commentText: "x", from: { userId: "dan" } }] })
    // One at a time, so each has its own lastUpdated and the order is the order added.
    for (const thread of [shown("a"), hidden("h1"), hidden("h2"), hidden("h3"), shown("b"), hidden("h4"), shown("c"), hidden("h5")]) {
      await ok(creds, "/v2/commentannotations/add", { ...inOpen, commentAnnotations: [thread] })
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
    const pages: Array<Array<string>> = []
    let pageToken: string | undefined
    do {
      const page = await okAs(ann, "/get", { ...inOpen, order: "asc", pageSize: 2, ...(pageToken !== undefined && { pageToken }) })
      pages.push(page.data.map((t: any) => t.annotationId))
      pageToken = page.nextPageToken
    } while (pageToken !== undefined)
    expect(pages).toEqual([["a", "b"], ["c"]])
    // A page token is the user's: the server's, or another user's, is refused.
    const serverToken = (await ok(creds, "/v2/commentannotations/get", { ...inOpen, order: "asc", pageSize: 2 })).nextPageToken
    expect((await refusedAs(ann, "/get", { ...inOpen, order: "asc", pageSize: 2, pageToken: serverToken })).status).toBe("INVALID_ARGUMENT")
    const annsToken = (await okAs(ann, "/get", { ...inOpen, order: "asc", pageSize: 1 })).nextPageToken
    expect((await refusedAs(await tokenFor(creds, "bob"), "/get", { ...inOpen, order: "asc", pageSize: 1, pageToken: annsToken })).status).toBe("INVALID_ARGUMENT")
  })

  it("deleting threads: the user's own; naming another's is refused and deletes nothing; an admin deletes any", async () => {
    const { admin, ann, bob, creds } = await workspace()
    await okAs(ann, "/add", { ...inOpen, commentAnnotations: [{ annotationId: "a1", ...text("ann 1") }, { annotationId: "a2", ...text("ann 2") }] })
    await okAs(bob, "/add", { ...inOpen, commentAnnotations: [{ annotationId: "b1", ...text("bob 1") }] })
    const left = async () => (await stored(creds, inOpen)).map((t) => t.annotationId).sort()

    expect(await refusedAs(ann, "/delete", { ...inOpen, annotationIds: ["a1", "b1"] })).toEqual({
      http: 403,
      status: "PERMISSION_DENIED",
      message: "User ann may delete only the threads they started (an admin, any): thread b1 is by bob."
    })
    expect(await left()).toEqual(["a1", "a2", "b1"])
    expect((await okAs(ann, "/delete", { ...inOpen, annotationIds: ["a1", "gone"] })).data).toEqual({
      a1: { success: true, id: "a1", message: "Deleted Successfully" },
      gone: { success: false, id: "gone", message: "Annotation not found." }
    })
    // Without ids, "every thread of the document" is every thread of the user's there.
    expect((await okAs(ann, "/delete", inOpen)).data).toEqual({ a2: { success: true, id: "a2", message: "Deleted Successfully" } })
    expect(await left()).toEqual(["b1"])
    expect((await okAs(admin, "/delete", { ...inOpen, annotationIds: ["b1"] })).data).toEqual({ b1: { success: true, id: "b1", message: "Deleted Successfully" } })
    expect(await left()).toEqual([])
  })

  it("changing and deleting comments: the user's own; another's is refused and nothing changes; an admin changes and deletes any", async () => {
    const { admin, ann, bob, creds } = await workspace()
    await okAs(ann, "/add", { ...inOpen, commentAnnotations: [{ annotationId: "t1", commentData: [{ commentId: 1, commentText: "ann" }] }] })
    await okAs(bob, "/comments/add", { ...inOpen, annotationId: "t1", commentData: [{ commentId: 2, commentText: "bob" }, { commentId: 3, commentText: "bob again" }] })
    const texts = async () => (await stored(creds))[0].comments.map((c: any) => `${c.commentId}:${c.commentText}`)

    const notYours = (verb: string, ids: string) => ({
      http: 403,
      status: "PERMISSION_DENIED",
      message: `User ann may ${verb} only their own comments (an admin, any): ${ids}.`
    })
    expect(await refusedAs(ann, "/comments/update", { ...inOpen, annotationId: "t1", commentIds: [1, 2], updatedData: { commentText: "x" } }))
      .toEqual(notYours("change", "comment 2 is by bob"))
    expect(await refusedAs(ann, "/comments/delete", { ...inOpen, annotationId: "t1", commentIds: [2, 3] }))
      .toEqual(notYours("delete", "comment 2 is by bob, comment 3 is by bob"))
    expect(await texts()).toEqual(["1:ann", "2:bob", "3:bob again"])

    expect((await okAs(ann, "/comments/update", { ...inOpen, annotationId: "t1", commentIds: [1, 9], updatedData: { commentText: "ann, edited" } })).data).toEqual({
      1: { success: true, id: 1, message: "Updated successfully" },
      9: { success: false, id: 9, message: "Not found" }
    })
    expect((await okAs(admin, "/comments/update", { ...inOpen, annotationId: "t1", commentIds: [2], updatedData: { commentText: "moderated" } })).data[2].success).toBe(true)
    // Without ids: every comment of the user's in the thread, and no other.
    expect((await okAs(bob, "/comments/delete", { ...inOpen, annotationId: "t1" })).data).toEqual({
      2: { success: true, id: 2, message: "Deleted successfully" },
      3: { success: true, id: 3, message: "Deleted successfully" }
    })
    expect(await texts()).toEqual(["1:ann, edited"])
    expect((await okAs(admin, "/comments/delete", { ...inOpen, annotationId: "t1", commentIds: [1] })).data).toEqual({ 1: { success: true, id: 1, message: "Deleted successfully" } })
    expect(await texts()).toEqual([])
  })
})
