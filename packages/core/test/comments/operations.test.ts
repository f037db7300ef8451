import { JobRunner } from "@atrium/core"
import { afterAll, beforeAll, expect, it } from "vitest"
import { forEachBackend, type Started } from "../../../../test-support/backends.js"
import { expectCap } from "../../../../test-support/caps.js"
import { type Receiver, startReceiver, verified } from "../../../../test-support/receiver.js"
import { MAX_BATCH, MAX_COMMENTS_PER_CALL } from "../../src/comments/CommentSchemas.js"
import type { TestCredentials } from "../../src/testing/index.js"

const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis))

forEachBackend("comments", (ctx: () => Started) => {
  const post = (creds: TestCredentials, path: string, data: unknown) => ctx().client.post(path, data, creds.headers)
  const ok = async (creds: TestCredentials, path: string, data: unknown) => {
    const answer = await post(creds, path, data)
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
    return answer.body.result
  }
  const thread = (annotationId: string | undefined, text: string, userId = "alice", extra: Record<string, unknown> = {}) => ({
    ...(annotationId !== undefined && { annotationId }),
    commentData: [{ commentText: text, from: { userId, name: userId } }],
    ...extra
  })
  const addThreads = (creds: TestCredentials, documentId: string, threads: Array<unknown>) =>
    ok(creds, "/v2/commentannotations/add", { organizationId: "org", documentId, commentAnnotations: threads })
  const getThreads = (creds: TestCredentials, data: Record<string, unknown> = {}) =>
    ok(creds, "/v2/commentannotations/get", { organizationId: "org", ...data })

  it("adds threads with their comments and reads them back in the facts' record shape", async () => {
    const creds = await ctx().workspace()
    const added = await addThreads(creds, "doc1", [
      thread("t1", "first", "alice", { location: { id: "loc-1", locationName: "Intro" }, priority: { id: "P1", name: "High" } }),
      { commentData: [{ commentId: 7, commentText: "root", from: { userId: "bob" } }, { commentText: "reply", from: { userId: "carol" } }] }
    ])
    expect(added.message).toBe("Comment Annotation(s) added successfully.")
    const entries = Object.values(added.data) as Array<any>
    expect(entries).toHaveLength(2)
    const t1 = added.data.t1
    expect(t1).toMatchObject({ success: true, annotationId: "t1", message: "Added Successfully" })
    expect(t1.commentIds[0]).toBeGreaterThanOrEqual(100000)
    const generated = entries.find((e) => e.annotationId !== "t1")
    expect(generated.commentIds[0]).toBe(7)
    expect(generated.commentIds[1]).not.toBe(7)

    const page = await getThreads(creds, { documentId: "doc1", annotationIds: ["t1"] })
    expect(page.message).toBe("Annotation(s) fetched successfully.")
    expect(page.data).toHaveLength(1)
    expect(page.data[0]).toMatchObject({
      annotationId: "t1",
      annotationNumber: 1,
      type: "comment",
      sourceType: "rest-api",
      status: { id: "OPEN", type: "default" },
      priority: { id: "P1", name: "High" },
      location: { id: "loc-1", locationName: "Intro" },
      locationId: "loc-1",
      visibilityConfig: { type: "public" },
      from: { userId: "alice" },
      metadata: { organizationId: "org", documentId: "doc1" },
      comments: [{ commentId: t1.commentIds[0], commentText: "first", type: "text", status: "added", from: { userId: "alice", name: "alice" } }]
    })
    expect(typeof page.data[0].comments[0].createdAt).toBe("number")
    expect(page.data[0].comments[0].lastUpdated).toMatch(/^\d{4}-\d\d-\d\dT/)
    const other = await getThreads(creds, { annotationIds: [generated.annotationId] })
    expect(other.data[0]).toMatchObject({ annotationNumber: 2, comments: [{ commentId: 7 }, { commentText: "reply" }] })
  })

  it("numbers a document's threads once each when they are added at the same time", async () => {
    const creds = await ctx().workspace()
    // Concurrent transactions each read the document's highest number: on PostgreSQL they must take turns.
    await Promise.all(Array.from({ length: 12 }, (_, i) => addThreads(creds, "race", [thread(`r${i}`, `thread ${i}`)])))
    const page = await getThreads(creds, { documentId: "race", pageSize: 50 })
    const numbers = page.data.map((annotation: any) => annotation.annotationNumber).sort((a: number, b: number) => a - b)
    expect(numbers).toEqual(Array.from({ length: 12 }, (_, i) => i + 1))
  })

  it("writes nothing when one entry of a batch fails, and says which in details", async () => {
    const creds = await ctx().workspace()
    await addThreads(creds, "doc1", [thread("taken", "x")])
    const answer = await post(creds, "/v2/commentannotations/add", {
      organizationId: "org",
      documentId: "doc1",
      commentAnnotations: [thread("fresh", "y"), thread("taken", "z")]
    })
    expect(answer.status).toBe(409)
    expect(answer.body.error).toMatchObject({
      status: "ALREADY_EXISTS",
      message: "1 of 2 comment annotations could not be added; nothing was written.",
      details: {
        taken: { success: false, message: "Annotation taken already exists." },
        fresh: { success: false, message: "Not added: another entry of this request failed." }
      }
    })
    const duplicateComment = await post(creds, "/v2/commentannotations/add", {
      organizationId: "org",
      documentId: "doc1",
      commentAnnotations: [{ annotationId: "dup", commentData: [{ commentId: 1, from: { userId: "a" } }, { commentId: 1, from: { userId: "a" } }] }]
    })
    expect(duplicateComment.status).toBe(400)
    expect(duplicateComment.body.error.details.dup.message).toBe("Comment 1 appears more than once in annotation dup.")
    expect((await getThreads(creds)).data.map((a: any) => a.annotationId)).toEqual(["taken"])
  })

  it("refuses malformed threads with the field named", async () => {
    const creds = await ctx().workspace()
    const cases: Array<[unknown, string]> = [
      [{ organizationId: "org", documentId: "d", commentAnnotations: [] }, "commentAnnotations"],
      [{ organizationId: "org", documentId: "d", commentAnnotations: [{ commentData: [] }] }, "commentData"],
      [{ organizationId: "org", documentId: "d", commentAnnotations: [{ annotationId: "a:b", commentData: [{ from: { userId: "u" } }] }] }, "annotationId"],
      [{ organizationId: "org", documentId: "d", commentAnnotations: [{ commentData: [{ commentText: "no author" }] }] }, "from"],
      [{ organizationId: "org", documentId: "d", commentAnnotations: [thread(undefined, "x", "u", { visibility: { type: "restricted" } })] }, "userIds"],
      [{ organizationId: "org", documentId: "d", commentAnnotations: [thread(undefined, "x", "u", { status: { id: "S", name: "S", type: "closed" } })] }, "type"]
    ]
    for (const [data, field] of cases) {
      const answer = await post(creds, "/v2/commentannotations/add", data)
      expect(answer.status, JSON.stringify(data)).toBe(400)
      expect(answer.body.error.message).toContain(field)
    }
    const tooMany = await post(creds, "/v2/commentannotations/get", { organizationId: "org", annotationIds: Array.from({ length: 31 }, (_, i) => `a${i}`) })
    expect(tooMany.body.error.message).toContain("at most 30")
    expect((await getThreads(creds)).data).toEqual([])
  })

  it("filters by document, location, author and status, orders by lastUpdated, and answers null for an unknown id", async () => {
    const creds = await ctx().workspace()
    await addThreads(creds, "doc1", [
      thread("a", "1", "alice", { lastUpdated: 1000, createdAt: 1000, location: { id: 1 } }),
      thread("b", "2", "bob", { lastUpdated: 3000, createdAt: 1000, status: { id: "RESOLVED", name: "Resolved", type: "terminal" } })
    ])
    await addThreads(creds, "doc2", [thread("c", "3", "alice", { lastUpdated: 2000, createdAt: 2000 })])
    const ids = async (data: Record<string, unknown>) => (await getThreads(creds, data)).data.map((a: any) => a?.annotationId ?? null)
    expect(await ids({})).toEqual(["b", "c", "a"])
    expect(await ids({ order: "asc" })).toEqual(["a", "c", "b"])
    expect(await ids({ documentId: "doc1" })).toEqual(["b", "a"])
    expect(await ids({ documentIds: ["doc2"] })).toEqual(["c"])
    expect(await ids({ locationIds: ["1"] })).toEqual(["a"])
    expect(await ids({ userIds: ["alice"] })).toEqual(["c", "a"])
    expect(await ids({ statusIds: ["RESOLVED"] })).toEqual(["b"])
    expect(await ids({ updatedAfter: 1000, updatedBefore: 3000 })).toEqual(["c"])
    expect(await ids({ createdBefore: 2000 })).toEqual(["b", "a"])
    expect(await ids({ annotationIds: ["a", "nope"] })).toEqual(["a", null])
    const grouped = await getThreads(creds, { groupByDocumentId: true })
    expect(Object.fromEntries(Object.entries(grouped.data).map(([doc, list]) => [doc, (list as Array<any>).map((a) => a.annotationId)])))
      .toEqual({ doc1: ["b", "a"], doc2: ["c"] })
  })

  it("pages with nextPageToken: no thread twice or missing while threads are added between pages", async () => {
    const creds = await ctx().workspace()
    await addThreads(creds, "doc1", Array.from({ length: 7 }, (_, i) => thread(`t${i}`, "x", "u", { lastUpdated: 1000 + i, createdAt: 1000 })))
    const seen: Array<string> = []
    let token: string | undefined
    let pages = 0
    do {
      const page = await getThreads(creds, { pageSize: 3, order: "asc", ...(token && { pageToken: token }) })
      seen.push(...page.data.map((a: any) => a.annotationId))
      token = page.nextPageToken
      if (pages++ === 0) await addThreads(creds, "doc1", [thread("late", "x", "u", { lastUpdated: 5000, createdAt: 5000 })])
    } while (token !== undefined)
    expect(seen).toEqual(["t0", "t1", "t2", "t3", "t4", "t5", "t6", "late"])
    const foreign = await post(creds, "/v2/commentannotations/get", { organizationId: "org", pageSize: 3, order: "desc", pageToken: "garbage" })
    expect(foreign.status).toBe(400)
  })

  it("refuses a time past the year 9999, which reads could not answer, and keeps the last moment of 9999", async () => {
    const creds = await ctx().workspace()
    const comment = (times: Record<string, number>) => ({ commentText: "late", from: { userId: "alice" }, ...times })
    // 9e15 ms is past what a Date can hold: reads of this thread answered 500.
    for (const [annotation, field] of [
      [{ annotationId: "t", commentData: [comment({ lastUpdated: 9e15 })] }, "commentData[0].lastUpdated"],
      [{ annotationId: "t", commentData: [comment({ createdAt: 253_402_300_800_000 })] }, "commentData[0].createdAt"],
      [{ annotationId: "t", lastUpdated: 253_402_300_800_000, commentData: [comment({})] }, "commentAnnotations[0].lastUpdated"]
    ] as const) {
      const answer = await post(creds, "/v2/commentannotations/add", { organizationId: "org", documentId: "d", commentAnnotations: [annotation] })
      expect(answer.status, field).toBe(400)
      expect(answer.body.error.message).toBe(`Invalid data.${field.startsWith("commentData") ? `commentAnnotations[0].${field}` : field}: must be before the year 10000`)
    }
    expect((await getThreads(creds)).data).toEqual([])
    const last = 253_402_300_799_999
    await addThreads(creds, "d", [{ annotationId: "t", commentData: [comment({ createdAt: last, lastUpdated: last })] }])
    const [read] = (await getThreads(creds, { annotationIds: ["t"] })).data
    expect(read.comments[0]).toMatchObject({ createdAt: last, lastUpdated: "9999-12-31T23:59:59.999Z" })
  })

  it("adds comments to a thread, all or none, and reads them, null for unknown ids", async () => {
    const creds = await ctx().workspace()
    await addThreads(creds, "doc1", [thread("t", "root", "alice", { lastUpdated: 1000, createdAt: 1000 })])
    const added = await ok(creds, "/v2/commentannotations/comments/add", {
      organizationId: "org",
      documentId: "doc1",
      annotationId: "t",
      commentData: [{ commentId: 42, commentText: "reply", from: { userId: "bob" }, attachments: [{ attachmentId: 1, name: "a.png" }] }, { commentText: "more", from: { userId: "carol" } }]
    })
    expect(added.message).toBe("Comment(s) added successfully.")
    expect(added.data[0]).toBe(42)
    const again = await post(creds, "/v2/commentannotations/comments/add", {
      organizationId: "org",
      documentId: "doc1",
      annotationId: "t",
      commentData: [{ commentId: 43, from: { userId: "bob" } }, { commentId: 42, from: { userId: "bob" } }]
    })
    expect(again.status).toBe(409)
    expect(again.body.error.details["42"].message).toBe("Comment 42 already exists in annotation t.")
    const all = await ok(creds, "/v2/commentannotations/comments/get", { organizationId: "org", documentId: "doc1", annotationId: "t" })
    expect(all.message).toBe("Comments retrieved successfully.")
    expect(all.data.map((c: any) => c.commentText)).toEqual(["root", "reply", "more"])
    expect(all.data[1].attachments).toEqual([{ attachmentId: 1, name: "a.png" }])
    const some = await ok(creds, "/v2/commentannotations/comments/get", { organizationId: "org", documentId: "doc1", annotationId: "t", commentIds: [42, 43] })
    expect(some.data.map((c: any) => c?.commentId ?? null)).toEqual([42, null])
    const byAuthor = await ok(creds, "/v2/commentannotations/comments/get", { organizationId: "org", documentId: "doc1", annotationId: "t", userIds: ["carol"] })
    expect(byAuthor.data.map((c: any) => c.commentText)).toEqual(["more"])
    // The thread moved to the top: its lastUpdated is the newest comment's.
    const [threadNow] = (await getThreads(creds)).data
    expect(threadNow.lastUpdated).toBeGreaterThan(1000)
    const missing = await post(creds, "/v2/commentannotations/comments/add", { organizationId: "org", documentId: "doc2", annotationId: "t", commentData: [{ from: { userId: "x" } }] })
    expect(missing.status).toBe(404)
    expect(missing.body.error.message).toBe("Annotation t not found in document doc2.")
  })

  it("reads comments added in separate requests with the same createdAt in the order they were added", async () => {
    const creds = await ctx().workspace()
    // Ids Atrium picks are random: the order must not come from them (it once did, in the same millisecond).
    await addThreads(creds, "doc1", [{ annotationId: "same", commentData: [{ commentText: "0", createdAt: 5000, from: { userId: "a" } }] }])
    for (const text of ["1", "2", "3", "4", "5", "6"]) {
      await ok(creds, "/v2/commentannotations/comments/add", { organizationId: "org", documentId: "doc1", annotationId: "same", commentData: [{ commentText: text, createdAt: 5000, from: { userId: "a" } }] })
    }
    const read = await ok(creds, "/v2/commentannotations/comments/get", { organizationId: "org", documentId: "doc1", annotationId: "same" })
    expect(read.data.map((c: any) => c.commentText)).toEqual(["0", "1", "2", "3", "4", "5", "6"])
  })

  it("deletes threads with their comments; an unknown id fails only its entry", async () => {
    const creds = await ctx().workspace()
    await addThreads(creds, "doc1", [thread("a", "1"), thread("b", "2"), thread("c", "3", "bob")])
    const deleted = await ok(creds, "/v2/commentannotations/delete", { organizationId: "org", documentId: "doc1", annotationIds: ["a", "nope"] })
    expect(deleted.message).toBe("Annotations deleted successfully.")
    expect(deleted.data).toEqual({
      a: { success: true, id: "a", message: "Deleted Successfully" },
      nope: { success: false, id: "nope", message: "Annotation not found." }
    })
    const gone = await post(creds, "/v2/commentannotations/comments/get", { organizationId: "org", documentId: "doc1", annotationId: "a" })
    expect(gone.status).toBe(404)
    // The id is free again, with no comment of the old thread left behind.
    await addThreads(creds, "doc1", [{ annotationId: "a", commentData: [{ commentId: 5, from: { userId: "z" } }] }])
    expect((await getThreads(creds, { annotationIds: ["a"] })).data[0].comments.map((c: any) => c.commentId)).toEqual([5])
    const byAuthor = await ok(creds, "/v2/commentannotations/delete", { organizationId: "org", documentId: "doc1", userIds: ["bob"] })
    expect(Object.keys(byAuthor.data)).toEqual(["c"])
    await ok(creds, "/v2/commentannotations/delete", { organizationId: "org", documentId: "doc1" })
    expect((await getThreads(creds)).data).toEqual([])
  })

  it("updates threads field by field; a status that is not terminal clears who resolved it", async () => {
    const creds = await ctx().workspace()
    await addThreads(creds, "doc1", [
      thread("a", "1", "alice", { location: { id: "L1" }, assignedTo: { userId: "bob" } }),
      thread("b", "2", "bob", { location: { id: "L2" } })
    ])
    const resolved = { id: "RESOLVED", name: "Resolved", type: "terminal" }
    const updated = await ok(creds, "/v2/commentannotations/update", {
      organizationId: "org",
      documentId: "doc1",
      annotationIds: ["a", "nope"],
      updatedData: { status: resolved, resolvedByUserId: "carol", statusUpdatedByUserId: "carol", priority: { id: "P0", name: "Urgent" }, context: { access: { team: "x" } } }
    })
    expect(updated.message).toBe("Annotations updated successfully.")
    expect(updated.data).toEqual({
      a: { success: true, id: "a", message: "Annotations updated successfully" },
      nope: { success: false, id: "nope", message: "Annotation not found." }
    })
    // Found by id: a's update may fall in the millisecond b was created, and then b reads first.
    const both = (await getThreads(creds, { annotationIds: ["a", "b"] })).data
    const a = both.find((t: any) => t.annotationId === "a")
    const b = both.find((t: any) => t.annotationId === "b")
    expect(a).toMatchObject({ status: resolved, resolvedByUserId: "carol", statusUpdatedByUserId: "carol", priority: { id: "P0" }, context: { access: { team: "x" } }, assignedTo: { userId: "bob" }, location: { id: "L1" } })
    expect(a.comments[0].commentText).toBe("1")
    expect(b.status.id).toBe("OPEN")
    expect((await getThreads(creds, { statusIds: ["RESOLVED"] })).data.map((t: any) => t.annotationId)).toEqual(["a"])

    // Reopening clears resolvedByUserId even when one is sent; statusUpdatedByUserId stays; null clears it.
    await ok(creds, "/v2/commentannotations/update", {
      organizationId: "org",
      documentId: "doc1",
      annotationIds: ["a"],
      updatedData: { status: { id: "IN_PROGRESS", name: "In progress", type: "ongoing" }, resolvedByUserId: "dave" }
    })
    let [reopened] = (await getThreads(creds, { annotationIds: ["a"] })).data
    expect(reopened.status.id).toBe("IN_PROGRESS")
    expect(reopened.resolvedByUserId).toBeUndefined()
    expect(reopened.statusUpdatedByUserId).toBe("carol")
    await ok(creds, "/v2/commentannotations/update", { organizationId: "org", documentId: "doc1", annotationIds: ["a"], updatedData: { statusUpdatedByUserId: null, location: { id: "L9" }, visibility: { type: "organizationPrivate", organizationId: "org" } } })
    ;[reopened] = (await getThreads(creds, { annotationIds: ["a"] })).data
    expect(reopened.statusUpdatedByUserId).toBeUndefined()
    expect(reopened).toMatchObject({ location: { id: "L9" }, locationId: "L9", visibilityConfig: { type: "organizationPrivate", organizationId: "org" } })
    expect((await getThreads(creds, { locationIds: ["L9"] })).data.map((t: any) => t.annotationId)).toEqual(["a"])

    // Selectors: locationIds picks b only; no selector updates every thread of the document.
    const byLocation = await ok(creds, "/v2/commentannotations/update", { organizationId: "org", documentId: "doc1", locationIds: ["L2"], updatedData: { priority: { id: "P2", name: "Low" } } })
    expect(Object.keys(byLocation.data)).toEqual(["b"])
    await ok(creds, "/v2/commentannotations/update", { organizationId: "org", documentId: "doc1", updatedData: { assignedTo: { userId: "erin" } } })
    expect((await getThreads(creds)).data.map((t: any) => t.assignedTo.userId)).toEqual(["erin", "erin"])
  })

  it("rewrites users across threads and their comments with updateUsers", async () => {
    const creds = await ctx().workspace()
    await addThreads(creds, "doc1", [thread("a", "1", "old", { assignedTo: { userId: "old" } })])
    await ok(creds, "/v2/commentannotations/comments/add", { organizationId: "org", documentId: "doc1", annotationId: "a", commentData: [{ commentText: "2", from: { userId: "old" } }, { commentText: "3", from: { userId: "other" } }] })
    await ok(creds, "/v2/commentannotations/update", {
      organizationId: "org",
      documentId: "doc1",
      userIds: ["old"],
      updateUsers: [{ oldUser: { userId: "old" }, newUser: { userId: "new", name: "New Name" } }]
    })
    const [a] = (await getThreads(creds, { annotationIds: ["a"] })).data
    expect(a.from).toEqual({ userId: "new", name: "New Name" })
    expect(a.assignedTo).toEqual({ userId: "new", name: "New Name" })
    expect(a.comments.map((c: any) => c.from.userId)).toEqual(["new", "new", "other"])
    expect((await getThreads(creds, { userIds: ["new"] })).data.map((t: any) => t.annotationId)).toEqual(["a"])
    const byAuthor = await ok(creds, "/v2/commentannotations/comments/get", { organizationId: "org", documentId: "doc1", annotationId: "a", userIds: ["new"] })
    expect(byAuthor.data.map((c: any) => c.commentText)).toEqual(["1", "2"])
  })

  it("updateUsers rewrites reactions' users too: the reactor's name, or who reacted; a reaction the new user already made stays one", async () => {
    const creds = await ctx().workspace()
    await addThreads(creds, "doc1", [thread("a", "1", "author")])
    const { commentId } = (await getThreads(creds, { annotationIds: ["a"] })).data[0].comments[0]
    const react = (reactionId: string, from: { userId: string; name?: string }) =>
      ok(creds, "/v2/commentannotations/comments/reactions/add", { organizationId: "org", documentId: "doc1", annotationId: "a", commentId, reaction: { reactionId }, from })
    await react("HEART", { userId: "old", name: "Old Name" })
    await react("THUMBS_UP", { userId: "old", name: "Old Name" })
    await react("THUMBS_UP", { userId: "new", name: "New" })
    await react("HEART", { userId: "bystander" })
    await ok(creds, "/v2/commentannotations/update", {
      organizationId: "org",
      documentId: "doc1",
      updateUsers: [{ oldUser: { userId: "old" }, newUser: { userId: "new", name: "New Name" } }]
    })
    const [a] = (await getThreads(creds, { annotationIds: ["a"] })).data
    const reactions = Object.fromEntries(a.comments[0].reactionAnnotations.map((r: any) => [r.icon, r.fromUsers.map((u: any) => u.from).sort((x: any, y: any) => x.userId.localeCompare(y.userId))]))
    expect(reactions).toEqual({
      HEART: [{ userId: "bystander" }, { userId: "new", name: "New Name" }],
      THUMBS_UP: [{ userId: "new", name: "New" }]
    })
    // A rename (the same user id) reaches the reaction as well.
    await ok(creds, "/v2/commentannotations/update", {
      organizationId: "org",
      documentId: "doc1",
      updateUsers: [{ oldUser: { userId: "bystander" }, newUser: { userId: "bystander", name: "Now Named" } }]
    })
    const [renamed] = (await getThreads(creds, { annotationIds: ["a"] })).data
    const heart = renamed.comments[0].reactionAnnotations.find((r: any) => r.icon === "HEART")
    expect(heart.fromUsers.map((u: any) => u.from)).toContainEqual({ userId: "bystander", name: "Now Named" })
  })

  it("refuses malformed updates with the field named, and changes nothing", async () => {
    const creds = await ctx().workspace()
    await addThreads(creds, "doc1", [thread("a", "1")])
    const cases: Array<[string, unknown, string]> = [
      ["/v2/commentannotations/update", { organizationId: "org", documentId: "doc1", updatedData: { status: { id: "X", name: "X", type: "closed" } } }, "type"],
      ["/v2/commentannotations/update", { organizationId: "org", documentId: "doc1", updatedData: { priority: { name: "no id" } } }, "id"],
      ["/v2/commentannotations/update", { organizationId: "org", documentId: "doc1", annotationIds: Array.from({ length: 31 }, (_, i) => `a${i}`) }, "at most 30"],
      ["/v2/commentannotations/comments/update", { organizationId: "org", documentId: "doc1", annotationId: "a", commentIds: [], updatedData: {} }, "commentIds"],
      ["/v2/commentannotations/comments/update", { organizationId: "org", documentId: "doc1", annotationId: "a", commentIds: ["x"], updatedData: {} }, "commentIds"],
      ["/v2/commentannotations/comments/update", { organizationId: "org", documentId: "doc1", annotationId: "a", commentIds: [1] }, "updatedData"],
      ["/v2/commentannotations/comments/delete", { organizationId: "org", documentId: "doc1", annotationId: "a", commentIds: "1" }, "commentIds"]
    ]
    for (const [path, data, field] of cases) {
      const answer = await post(creds, path, data)
      expect(answer.status, `${path} ${JSON.stringify(data)}`).toBe(400)
      expect(answer.body.error.message).toContain(field)
    }
    const [a] = (await getThreads(creds)).data
    expect(a).toMatchObject({ status: { id: "OPEN" }, comments: [{ commentText: "1", status: "added" }] })
    expect(a.priority).toBeUndefined()
  })

  it("updates and deletes comments of a thread; an unknown id fails only its entry", async () => {
    const creds = await ctx().workspace()
    await addThreads(creds, "doc1", [{ annotationId: "t", lastUpdated: 1000, createdAt: 1000, commentData: [
      { commentId: 1, commentText: "one", from: { userId: "alice" }, attachments: [{ attachmentId: 1, name: "a.png" }] },
      { commentId: 2, commentText: "two", from: { userId: "bob" } },
      { commentId: 3, commentText: "three", from: { userId: "bob" } }
    ] }])
    const updated = await ok(creds, "/v2/commentannotations/comments/update", {
      organizationId: "org",
      documentId: "doc1",
      annotationId: "t",
      commentIds: [1, 2, 99],
      updatedData: { commentText: "edited", commentHtml: "<p>edited</p>", attachments: [{ attachmentId: 2, name: "b.pdf", type: "document" }] }
    })
    expect(updated.message).toBe("Comment updated successfully.")
    expect(updated.data).toEqual({
      "1": { success: true, id: 1, message: "Updated successfully" },
      "2": { success: true, id: 2, message: "Updated successfully" },
      "99": { success: false, id: 99, message: "Not found" }
    })
    const comments = (await ok(creds, "/v2/commentannotations/comments/get", { organizationId: "org", documentId: "doc1", annotationId: "t" })).data
    expect(comments.map((c: any) => [c.commentId, c.commentText, c.status, c.from.userId])).toEqual([
      [1, "edited", "updated", "alice"],
      [2, "edited", "updated", "bob"],
      [3, "three", "added", "bob"]
    ])
    expect(comments[0].commentHtml).toBe("<p>edited</p>")
    // Attachments are replaced, not merged.
    expect(comments[0].attachments).toEqual([{ attachmentId: 2, name: "b.pdf", type: "document" }])
    const [threadNow] = (await getThreads(creds)).data
    expect(threadNow.lastUpdated).toBeGreaterThan(1000)

    const missingThread = await post(creds, "/v2/commentannotations/comments/update", { organizationId: "org", documentId: "doc1", annotationId: "nope", commentIds: [1], updatedData: { commentText: "x" } })
    expect(missingThread.status).toBe(404)
    expect(missingThread.body.error.message).toBe("Annotation nope not found in document doc1.")

    const deleted = await ok(creds, "/v2/commentannotations/comments/delete", { organizationId: "org", documentId: "doc1", annotationId: "t", commentIds: [2, 77] })
    expect(deleted.message).toBe("Comments(s) deleted successfully.")
    expect(deleted.data).toEqual({
      "2": { success: true, id: 2, message: "Deleted successfully" },
      "77": { success: false, id: 77, message: "Not found" }
    })
    const left = await ok(creds, "/v2/commentannotations/comments/get", { organizationId: "org", documentId: "doc1", annotationId: "t" })
    expect(left.data.map((c: any) => c.commentId)).toEqual([1, 3])
    const all = await ok(creds, "/v2/commentannotations/comments/delete", { organizationId: "org", documentId: "doc1", annotationId: "t" })
    expect(Object.keys(all.data).sort()).toEqual(["1", "3"])
    // The thread stays, empty (docs/decisions.md, "Comments").
    expect((await getThreads(creds)).data[0]).toMatchObject({ annotationId: "t", comments: [] })
  })

  it("adds and removes reactions, grouped per emoji in reads; once per user and emoji", async () => {
    const creds = await ctx().workspace()
    await addThreads(creds, "doc1", [{ annotationId: "t", commentData: [{ commentId: 1, commentText: "hi", from: { userId: "alice" } }, { commentId: 2, from: { userId: "bob" } }] }])
    const react = (userId: string, reactionId: string, commentId = 1, extra: Record<string, unknown> = {}) => ({
      organizationId: "org", documentId: "doc1", annotationId: "t", commentId, reaction: { reactionId, ...extra }, from: { userId, name: userId }
    })
    const added = await ok(creds, "/v2/commentannotations/comments/reactions/add", react("bob", "HEART_FACE"))
    expect(added).toEqual({ status: "success", message: "Reaction added successfully.", data: { reactionAnnotationId: "t:1:HEART_FACE" } })
    await ok(creds, "/v2/commentannotations/comments/reactions/add", react("carol", "HEART_FACE"))
    await ok(creds, "/v2/commentannotations/comments/reactions/add", react("carol", "PARTY", 1, { customReaction: { emoji: "🎉" } }))
    const twice = await post(creds, "/v2/commentannotations/comments/reactions/add", react("bob", "HEART_FACE"))
    expect(twice.status).toBe(409)
    expect(twice.body.error).toMatchObject({ status: "ALREADY_EXISTS", message: "User bob already reacted with HEART_FACE to comment 1." })
    const noComment = await post(creds, "/v2/commentannotations/comments/reactions/add", react("bob", "HEART_FACE", 9))
    expect(noComment.status).toBe(404)
    expect(noComment.body.error.message).toBe("Comment 9 not found in annotation t.")

    const [comment1, comment2] = (await ok(creds, "/v2/commentannotations/comments/get", { organizationId: "org", documentId: "doc1", annotationId: "t" })).data
    expect(comment1.reactionAnnotationIds).toEqual(["t:1:HEART_FACE", "t:1:PARTY"])
    expect(comment1.reactionAnnotations).toMatchObject([
      { annotationId: "t:1:HEART_FACE", type: "reaction", icon: "HEART_FACE", commentAnnotationId: "t", fromUsers: [{ from: { userId: "bob" } }, { from: { userId: "carol" } }] },
      { annotationId: "t:1:PARTY", icon: "PARTY", iconEmoji: "🎉", fromUsers: [{ from: { userId: "carol", name: "carol" } }] }
    ])
    expect(comment2.reactionAnnotations).toEqual([])
    expect((await getThreads(creds)).data[0].comments[0].reactionAnnotationIds).toEqual(["t:1:HEART_FACE", "t:1:PARTY"])

    const removed = await ok(creds, "/v2/commentannotations/comments/reactions/delete", react("bob", "HEART_FACE"))
    expect(removed.message).toBe("Reaction deleted successfully.")
    const again = await post(creds, "/v2/commentannotations/comments/reactions/delete", react("bob", "HEART_FACE"))
    expect(again.status).toBe(404)
    expect(again.body.error.message).toBe("User bob has no HEART_FACE reaction on comment 1 of annotation t.")
    const [after] = (await ok(creds, "/v2/commentannotations/comments/get", { organizationId: "org", documentId: "doc1", annotationId: "t", commentIds: [1] })).data
    expect(after.reactionAnnotations.map((g: any) => [g.icon, g.fromUsers.map((u: any) => u.from.userId)])).toEqual([["HEART_FACE", ["carol"]], ["PARTY", ["carol"]]])

    // A deleted comment takes its reactions along: the same id added again starts with none.
    await ok(creds, "/v2/commentannotations/comments/delete", { organizationId: "org", documentId: "doc1", annotationId: "t", commentIds: [1] })
    await ok(creds, "/v2/commentannotations/comments/add", { organizationId: "org", documentId: "doc1", annotationId: "t", commentData: [{ commentId: 1, from: { userId: "alice" } }] })
    const [fresh] = (await ok(creds, "/v2/commentannotations/comments/get", { organizationId: "org", documentId: "doc1", annotationId: "t", commentIds: [1] })).data
    expect(fresh.reactionAnnotations).toEqual([])
    const malformed = await post(creds, "/v2/commentannotations/comments/reactions/add", { ...react("bob", ""), commentId: 1 })
    expect(malformed.status).toBe(400)
    expect(malformed.body.error.message).toContain("reactionId")
  })

  it("counts threads per document and those a user has not read since they last changed", async () => {
    const creds = await ctx().workspace()
    await addThreads(creds, "doc1", [thread("a", "1"), thread("b", "2"), thread("c", "3", "bob", { status: { id: "RESOLVED", name: "Resolved", type: "terminal" } })])
    await addThreads(creds, "doc2", [thread("d", "4")])
    const count = async (data: Record<string, unknown> = {}) =>
      (await ok(creds, "/v2/commentannotations/count/get", { organizationId: "org", documentIds: ["doc1", "doc2", "empty"], userId: "reader", ...data }))
    const first = await count()
    expect(first.message).toBe("Comment count retrieved successfully.")
    expect(first.data).toEqual({ doc1: { total: 3, unread: 3 }, doc2: { total: 1, unread: 1 }, empty: { total: 0, unread: 0 } })

    const read = await ok(creds, "/v2/commentannotations/read", { organizationId: "org", documentId: "doc1", annotationIds: ["a", "c", "d", "nope"], userId: "reader" })
    expect(read.data).toEqual({
      a: { success: true, id: "a", message: "Marked as read" },
      c: { success: true, id: "c", message: "Marked as read" },
      d: { success: false, id: "d", message: "Annotation not found." },
      nope: { success: false, id: "nope", message: "Annotation not found." }
    })
    expect((await count()).data).toMatchObject({ doc1: { total: 3, unread: 1 }, doc2: { total: 1, unread: 1 } })
    expect((await count({ statusIds: ["OPEN"] })).data.doc1).toEqual({ total: 2, unread: 1 })
    // Someone else's reads are theirs.
    expect((await count({ userId: "other" })).data.doc1).toEqual({ total: 3, unread: 3 })
    // A new comment makes a read thread unread again; reading it again clears it.
    await sleep(2)
    await ok(creds, "/v2/commentannotations/comments/add", { organizationId: "org", documentId: "doc1", annotationId: "a", commentData: [{ commentText: "new", from: { userId: "bob" } }] })
    expect((await count()).data.doc1.unread).toBe(2)
    await ok(creds, "/v2/commentannotations/read", { organizationId: "org", documentId: "doc1", annotationIds: ["a"], userId: "reader" })
    expect((await count()).data.doc1.unread).toBe(1)
    // Agent filters are taken and ignored, as the hosted service does.
    expect((await count({ agentId: "x", agentSuggestions: true })).data.doc1.total).toBe(3)
    const tooMany = await post(creds, "/v2/commentannotations/count/get", { organizationId: "org", documentIds: Array.from({ length: 31 }, (_, i) => `d${i}`), userId: "u" })
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.error.message).toContain("documentIds")
    const noUser = await post(creds, "/v2/commentannotations/count/get", { organizationId: "org", documentIds: ["doc1"] })
    expect(noUser.body.error.message).toContain("userId")
  })

  it("deleting a thread deletes its comments, reactions and read markers", async () => {
    const creds = await ctx().workspace()
    await addThreads(creds, "doc1", [{ annotationId: "t", commentData: [{ commentId: 1, from: { userId: "alice" } }] }])
    await ok(creds, "/v2/commentannotations/comments/reactions/add", { organizationId: "org", documentId: "doc1", annotationId: "t", commentId: 1, reaction: { reactionId: "UP" }, from: { userId: "bob" } })
    await ok(creds, "/v2/commentannotations/read", { organizationId: "org", documentId: "doc1", annotationIds: ["t"], userId: "bob" })
    await ok(creds, "/v2/commentannotations/delete", { organizationId: "org", documentId: "doc1", annotationIds: ["t"] })
    await addThreads(creds, "doc1", [{ annotationId: "t", commentData: [{ commentId: 1, from: { userId: "alice" } }] }])
    const [again] = (await getThreads(creds)).data
    expect(again.comments).toHaveLength(1)
    expect(again.comments[0].reactionAnnotations).toEqual([])
    expect((await ok(creds, "/v2/commentannotations/count/get", { organizationId: "org", documentIds: ["doc1"], userId: "bob" })).data.doc1).toEqual({ total: 1, unread: 1 })
  })

  it("users/data/delete removes the threads a user started, their comments, reactions and read markers", async () => {
    const creds = await ctx().workspace()
    const runJobs = () => ctx().atrium.runtime.runPromise(JobRunner.runDue("test"))
    await addThreads(creds, "doc1", [
      { annotationId: "mine", commentData: [{ commentId: 1, from: { userId: "gone" } }, { commentId: 2, from: { userId: "stays" } }] },
      { annotationId: "theirs", commentData: [{ commentId: 1, from: { userId: "stays" } }, { commentId: 2, from: { userId: "gone" } }, { commentId: 3, from: { userId: "stays" } }] }
    ])
    const react = (annotationId: string, commentId: number, userId: string) =>
      ok(creds, "/v2/commentannotations/comments/reactions/add", { organizationId: "org", documentId: "doc1", annotationId, commentId, reaction: { reactionId: "UP" }, from: { userId } })
    await react("theirs", 1, "gone")
    await react("theirs", 1, "stays")
    await react("theirs", 2, "stays")
    await ok(creds, "/v2/commentannotations/read", { organizationId: "org", documentId: "doc1", annotationIds: ["theirs"], userId: "gone" })
    await ok(creds, "/v2/commentannotations/read", { organizationId: "org", documentId: "doc1", annotationIds: ["theirs"], userId: "stays" })
    const started = await post(creds, "/v2/users/data/delete", { userIds: ["gone"] })
    expect(started.status).toBe(202)
    await runJobs()
    const status = await ok(creds, "/v2/users/data/delete/status", { jobId: started.body.result.data.jobId })
    expect(status.data.isDeleteCompleted).toBe(true)
    const threads = (await getThreads(creds)).data
    expect(threads.map((t: any) => t.annotationId)).toEqual(["theirs"])
    expect(threads[0].comments.map((c: any) => [c.commentId, c.from.userId, c.reactionAnnotations.flatMap((g: any) => g.fromUsers.map((u: any) => u.from.userId))]))
      .toEqual([[1, "stays", ["stays"]], [3, "stays", []]])
    // The reaction to the deleted comment went with it: the id added again has none.
    await ok(creds, "/v2/commentannotations/comments/add", { organizationId: "org", documentId: "doc1", annotationId: "theirs", commentData: [{ commentId: 2, from: { userId: "new" } }] })
    expect((await ok(creds, "/v2/commentannotations/comments/get", { organizationId: "org", documentId: "doc1", annotationId: "theirs", commentIds: [2] })).data[0].reactionAnnotations).toEqual([])
    const count = async (userId: string) => (await ok(creds, "/v2/commentannotations/count/get", { organizationId: "org", documentIds: ["doc1"], userId })).data.doc1
    // "gone"'s read marker went; "stays"' did not (the comment added since makes the thread unread for both).
    await ok(creds, "/v2/commentannotations/read", { organizationId: "org", documentId: "doc1", annotationIds: ["theirs"], userId: "stays" })
    expect(await count("stays")).toEqual({ total: 1, unread: 0 })
    expect(await count("gone")).toEqual({ total: 1, unread: 1 })
  })

  it("documents/migrate moves the document's threads with their comments and reactions", async () => {
    const creds = await ctx().workspace()
    const runJobs = () => ctx().atrium.runtime.runPromise(JobRunner.runDue("test"))
    await ok(creds, "/v2/commentannotations/add", { organizationId: "org", documentId: "old", createOrganization: true, createDocument: true, commentAnnotations: [{ annotationId: "t", commentData: [{ commentId: 1, from: { userId: "a" } }] }] })
    await addThreads(creds, "other", [thread("o", "x")])
    await ok(creds, "/v2/commentannotations/comments/reactions/add", { organizationId: "org", documentId: "old", annotationId: "t", commentId: 1, reaction: { reactionId: "UP" }, from: { userId: "b" } })
    const started = await ok(creds, "/v2/organizations/documents/migrate", { organizationId: "org", documentId: "old", newDocumentId: "new" })
    await runJobs()
    const status = await ok(creds, "/v2/organizations/documents/migrate/status", { organizationId: "org", migrationId: started.data.migrationId })
    expect(status.data.status).toBe("completed")
    expect((await getThreads(creds, { documentId: "old" })).data).toEqual([])
    const [moved] = (await getThreads(creds, { documentId: "new" })).data
    expect(moved).toMatchObject({ annotationId: "t", metadata: { documentId: "new" }, comments: [{ commentId: 1, reactionAnnotations: [{ icon: "UP" }] }] })
    expect((await getThreads(creds, { documentId: "other" })).data.map((t: any) => t.annotationId)).toEqual(["o"])
    await ok(creds, "/v2/commentannotations/comments/add", { organizationId: "org", documentId: "new", annotationId: "t", commentData: [{ from: { userId: "c" } }] })
  })

  it("writes activity records for the comments sent with triggerActivities, and none for the others", async () => {
    const creds = await ctx().workspace()
    await addThreads(creds, "doc1", [{
      annotationId: "t",
      commentData: [
        { commentId: 1, commentText: "first", triggerActivities: true, from: { userId: "alice", name: "Alice", email: "alice@example.com" } },
        { commentId: 2, commentText: "quiet", from: { userId: "bob" } },
        { commentId: 3, commentText: "loud", triggerActivities: true, from: { userId: "carol" } }
      ]
    }])
    await addThreads(creds, "doc1", [thread("other", "no activity")])
    const log = (await ok(creds, "/v2/activities/get", { organizationId: "org", documentId: "doc1", order: "asc" })).data
    expect(log).toHaveLength(2)
    const byComment = Object.fromEntries(log.map((a: any) => [a.targetSubEntityId, a]))
    expect(byComment["1"]).toMatchObject({
      featureType: "comment",
      actionType: "comment_annotation.add",
      actionUser: { userId: "alice", name: "Alice", email: "alice@example.com" },
      targetEntityId: "t",
      entityData: { commentId: 1, commentText: "first" },
      displayMessageTemplateData: { user: { userId: "alice", name: "Alice" }, commentText: "first" },
      metadata: { organizationId: "org", documentId: "doc1" }
    })
    expect(byComment["3"]).toMatchObject({ actionType: "comment.add", actionUser: { userId: "carol" }, targetEntityId: "t" })
    const filtered = await ok(creds, "/v2/activities/get", { organizationId: "org", featureTypes: ["comment"], actionTypes: ["comment.add"] })
    expect(filtered.data.map((a: any) => a.targetSubEntityId)).toEqual(["3"])
  })

  it("keeps each API key's threads apart and refuses a disabled organization", async () => {
    const mine = await ctx().workspace()
    const theirs = await ctx().workspace()
    await addThreads(theirs, "doc1", [thread("secret", "theirs")])
    expect((await getThreads(mine, { annotationIds: ["secret"] })).data).toEqual([null])
    await addThreads(mine, "doc1", [thread("secret", "mine")])
    expect((await getThreads(theirs, { annotationIds: ["secret"] })).data[0].comments[0].commentText).toBe("theirs")
    // The organization must exist to be disabled; once it is, every comment operation refuses it.
    await ok(mine, "/v2/organizations/add", { organizations: [{ organizationId: "org" }] })
    await ok(mine, "/v2/organizations/access/disablestate/update", { organizationIds: ["org"], disabled: true })
    const refused = await Promise.all([
      post(mine, "/v2/commentannotations/get", { organizationId: "org" }),
      post(mine, "/v2/commentannotations/add", { organizationId: "org", documentId: "doc1", commentAnnotations: [thread(undefined, "x")] }),
      post(mine, "/v2/commentannotations/comments/get", { organizationId: "org", documentId: "doc1", annotationId: "secret" })
    ])
    expect(refused.map((r) => r.body.error?.status)).toEqual(["PERMISSION_DENIED", "PERMISSION_DENIED", "PERMISSION_DENIED"])
    // Their organization of the same name is theirs: still served.
    expect((await getThreads(theirs)).data).toHaveLength(1)
  })

  it(`commentannotations/add takes ${MAX_COMMENTS_PER_CALL} comments in all its threads together; one more is refused, nothing written`, async () => {
    const creds = await ctx().workspace()
    // Spread over as many threads as a call takes, the last ones one comment short when it does not divide.
    const threads = (comments: number, tag: string) =>
      Array.from({ length: MAX_BATCH }, (_, t) => ({
        annotationId: `${tag}-${t}`,
        commentData: Array.from({ length: Math.floor(comments / MAX_BATCH) + (t < comments % MAX_BATCH ? 1 : 0) }, (_, i) => ({
          commentText: `c${i}`,
          from: { userId: "alice" }
        }))
      })).filter((thread) => thread.commentData.length > 0)
    const added = await expectCap({
      post: (path, data) => post(creds, path, data),
      path: "/v2/commentannotations/add",
      field: "commentAnnotations",
      max: MAX_COMMENTS_PER_CALL,
      message: `comments in commentAnnotations[].commentData must have at most ${MAX_COMMENTS_PER_CALL} entries: ${MAX_COMMENTS_PER_CALL + 1} given`,
      data: (n, tag) => ({ organizationId: "org", documentId: "doc1", commentAnnotations: threads(n, tag) })
    })
    expect(Object.values(added.body.result.data).flatMap((thread: any) => thread.commentIds)).toHaveLength(MAX_COMMENTS_PER_CALL)
    const ids = (await getThreads(creds, { documentId: "doc1", pageSize: 1000 })).data.map((thread: { annotationId: string }) => thread.annotationId)
    expect(ids.filter((id: string) => id.startsWith("over-"))).toEqual([])
  })

  describe_events(ctx)
})

