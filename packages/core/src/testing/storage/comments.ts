/** comments/: CommentsRepo (threads, their comments, reactions and read markers). */
import * as Effect from "effect/Effect"
import { type AnnotationRow, type CommentRow, CommentsRepo } from "../../comments/CommentsRepo.js"
import { type StorageCases, T0, unique } from "./fixtures.js"

const thread = (apiKey: string, id: string, fields: Partial<AnnotationRow> = {}): AnnotationRow => ({
  apiKey,
  organizationId: "org",
  documentId: "doc",
  id,
  annotationNumber: 1,
  locationId: null,
  statusId: "OPEN",
  createdBy: "u1",
  resolvedBy: null,
  createdAt: T0,
  lastUpdated: T0,
  record: {
    type: "comment",
    commentType: "manual",
    from: { userId: "u1", name: "Ann ü😀", department: "docs" },
    status: { id: "OPEN", name: "Open", type: "default" },
    visibilityConfig: { type: "public" },
    context: { nested: [1, "two", null] }
  },
  ...fields
})

const comment = (apiKey: string, annotationId: string, id: number, seq: number, fields: Partial<CommentRow> = {}): CommentRow => ({
  apiKey,
  organizationId: "org",
  annotationId,
  id,
  createdBy: "u1",
  createdAt: T0,
  lastUpdated: T0,
  seq,
  record: { commentText: `text ${id}`, commentHtml: `<p>${id}</p>`, from: { userId: "u1" }, taggedUserContacts: [], attachments: [], status: "added" },
  ...fields
})