/** Events of comment writes, delivered to a real receiver (advanced webhooks on). */
function describe_events(ctx: () => Started) {
  let receiver: Receiver
  beforeAll(async () => {
    receiver = await startReceiver()
  })
  afterAll(() => receiver.close())

  /** A workspace whose advanced webhooks go to the receiver: its call helper and what arrives next, verified. */
  const subscribed = async () => {
    const creds = await ctx().workspace()
    const call = async (path: string, data: unknown) => {
      const answer = await ctx().client.post(path, data, creds.headers)
      if (answer.status !== 200) throw new Error(`${path}: ${answer.text}`)
      return answer.body.result.data
    }
    await call("/v2/workspace/advancedwebhookconfig/update", { isEnabled: true })
    const endpoint = await call("/v2/workspace/advancedwebhook/endpoints/create", { url: receiver.url })
    const { secret } = await call("/v2/workspace/advancedwebhook/endpoints/secret/get", { endpointId: endpoint.id })
    /** Runs what is due until `count` more deliveries arrived after `from`; their verified bodies. */
    const deliveredSince = async (from: number, count: number) => {
      const deadline = Date.now() + 20_000
      while (receiver.received.length < from + count && Date.now() < deadline) {
        await ctx().atrium.runDue()
        await sleep(10)
      }
      await ctx().atrium.runDue()
      return receiver.received.slice(from).map((r) => verified(secret, r))
    }
    return { creds, call, deliveredSince }
  }

  it("emits comment_annotation.add and comment.add with the thread, the comment and the acting user", async () => {
    const { call, creds, deliveredSince } = await subscribed()
    const before = receiver.received.length
    await call("/v2/commentannotations/add", { organizationId: "org", documentId: "doc1", commentAnnotations: [{ annotationId: "ev", commentData: [{ commentId: 1, commentText: "hi", from: { userId: "alice" } }] }] })
    await call("/v2/commentannotations/comments/add", { organizationId: "org", documentId: "doc1", annotationId: "ev", commentData: [{ commentId: 2, commentText: "re", from: { userId: "bob" } }] })
    // A batch that fails emits nothing.
    await ctx().client.post("/v2/commentannotations/add", { organizationId: "org", documentId: "doc1", commentAnnotations: [{ annotationId: "ev", commentData: [{ from: { userId: "x" } }] }] }, creds.headers)
    const bodies = await deliveredSince(before, 2)
    expect(bodies.map((b) => b.event).sort()).toEqual(["comment.add", "comment_annotation.add"])
    const added = bodies.find((b) => b.event === "comment_annotation.add")
    expect(added).toMatchObject({
      source: "comment_annotation",
      actionType: "add",
      data: {
        commentAnnotation: { annotationId: "ev", comments: [{ commentId: 1, commentText: "hi" }] },
        targetComment: { commentId: 1 },
        actionUser: { userId: "alice" },
        metadata: { organizationId: "org", documentId: "doc1" }
      }
    })
    const reply = bodies.find((b) => b.event === "comment.add")
    expect(reply.data).toMatchObject({ targetComment: { commentId: 2, commentText: "re" }, actionUser: { userId: "bob" } })
    expect(reply.data.commentAnnotation.comments.map((c: any) => c.commentId)).toEqual([1, 2])
    const messages = await call("/v2/workspace/advancedwebhook/messages/get", { channel: "org/doc1" })
    expect(messages.messages).toHaveLength(2)
  })

  it("emits status_change, assign, priority_change, comment.update and comment.delete for what changed", async () => {
    const { call, creds, deliveredSince } = await subscribed()
    await call("/v2/commentannotations/add", { organizationId: "org", documentId: "doc1", commentAnnotations: [{ annotationId: "ev", commentData: [{ commentId: 1, commentText: "hi", from: { userId: "alice" } }, { commentId: 2, commentText: "re", from: { userId: "bob" } }] }] })
    await deliveredSince(receiver.received.length, 1)
    const before = receiver.received.length
    const resolved = { id: "RESOLVED", name: "Resolved", type: "terminal" }
    await call("/v2/commentannotations/update", {
      organizationId: "org",
      documentId: "doc1",
      annotationIds: ["ev"],
      updatedData: { status: resolved, statusUpdatedByUserId: "carol", assignedTo: { userId: "dave" }, priority: { id: "P1", name: "High" } }
    })
    // The same values again change nothing, so they emit nothing.
    await call("/v2/commentannotations/update", { organizationId: "org", documentId: "doc1", annotationIds: ["ev"], updatedData: { status: resolved, assignedTo: { userId: "dave" } } })
    await call("/v2/commentannotations/comments/update", { organizationId: "org", documentId: "doc1", annotationId: "ev", commentIds: [2], updatedData: { commentText: "edited" } })
    await call("/v2/commentannotations/comments/delete", { organizationId: "org", documentId: "doc1", annotationId: "ev", commentIds: [1] })
    // A failing call (unknown thread) emits nothing.
    await ctx().client.post("/v2/commentannotations/comments/delete", { organizationId: "org", documentId: "doc1", annotationId: "gone" }, creds.headers)
    const bodies = await deliveredSince(before, 5)
    const byEvent = Object.fromEntries(bodies.map((b) => [b.event, b]))
    expect(bodies.map((b) => b.event).sort()).toEqual([
      "comment.delete",
      "comment.update",
      "comment_annotation.assign",
      "comment_annotation.priority_change",
      "comment_annotation.status_change"
    ])
    expect(byEvent["comment_annotation.status_change"]).toMatchObject({
      source: "comment_annotation",
      actionType: "status_change",
      data: { oldStatus: { id: "OPEN" }, newStatus: resolved, actionUser: { userId: "carol" }, commentAnnotation: { annotationId: "ev", status: resolved } }
    })
    expect(byEvent["comment_annotation.assign"].data.commentAnnotation.assignedTo).toEqual({ userId: "dave" })
    expect(byEvent["comment_annotation.priority_change"].data.newPriority).toEqual({ id: "P1", name: "High" })
    expect(byEvent["comment.update"]).toMatchObject({ source: "comment", actionType: "update", data: { targetComment: { commentId: 2, commentText: "edited", status: "updated" }, actionUser: { userId: "bob" } } })
    expect(byEvent["comment.delete"].data.targetComment).toMatchObject({ commentId: 1, commentText: "hi" })
    expect(byEvent["comment.delete"].data.commentAnnotation.comments.map((c: any) => c.commentId)).toEqual([2])
  })

  it("emits comment.reaction_add and comment.reaction_delete with the comment's reactions and the reaction", async () => {
    const { call, creds, deliveredSince } = await subscribed()
    await call("/v2/commentannotations/add", { organizationId: "org", documentId: "doc1", commentAnnotations: [{ annotationId: "ev", commentData: [{ commentId: 1, from: { userId: "alice" } }] }] })
    await deliveredSince(receiver.received.length, 1)
    const before = receiver.received.length
    const reaction = { organizationId: "org", documentId: "doc1", annotationId: "ev", commentId: 1, reaction: { reactionId: "HEART_FACE" }, from: { userId: "bob" } }
    await call("/v2/commentannotations/comments/reactions/add", reaction)
    // A refused add (the same reaction again) emits nothing.
    await ctx().client.post("/v2/commentannotations/comments/reactions/add", reaction, creds.headers)
    await call("/v2/commentannotations/comments/reactions/delete", reaction)
    const bodies = await deliveredSince(before, 2)
    expect(bodies.map((b) => b.event).sort()).toEqual(["comment.reaction_add", "comment.reaction_delete"])
    const added = bodies.find((b) => b.event === "comment.reaction_add")
    expect(added).toMatchObject({
      source: "comment",
      actionType: "reaction_add",
      data: {
        actionUser: { userId: "bob" },
        reaction: { reactionId: "HEART_FACE" },
        targetComment: { commentId: 1, reactionAnnotations: [{ icon: "HEART_FACE", fromUsers: [{ from: { userId: "bob" } }] }] }
      }
    })
    expect(bodies.find((b) => b.event === "comment.reaction_delete").data.targetComment.reactionAnnotations).toEqual([])
  })
}