export const cases: StorageCases = (it, expect) => {
  it.effect("CommentsRepo: a thread and its comments read back as written, are updated in place, and are numbered per document", () =>
    Effect.gen(function*() {
      const comments = yield* CommentsRepo
      const apiKey = unique("key")
      expect(yield* comments.nextAnnotationNumber(apiKey, "org", "doc")).toBe(1)
      const first = thread(apiKey, "t1")
      yield* comments.insertAnnotation(first)
      expect(yield* comments.nextAnnotationNumber(apiKey, "org", "doc")).toBe(2)
      expect(yield* comments.nextAnnotationNumber(apiKey, "org", "other-doc")).toBe(1)
      yield* comments.insertAnnotation(thread(apiKey, "t2", { annotationNumber: 2, locationId: "loc" }))
      expect(yield* comments.findAnnotation(apiKey, "org", "t1")).toEqual(first)
      expect([...(yield* comments.existingAnnotations(apiKey, "org", ["t2", "nope", "t1"]))].sort()).toEqual(["t1", "t2"])

      // Comments read in (createdAt, seq) order: the third, written earlier, comes first.
      expect(yield* comments.nextCommentSeq(apiKey, "org", "t1")).toBe(0)
      const written = [comment(apiKey, "t1", 1, 0), comment(apiKey, "t1", 2, 1), comment(apiKey, "t1", 3, 2, { createdAt: T0 - 1 })]
      yield* comments.insertComments(written)
      expect(yield* comments.listComments(apiKey, "org", ["t1"])).toEqual([written[2], written[0], written[1]])
      expect(yield* comments.nextCommentSeq(apiKey, "org", "t1")).toBe(3)
      expect(yield* comments.existingCommentIds(apiKey, "org", "t1", [2, 9])).toEqual([2])

      const edited: CommentRow = {
        ...written[0]!,
        createdBy: "u2",
        lastUpdated: T0 + 5,
        record: { commentText: "edited", from: { userId: "u2" }, taggedUserContacts: [], attachments: [], status: "updated" }
      }
      yield* comments.updateComment(edited)
      expect((yield* comments.listComments(apiKey, "org", ["t1"]))[1]).toEqual(edited)
      const resolved: AnnotationRow = {
        ...first,
        statusId: "RESOLVED",
        resolvedBy: "u2",
        lastUpdated: T0 + 5,
        record: { ...first.record, status: { id: "RESOLVED", name: "Resolved", type: "terminal" }, priority: { id: "HIGH", name: "High" }, resolvedByUserId: "u2" }
      }
      yield* comments.updateAnnotation(resolved)
      expect(yield* comments.findAnnotation(apiKey, "org", "t1")).toEqual(resolved)
      yield* comments.touchAnnotation(apiKey, "org", "t2", T0 + 9)
      expect((yield* comments.findAnnotation(apiKey, "org", "t2"))?.lastUpdated).toBe(T0 + 9)

      const page = (filters: Parameters<typeof comments.pageAnnotations>[2], order: "asc" | "desc", after?: { lastUpdated: number; id: string }) =>
        comments.pageAnnotations(apiKey, "org", filters, { order, limit: 10, ...(after && { after }) }).pipe(Effect.map((rows) => rows.map((a) => a.id)))
      expect(yield* page({}, "asc")).toEqual(["t1", "t2"])
      expect(yield* page({}, "desc")).toEqual(["t2", "t1"])
      expect(yield* page({}, "asc", { lastUpdated: T0 + 5, id: "t1" })).toEqual(["t2"])
      expect(yield* page({ statusIds: ["RESOLVED"] }, "asc")).toEqual(["t1"])
      expect(yield* page({ locationIds: ["loc"] }, "asc")).toEqual(["t2"])
      expect(yield* page({ resolvedBy: "u2", documentIds: ["doc"] }, "asc")).toEqual(["t1"])

      // Another API key with the same ids sees none of these rows, and writing its own changes none of them.
      const other = unique("key")
      expect(yield* comments.findAnnotation(other, "org", "t1")).toBeUndefined()
      expect(yield* comments.listComments(other, "org", ["t1"])).toEqual([])
      expect(yield* comments.nextAnnotationNumber(other, "org", "doc")).toBe(1)
      yield* comments.insertAnnotation(thread(other, "t1", { statusId: "OTHER" }))
      yield* comments.insertComments([comment(other, "t1", 1, 0, { record: { ...written[0]!.record, commentText: "other key" } })])
      expect(yield* comments.findAnnotation(apiKey, "org", "t1")).toEqual(resolved)
      expect((yield* comments.listComments(apiKey, "org", ["t1"])).map((c) => c.record.commentText)).toEqual(["text 3", "edited", "text 2"])
      expect(yield* comments.pageAnnotations(other, "org", {}, { order: "asc", limit: 10 })).toEqual([thread(other, "t1", { statusId: "OTHER" })])
    }))

  it.effect("CommentsRepo: one reaction per user, read markers count unread threads, deletes take what belongs to them", () =>
    Effect.gen(function*() {
      const comments = yield* CommentsRepo
      const apiKey = unique("key")
      yield* comments.insertAnnotation(thread(apiKey, "t1"))
      yield* comments.insertAnnotation(thread(apiKey, "t2", { annotationNumber: 2 }))
      yield* comments.insertComments([comment(apiKey, "t1", 1, 0), comment(apiKey, "t2", 1, 0)])

      const reaction = { apiKey, organizationId: "org", annotationId: "t1", commentId: 1, reactionId: "HEART", userId: "u1", createdAt: T0, record: { from: { userId: "u1" } } }
      expect(yield* comments.insertReaction(reaction)).toBe(true)
      expect(yield* comments.insertReaction({ ...reaction, createdAt: T0 + 1 })).toBe(false)
      expect(yield* comments.insertReaction({ ...reaction, userId: "u2", createdAt: T0 + 1, record: { from: { userId: "u2" }, customReaction: { emoji: "ü" } } })).toBe(true)
      expect(yield* comments.listReactions(apiKey, "org", ["t1", "t2"])).toEqual([
        reaction,
        { ...reaction, userId: "u2", createdAt: T0 + 1, record: { from: { userId: "u2" }, customReaction: { emoji: "ü" } } }
      ])
      expect(yield* comments.listReactions(unique("key"), "org", ["t1"])).toEqual([])
      const { createdAt: _, record: __, ...key } = reaction
      expect(yield* comments.deleteReaction({ ...key, userId: "u2" })).toBe(true)
      expect(yield* comments.deleteReaction({ ...key, userId: "u2" })).toBe(false)

      // Unread: never read by the user, or changed since they read it.
      const count = (statusIds?: ReadonlyArray<string>) =>
        comments.countAnnotations(apiKey, "org", "u1", { documentIds: ["doc", "empty"], ...(statusIds !== undefined && { statusIds }) })
      expect(yield* count()).toEqual([{ documentId: "doc", total: 2, unread: 2 }])
      yield* comments.markRead(apiKey, "org", "t1", "u1", T0)
      expect(yield* count()).toEqual([{ documentId: "doc", total: 2, unread: 1 }])
      yield* comments.touchAnnotation(apiKey, "org", "t1", T0 + 1)
      expect(yield* count()).toEqual([{ documentId: "doc", total: 2, unread: 2 }])
      yield* comments.markRead(apiKey, "org", "t1", "u1", T0 + 1)
      expect(yield* count()).toEqual([{ documentId: "doc", total: 2, unread: 1 }])
      expect(yield* count(["RESOLVED"])).toEqual([])

      // A comment's reactions go with it; a thread's comments go with it.
      expect(yield* comments.deleteComments(apiKey, "org", "t1", [])).toEqual([])
      expect(yield* comments.deleteComments(apiKey, "org", "t1", undefined)).toEqual([comment(apiKey, "t1", 1, 0)])
      expect(yield* comments.listReactions(apiKey, "org", ["t1"])).toEqual([])
      expect(yield* comments.deleteAnnotations(apiKey, "org", "doc", { ids: ["t2"] })).toEqual(["t2"])
      expect(yield* comments.listComments(apiKey, "org", ["t2"])).toEqual([])
      expect(yield* count()).toEqual([{ documentId: "doc", total: 1, unread: 0 }])
    }))

  it.effect("CommentsRepo: private threads are found by their visibility, and counts take any filters", () =>
    Effect.gen(function*() {
      const comments = yield* CommentsRepo
      const apiKey = unique("key")
      const visible = (id: string, visibilityConfig: AnnotationRow["record"]["visibilityConfig"], n: number) =>
        thread(apiKey, id, { annotationNumber: n, lastUpdated: T0 + n, record: { ...thread(apiKey, id).record, visibilityConfig } })
      yield* comments.insertAnnotation(visible("open", { type: "public" }, 1))
      yield* comments.insertAnnotation(visible("mine", { type: "restricted", userIds: ["u1"] }, 2))
      yield* comments.insertAnnotation(visible("ours", { organizationId: "org", type: "organizationPrivate" }, 3))
      // A key named like the visibility inside the thread's own context does not make it private.
      yield* comments.insertAnnotation(thread(apiKey, "decoy", { annotationNumber: 4, record: { ...thread(apiKey, "decoy").record, context: { visibilityConfig: { type: "restricted" } } } }))
      const found = yield* comments.pageAnnotations(apiKey, "org", { privateOnly: true }, { order: "asc", limit: 10 })
      expect(found.map((row) => row.id)).toEqual(["mine", "ours"])
      expect(yield* comments.countAnnotations(apiKey, "org", "u1", { documentIds: ["doc"], privateOnly: true })).toEqual([{ documentId: "doc", total: 2, unread: 2 }])
      expect(yield* comments.countAnnotations(apiKey, "org", "u1", { documentIds: ["doc"], ids: ["open", "ours", "gone"] })).toEqual([{ documentId: "doc", total: 2, unread: 2 }])
      expect(yield* comments.countAnnotations(apiKey, "org", "u1", { documentIds: ["doc"] })).toEqual([{ documentId: "doc", total: 4, unread: 4 }])
    }))
}
