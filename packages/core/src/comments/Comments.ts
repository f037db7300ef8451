import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Random from "effect/Random"
import { ActivitiesRepo } from "../activities/ActivitiesRepo.js"
import { DocumentsRepo, newDocument } from "../documents/DocumentsRepo.js"
import { Events, type NewEvent } from "../events/Events.js"
import { channelsOf } from "../events/Channels.js"
import { OrganizationsRepo } from "../organizations/OrganizationsRepo.js"
import { alreadyExists, type ApiError, invalidArgument, notFound } from "../protocol/ApiError.js"
import { success, successPage } from "../protocol/Envelope.js"
import { PageTokens } from "../protocol/PageTokens.js"
import { Ids } from "../ports/Ids.js"
import { Transactions } from "../ports/Transactions.js"
import {
  type AddAnnotationsInput,
  type AddCommentsInput,
  type AnnotationInput,
  type Comment,
  type CountAnnotationsInput,
  type CommentAnnotation,
  type CommentInput,
  type DeleteAnnotationsInput,
  type DeleteCommentsInput,
  type GetAnnotationsInput,
  type GetCommentsInput,
  type MarkReadInput,
  OPEN_STATUS,
  type ReactionInput,
  type UpdateAnnotationsInput,
  type UpdateCommentsInput
} from "./CommentSchemas.js"
import { type AnnotationCursor, type AnnotationFilters, type AnnotationRow, type CommentRow, CommentsRepo, type ReactionRow } from "./CommentsRepo.js"

const DEFAULT_PAGE_SIZE = 1000

/** Threads one commentannotations/update changes at most: one transaction should stay short. */
const MAX_UPDATED = 1000

/** Server-made comment ids look like the hosted service's: six digits, unused in the thread. */
const COMMENT_ID_MIN = 100_000
const COMMENT_ID_SPAN = 900_000

/** The id of a comment's reactions with one emoji: the facts' reads name each such group. */
export const reactionAnnotationId = (r: Pick<ReactionRow, "annotationId" | "commentId" | "reactionId">) =>
  `${r.annotationId}:${r.commentId}:${r.reactionId}`

/** Rows grouped by a key, in their order. */
const groupBy = <A>(rows: ReadonlyArray<A>, key: (row: A) => string | number): Map<string | number, Array<A>> => {
  const groups = new Map<string | number, Array<A>>()
  for (const row of rows) {
    const group = groups.get(key(row))
    if (group === undefined) groups.set(key(row), [row])
    else group.push(row)
  }
  return groups
}

/** A comment's reactions as the facts' REST reads show them: one reaction annotation per emoji, with `fromUsers`. */
const reactionAnnotations = (reactions: ReadonlyArray<ReactionRow>) =>
  [...groupBy(reactions, (r) => r.reactionId).values()].map((group) => {
    const first = group[0]!
    const custom = first.record.customReaction as { url?: string; svg?: string; emoji?: string } | undefined
    return {
      annotationId: reactionAnnotationId(first),
      type: "reaction",
      icon: first.reactionId,
      ...(custom?.url !== undefined && { iconUrl: custom.url }),
      ...(custom?.emoji !== undefined && { iconEmoji: custom.emoji }),
      ...(custom?.svg !== undefined && { iconSvg: custom.svg }),
      commentAnnotationId: first.annotationId,
      fromUsers: group.map((r) => ({ from: r.record.from, lastUpdated: r.createdAt })),
      lastUpdated: Math.max(...group.map((r) => r.createdAt))
    }
  })

/** A comment as reads answer it (the facts: `createdAt` in ms, `lastUpdated` ISO 8601), with its reactions. */
export const toComment = (row: CommentRow, reactions: ReadonlyArray<ReactionRow> = []): Comment => {
  const grouped = reactionAnnotations(reactions)
  return {
    commentId: row.id,
    type: "text",
    status: "added",
    taggedUserContacts: [],
    attachments: [],
    ...(row.record as Omit<Comment, "commentId" | "createdAt" | "lastUpdated" | "reactionAnnotationIds" | "reactionAnnotations">),
    from: row.record.from as Comment["from"],
    createdAt: row.createdAt,
    lastUpdated: new Date(row.lastUpdated).toISOString(),
    reactionAnnotationIds: grouped.map((g) => g.annotationId),
    reactionAnnotations: grouped
  }
}

/** A thread as reads answer it, with its comments and their reactions. */
export const toAnnotation = (row: AnnotationRow, comments: ReadonlyArray<CommentRow>, reactions: ReadonlyArray<ReactionRow> = []): CommentAnnotation => ({
  // Written by addAnnotations: type, commentType, from, status and visibilityConfig are always there.
  ...(row.record as unknown as Pick<CommentAnnotation, "type" | "from" | "status" | "visibilityConfig">),
  annotationId: row.id,
  annotationNumber: row.annotationNumber,
  sourceType: "rest-api",
  createdAt: row.createdAt,
  lastUpdated: row.lastUpdated,
  metadata: { apiKey: row.apiKey, organizationId: row.organizationId, documentId: row.documentId },
  comments: comments.map((comment) => toComment(comment, reactions.filter((r) => r.commentId === comment.id)))
})

/** A comment's stored fields: what the caller sent, less what has a column or asks for a side effect. */
const commentRecord = (input: typeof CommentInput.Type): Record<string, unknown> => {
  const { commentId: _id, createdAt: _c, lastUpdated: _l, triggerActivities: _a, triggerNotification: _n, ...kept } = input
  return { taggedUserContacts: [], attachments: [], ...kept, status: "added" }
}

/** One entry of a batch that cannot be written, and why. */
interface Refusal {
  readonly key: string
  readonly message: string
  readonly exists: boolean
}

/**
 * The refusal of a whole batch (docs/decisions.md, "Comments"): nothing is written, `details`
 * says, per entry, why it failed or that it was not written because another one failed.
 */
const refuseBatch = (what: string, keys: ReadonlyArray<string>, refusals: ReadonlyArray<Refusal>): ApiError<"ALREADY_EXISTS" | "INVALID_ARGUMENT"> => {
  const details: Record<string, { success: false; message: string }> = {}
  for (const key of keys) details[key] = { success: false, message: `Not added: another entry of this request failed.` }
  for (const refusal of refusals) details[refusal.key] = { success: false, message: refusal.message }
  const message = `${refusals.length} of ${keys.length} ${what} could not be added; nothing was written.`
  return refusals.some((r) => r.exists) ? alreadyExists(message, details) : invalidArgument(message, details)
}

/** Comment threads and their comments, with their events. */
export class Comments extends Effect.Service<Comments>()("@atrium/core/Comments", {
  accessors: true,
  effect: Effect.gen(function*() {
    const repo = yield* CommentsRepo
    const organizations = yield* OrganizationsRepo
    const documents = yield* DocumentsRepo
    const events = yield* Events
    const activities = yield* ActivitiesRepo
    const ids = yield* Ids
    const pageTokens = yield* PageTokens
    const { lock, withTransaction } = yield* Transactions

    /**
     * Every write to a document's threads takes the document's lock first, in its transaction:
     * on PostgreSQL two merges into one thread, two numberings or two id checks would otherwise
     * run side by side and one change would be lost (SQLite runs one write at a time).
     */
    const lockDocument = (apiKey: string, organizationId: string, documentId: string) =>
      lock("comments", apiKey, organizationId, documentId)

    /** The organization and document, created first when the caller asks for it. */
    const ensureContainers = (apiKey: string, input: { organizationId: string; documentId: string; createOrganization?: boolean; createDocument?: boolean }, now: number) =>
      Effect.gen(function*() {
        if (input.createOrganization === true) yield* organizations.ensure(apiKey, input.organizationId, now)
        if (input.createDocument === true && (yield* documents.find(apiKey, input.organizationId, input.documentId)) === undefined) {
          yield* documents.insert(newDocument({ apiKey, organizationId: input.organizationId, id: input.documentId, internalId: yield* ids.make(), now }))
        }
      })

    /** Ids for the comments that bring none: six digits, unused in the thread and in this batch. */
    const assignCommentIds = (inputs: ReadonlyArray<{ readonly commentId?: number }>, taken: Set<number>) =>
      Effect.forEach(inputs, (input) =>
        Effect.gen(function*() {
          if (input.commentId !== undefined) return input.commentId
          let id: number
          do id = COMMENT_ID_MIN + Math.floor((yield* Random.next) * COMMENT_ID_SPAN)
          while (taken.has(id))
          taken.add(id)
          return id
        }))

    /**
     * Ids for comments added to an existing thread: the given ones, and for the others picks that
     * neither the batch nor the thread has (asked of storage by id, all picked again on the rare
     * clash), so a long thread is never read whole.
     */
    const freeCommentIds = (apiKey: string, organizationId: string, annotationId: string, inputs: ReadonlyArray<{ readonly commentId?: number }>) =>
      Effect.gen(function*() {
        const taken = new Set(inputs.flatMap((c) => c.commentId ?? []))
        for (;;) {
          const ids = yield* assignCommentIds(inputs, new Set(taken))
          const clashes = yield* repo.existingCommentIds(apiKey, organizationId, annotationId, ids.filter((id) => !taken.has(id)))
          if (clashes.length === 0) return ids
          for (const id of clashes) taken.add(id)
        }
      })

    /** Rows for `inputs`, the i-th taking `commentIds[i]` and the place `firstSeq + i` in its thread. */
    const commentRows = (
      apiKey: string,
      organizationId: string,
      annotationId: string,
      inputs: ReadonlyArray<typeof CommentInput.Type>,
      commentIds: ReadonlyArray<number>,
      firstSeq: number,
      now: number
    ) =>
      inputs.map((input, i): CommentRow => {
        const createdAt = input.createdAt ?? now
        return {
          apiKey,
          organizationId,
          annotationId,
          id: commentIds[i]!,
          createdBy: input.from.userId,
          createdAt,
          lastUpdated: input.lastUpdated ?? createdAt,
          seq: firstSeq + i,
          record: commentRecord(input)
        }
      })

    /** An event about a thread (and the comment it happened to), as the facts' advanced payload carries it. */
    const commentEvent = (type: string, annotation: CommentAnnotation, targetComment: Comment | undefined, actionUser: unknown): NewEvent => ({
      type,
      channels: channelsOf(annotation.metadata.organizationId, annotation.metadata.documentId),
      data: {
        commentAnnotation: annotation,
        ...(targetComment !== undefined && { targetComment }),
        actionUser,
        metadata: annotation.metadata
      }
    })

    /** The document's thread, or NOT_FOUND (another document's or another key's thread included). */
    const threadIn = (apiKey: string, organizationId: string, documentId: string, annotationId: string) =>
      Effect.flatMap(repo.findAnnotation(apiKey, organizationId, annotationId), (row) =>
        row === undefined || row.documentId !== documentId
          ? Effect.fail(notFound(`Annotation ${annotationId} not found in document ${documentId}.`))
          : Effect.succeed(row))

    /** Threads as reads answer them, with their comments and the comments' reactions, as stored now. */
    const present = (apiKey: string, organizationId: string, rows: ReadonlyArray<AnnotationRow>) =>
      Effect.gen(function*() {
        if (rows.length === 0) return []
        const ids = rows.map((row) => row.id)
        const comments = groupBy(yield* repo.listComments(apiKey, organizationId, ids), (c) => c.annotationId)
        const reactions = groupBy(yield* repo.listReactions(apiKey, organizationId, ids), (r) => r.annotationId)
        return rows.map((row) => toAnnotation(row, comments.get(row.id) ?? [], reactions.get(row.id) ?? []))
      })

    /** comment.reaction_add/_delete: the thread and comment after the change, and which reaction (`reaction`, beyond the facts). */
    const reactionEvent = (type: string, annotation: AnnotationRow, input: typeof ReactionInput.Type) =>
      events.emit(annotation.apiKey, Effect.map(present(annotation.apiKey, annotation.organizationId, [annotation]), ([after]) => {
        const event = commentEvent(type, after!, after!.comments.find((c) => c.commentId === input.commentId), input.from)
        return [{ ...event, data: { ...event.data, reaction: input.reaction } }]
      }))

    /**
     * The activity record of a comment sent with `triggerActivities: true` (featureType `comment`,
     * actionType the event's type), written beside it; the change's event is already in the outbox.
     */
    const recordActivity = (annotation: CommentAnnotation, comment: Comment, actionType: string) =>
      Effect.gen(function*() {
        const { email, name, userId } = comment.from as { userId: string; name?: string; email?: string }
        const actionUser = { userId, ...(name !== undefined && { name }), ...(email !== undefined && { email }) }
        yield* activities.put({
          id: yield* ids.make(),
          featureType: "comment",
          actionType,
          actionUser,
          targetEntityId: annotation.annotationId,
          targetSubEntityId: String(comment.commentId),
          entityData: comment,
          displayMessageTemplate: actionType === "comment_annotation.add" ? "{{user.name}} started a comment thread" : "{{user.name}} commented",
          displayMessageTemplateData: { user: { userId, name: name ?? userId }, ...(comment.commentText !== undefined && { commentText: comment.commentText }) },
          metadata: { apiKey: annotation.metadata.apiKey, documentId: annotation.metadata.documentId, organizationId: annotation.metadata.organizationId },
          timestamp: comment.createdAt
        })
      })

    /** A user reference rewritten by updateUsers, when it names the old user. */
    const rewriteUser = (user: unknown, moves: ReadonlyArray<{ readonly oldUser: { readonly userId: string }; readonly newUser: object }>) => {
      const userId = (user as { userId?: unknown } | undefined)?.userId
      const move = moves.find((m) => m.oldUser.userId === userId)
      return move === undefined ? user : move.newUser
    }

    /** Duplicate comment ids within one list of comments. */
    const duplicateCommentIds = (inputs: ReadonlyArray<{ readonly commentId?: number }>, taken: ReadonlySet<number>) => {
      const seen = new Set<number>()
      const out: Array<{ readonly id: number; readonly exists: boolean }> = []
      for (const { commentId } of inputs) {
        if (commentId === undefined) continue
        if (taken.has(commentId)) out.push({ id: commentId, exists: true })
        else if (seen.has(commentId)) out.push({ id: commentId, exists: false })
        seen.add(commentId)
      }
      return out
    }

    return {
      /** commentannotations/add: every thread with its comments, or (any entry failing) none. */
      addAnnotations: (apiKey: string, input: typeof AddAnnotationsInput.Type) =>
        Effect.gen(function*() {
          const { documentId, organizationId } = input
          const now = yield* Clock.currentTimeMillis
          const entries: Array<{ readonly entry: typeof AnnotationInput.Type; readonly id: string; readonly key: string }> = []
          for (const [index, entry] of input.commentAnnotations.entries()) {
            // Unnamed entries are keyed by their place in the request, as the facts key denied ones.
            entries.push({ entry, id: entry.annotationId ?? (yield* ids.make(undefined, 20)), key: entry.annotationId ?? `__index:${index}` })
          }
          const added = yield* withTransaction(Effect.gen(function*() {
            yield* lockDocument(apiKey, organizationId, documentId)
            // Checked in the transaction: a thread added meanwhile under the same id is found here
            // (or, added to another document, makes the insert lose the race and this run again).
            const existing = new Set(yield* repo.existingAnnotations(apiKey, organizationId, entries.map((e) => e.id)))
            const refusals: Array<Refusal> = []
            const seen = new Set<string>()
            for (const { entry, id, key } of entries) {
              if (existing.has(id)) refusals.push({ key, exists: true, message: `Annotation ${id} already exists.` })
              else if (seen.has(id)) refusals.push({ key, exists: false, message: `Annotation ${id} appears more than once in this request.` })
              const duplicates = duplicateCommentIds(entry.commentData, new Set())
              if (duplicates.length > 0) {
                refusals.push({ key, exists: false, message: `Comment ${duplicates[0]!.id} appears more than once in annotation ${id}.` })
              }
              seen.add(id)
            }
            if (refusals.length > 0) return yield* refuseBatch("comment annotations", entries.map((e) => e.key), refusals)
            yield* ensureContainers(apiKey, input, now)
            const out: Array<{ readonly annotation: CommentAnnotation }> = []
            for (const { entry, id } of entries) {
              const commentIds = yield* assignCommentIds(entry.commentData, new Set(entry.commentData.flatMap((c) => c.commentId ?? [])))
              const first = entry.commentData[0]!
              const createdAt = entry.createdAt ?? first.createdAt ?? now
              const status = entry.status ?? OPEN_STATUS
              const row: AnnotationRow = {
                apiKey,
                organizationId,
                documentId,
                id,
                annotationNumber: yield* repo.nextAnnotationNumber(apiKey, organizationId, documentId),
                locationId: entry.location === undefined ? null : String(entry.location.id),
                statusId: status.id,
                createdBy: first.from.userId,
                resolvedBy: null,
                createdAt,
                lastUpdated: entry.lastUpdated ?? createdAt,
                record: {
                  type: entry.type ?? "comment",
                  commentType: entry.commentType ?? "manual",
                  from: first.from,
                  status,
                  visibilityConfig: entry.visibility ?? { type: "public" },
                  ...(entry.location !== undefined && { location: entry.location, locationId: String(entry.location.id) }),
                  ...(entry.targetElement !== undefined && { targetElement: entry.targetElement }),
                  ...(entry.assignedTo !== undefined && { assignedTo: entry.assignedTo }),
                  ...(entry.priority !== undefined && { priority: entry.priority }),
                  ...(entry.context !== undefined && { context: entry.context }),
                  ...(entry.type === "suggestion" && { suggestion: { ...entry.suggestion, status: "pending" } })
                }
              }
              // A comment without its own time takes the thread's, so an imported thread's comments keep its date.
              const comments = commentRows(apiKey, organizationId, id, entry.commentData, commentIds, 0, entry.createdAt ?? now)
              yield* repo.insertAnnotation(row)
              yield* repo.insertComments(comments)
              const annotation = toAnnotation(row, comments)
              for (const [i, input] of entry.commentData.entries()) {
                if (input.triggerActivities === true) {
                  yield* recordActivity(annotation, annotation.comments[i]!, i === 0 ? "comment_annotation.add" : "comment.add")
                }
              }
              out.push({ annotation })
            }
            yield* events.emit(apiKey, out.map(({ annotation }) =>
              commentEvent("comment_annotation.add", annotation, annotation.comments[0], annotation.comments[0]?.from)))
            return out
          }))
          const data: Record<string, { success: boolean; annotationId: string; commentIds: Array<number>; message: string }> = {}
          for (const { annotation } of added) {
            data[annotation.annotationId] = {
              success: true,
              annotationId: annotation.annotationId,
              commentIds: annotation.comments.map((c) => c.commentId),
              message: "Added Successfully"
            }
          }
          return success("Comment Annotation(s) added successfully.", data)
        }),

      /** commentannotations/get: filters combine; keyset pages over (lastUpdated, annotationId). */
      getAnnotations: (apiKey: string, input: typeof GetAnnotationsInput.Type) =>
        Effect.gen(function*() {
          const order = input.order ?? "desc"
          const documentIds = [...new Set([...(input.documentIds ?? []), ...(input.documentId !== undefined ? [input.documentId] : [])])].sort()
          const filters: AnnotationFilters = {
            ...(documentIds.length > 0 && { documentIds }),
            ...(input.annotationIds && { ids: [...new Set(input.annotationIds)].sort() }),
            ...(input.locationIds && { locationIds: [...new Set(input.locationIds)].sort() }),
            ...(input.userIds && { createdBy: [...new Set(input.userIds)].sort() }),
            ...(input.statusIds && { statusIds: [...new Set(input.statusIds)].sort() }),
            ...(input.resolvedBy !== undefined && { resolvedBy: input.resolvedBy }),
            ...(input.updatedAfter !== undefined && { updatedAfter: input.updatedAfter }),
            ...(input.updatedBefore !== undefined && { updatedBefore: input.updatedBefore }),
            ...(input.createdAfter !== undefined && { createdAfter: input.createdAfter }),
            ...(input.createdBefore !== undefined && { createdBefore: input.createdBefore })
          }
          const page = yield* pageTokens.page({
            scope: { apiKey, operation: "commentannotations.get", filters: { organizationId: input.organizationId, order, ...filters } },
            token: input.pageToken,
            limit: input.pageSize ?? DEFAULT_PAGE_SIZE,
            read: (after: AnnotationCursor | undefined, limit) =>
              repo.pageAnnotations(apiKey, input.organizationId, filters, { order, limit, ...(after && { after }) }),
            cursorOf: (row): AnnotationCursor => ({ lastUpdated: row.lastUpdated, id: row.id }),
            present: (page) => page
          })
          const annotations = yield* present(apiKey, input.organizationId, page.items)
          if (input.groupByDocumentId === true) {
            const grouped: Record<string, Array<CommentAnnotation>> = {}
            for (const annotation of annotations) (grouped[annotation.metadata.documentId] ??= []).push(annotation)
            return successPage("Annotations fetched successfully.", grouped, page.next, "nextPageToken")
          }
          // A requested id the organization does not have answers null, once, on the last page (the facts).
          const missing = input.annotationIds === undefined || page.next !== undefined ? [] : yield* Effect.map(
            repo.existingAnnotations(apiKey, input.organizationId, input.annotationIds),
            (found) => [...new Set(input.annotationIds)].filter((id) => !found.includes(id))
          )
          return successPage("Annotation(s) fetched successfully.", [...annotations, ...missing.map(() => null)], page.next, "nextPageToken")
        }),

      /** commentannotations/delete: the document's threads that match (all of them without selectors), with their comments. */
      deleteAnnotations: (apiKey: string, input: typeof DeleteAnnotationsInput.Type) =>
        Effect.gen(function*() {
          const filters: AnnotationFilters = {
            ...(input.annotationIds && { ids: input.annotationIds }),
            ...(input.locationIds && { locationIds: input.locationIds }),
            ...(input.userIds && { createdBy: input.userIds })
          }
          const deleted = yield* withTransaction(Effect.zipRight(
            lockDocument(apiKey, input.organizationId, input.documentId),
            repo.deleteAnnotations(apiKey, input.organizationId, input.documentId, filters)
          ))
          const data: Record<string, { success: boolean; id: string; message: string }> = {}
          for (const id of input.annotationIds ?? []) data[id] = { success: false, id, message: "Annotation not found." }
          for (const id of deleted) data[id] = { success: true, id, message: "Deleted Successfully" }
          return success("Annotations deleted successfully.", data)
        }),

      /** comments/add: every comment, or (any failing) none; the thread's lastUpdated moves. */
      addComments: (apiKey: string, input: typeof AddCommentsInput.Type) =>
        Effect.gen(function*() {
          const { annotationId, documentId, organizationId } = input
          const now = yield* Clock.currentTimeMillis
          return yield* withTransaction(Effect.gen(function*() {
            yield* lockDocument(apiKey, organizationId, documentId)
            yield* ensureContainers(apiKey, input, now)
            const annotation = yield* threadIn(apiKey, organizationId, documentId, annotationId)
            const given = input.commentData.flatMap((c) => c.commentId ?? [])
            const duplicates = duplicateCommentIds(input.commentData, new Set(yield* repo.existingCommentIds(apiKey, organizationId, annotationId, given)))
            if (duplicates.length > 0) {
              return yield* refuseBatch(
                "comments",
                input.commentData.map((c, i) => c.commentId !== undefined ? String(c.commentId) : `__index:${i}`),
                duplicates.map(({ exists, id }) => ({
                  key: String(id),
                  exists,
                  message: exists ? `Comment ${id} already exists in annotation ${annotationId}.` : `Comment ${id} appears more than once in this request.`
                }))
              )
            }
            const commentIds = yield* freeCommentIds(apiKey, organizationId, annotationId, input.commentData)
            // After the thread's comments even within the same millisecond.
            const nextSeq = yield* repo.nextCommentSeq(apiKey, organizationId, annotationId)
            const rows = commentRows(apiKey, organizationId, annotationId, input.commentData, commentIds, nextSeq, now)
            yield* repo.insertComments(rows)
            const lastUpdated = Math.max(annotation.lastUpdated, ...rows.map((r) => r.lastUpdated))
            yield* repo.touchAnnotation(apiKey, organizationId, annotationId, lastUpdated)
            yield* events.emit(apiKey, Effect.map(present(apiKey, organizationId, [{ ...annotation, lastUpdated }]), ([after]) =>
              rows.map((row) => commentEvent("comment.add", after!, toComment(row), row.record.from))))
            return success("Comment(s) added successfully.", commentIds)
          }))
        }),

      /**
       * commentannotations/update: each selected thread of the document (all without selectors) gets
       * `updatedData`'s fields, each on its own; a status that is not terminal clears who resolved
       * it. Events: status_change, assign and priority_change for what changed.
       */
      updateAnnotations: (apiKey: string, input: typeof UpdateAnnotationsInput.Type) =>
        Effect.gen(function*() {
          const { documentId, organizationId } = input
          const changes = input.updatedData ?? {}
          const moves = input.updateUsers ?? []
          const now = yield* Clock.currentTimeMillis
          const filters: AnnotationFilters = {
            documentIds: [documentId],
            ...(input.annotationIds && { ids: input.annotationIds }),
            ...(input.locationIds && { locationIds: input.locationIds }),
            ...(input.userIds && { createdBy: input.userIds })
          }
          return yield* withTransaction(Effect.gen(function*() {
            yield* lockDocument(apiKey, organizationId, documentId)
            const rows = yield* repo.pageAnnotations(apiKey, organizationId, filters, { order: "asc", limit: MAX_UPDATED + 1 })
            if (rows.length > MAX_UPDATED) {
              return yield* invalidArgument(`The selectors match more than ${MAX_UPDATED} annotations; select fewer (annotationIds, locationIds, userIds).`)
            }
            const data: Record<string, { success: boolean; id: string; message: string }> = {}
            for (const id of input.annotationIds ?? []) data[id] = { success: false, id, message: "Annotation not found." }
            // Built only if the key records events (Events.emit): each re-reads its thread.
            const emitted: Array<Effect.Effect<ReadonlyArray<NewEvent>>> = []
            for (const row of rows) {
              const before = row.record as Record<string, unknown>
              const { createdAt, lastUpdated, location, resolvedByUserId, status, visibility, ...plain } = changes
              const record: Record<string, unknown> = { ...before, ...plain }
              if (location !== undefined) Object.assign(record, { location, locationId: String(location.id) })
              if (visibility !== undefined) record.visibilityConfig = visibility
              if (status !== undefined) record.status = status
              if (resolvedByUserId !== undefined) record.resolvedByUserId = resolvedByUserId
              // Only a terminal status has someone who resolved it (the facts), whatever was sent.
              if ((record.status as { type?: string }).type !== "terminal") {
                delete record.resolvedByUserId
                delete record.resolvedByUser
              }
              if (record.resolvedByUserId === null) delete record.resolvedByUserId
              if (record.statusUpdatedByUserId === null) delete record.statusUpdatedByUserId
              if (moves.length > 0) {
                record.from = rewriteUser(record.from, moves)
                if (record.assignedTo !== undefined) record.assignedTo = rewriteUser(record.assignedTo, moves)
              }
              const updated: AnnotationRow = {
                ...row,
                record,
                statusId: (record.status as { id: string }).id,
                locationId: location !== undefined ? String(location.id) : row.locationId,
                createdBy: (record.from as { userId: string }).userId,
                resolvedBy: (record.resolvedByUserId as string | undefined) ?? null,
                createdAt: createdAt ?? row.createdAt,
                lastUpdated: lastUpdated ?? now
              }
              yield* repo.updateAnnotation(updated)
              if (moves.length > 0) {
                for (const c of yield* repo.listComments(apiKey, organizationId, [row.id])) {
                  const from = rewriteUser(c.record.from, moves) as { userId: string }
                  if (from !== c.record.from) yield* repo.updateComment({ ...c, createdBy: from.userId, record: { ...c.record, from } })
                }
              }
              data[row.id] = { success: true, id: row.id, message: "Annotations updated successfully" }
              const actionUser = record.statusUpdatedByUserId !== undefined ? { userId: record.statusUpdatedByUserId } : undefined
              emitted.push(Effect.map(present(apiKey, organizationId, [updated]), ([after]) => {
                const out: Array<NewEvent> = []
                if (status !== undefined && status.id !== (before.status as { id?: string }).id) {
                  const event = commentEvent("comment_annotation.status_change", after!, undefined, actionUser)
                  out.push({ ...event, data: { ...event.data, oldStatus: before.status, newStatus: status } })
                }
                if (changes.assignedTo !== undefined && changes.assignedTo.userId !== (before.assignedTo as { userId?: string } | undefined)?.userId) {
                  out.push(commentEvent("comment_annotation.assign", after!, undefined, actionUser))
                }
                if (changes.priority !== undefined && changes.priority.id !== (before.priority as { id?: string } | undefined)?.id) {
                  const event = commentEvent("comment_annotation.priority_change", after!, undefined, actionUser)
                  out.push({ ...event, data: { ...event.data, newPriority: changes.priority } })
                }
                return out
              }))
            }
            yield* events.emit(apiKey, Effect.map(Effect.all(emitted), (groups) => groups.flat()))
            return success("Annotations updated successfully.", data)
          }))
        }),

      /** comments/update: the same changes to each listed comment of the thread; an unknown id fails only its entry. */
      updateComments: (apiKey: string, input: typeof UpdateCommentsInput.Type) =>
        Effect.gen(function*() {
          const { annotationId, documentId, organizationId } = input
          const now = yield* Clock.currentTimeMillis
          return yield* withTransaction(Effect.gen(function*() {
            yield* lockDocument(apiKey, organizationId, documentId)
            const annotation = yield* threadIn(apiKey, organizationId, documentId, annotationId)
            const { createdAt, lastUpdated, ...fields } = input.updatedData
            const existing = yield* repo.listComments(apiKey, organizationId, [annotationId])
            const data: Record<string, { success: boolean; id: number; message: string }> = {}
            const updated: Array<CommentRow> = []
            for (const id of input.commentIds) {
              const row = existing.find((c) => c.id === id)
              if (row === undefined) {
                data[String(id)] = { success: false, id, message: "Not found" }
                continue
              }
              const next: CommentRow = {
                ...row,
                record: { ...row.record, ...fields, status: "updated" },
                createdBy: fields.from?.userId ?? row.createdBy,
                createdAt: createdAt ?? row.createdAt,
                lastUpdated: lastUpdated ?? now
              }
              yield* repo.updateComment(next)
              updated.push(next)
              data[String(id)] = { success: true, id, message: "Updated successfully" }
            }
            if (updated.length > 0) {
              const threadUpdated = Math.max(annotation.lastUpdated, ...updated.map((c) => c.lastUpdated))
              yield* repo.touchAnnotation(apiKey, organizationId, annotationId, threadUpdated)
              yield* events.emit(apiKey, Effect.map(present(apiKey, organizationId, [{ ...annotation, lastUpdated: threadUpdated }]), ([after]) =>
                updated.map((c) => commentEvent("comment.update", after!, after!.comments.find((comment) => comment.commentId === c.id), c.record.from))))
            }
            return success("Comment updated successfully.", data)
          }))
        }),

      /** comments/delete: the listed comments of the thread, or all of them; an unknown id fails only its entry. */
      deleteComments: (apiKey: string, input: typeof DeleteCommentsInput.Type) =>
        Effect.gen(function*() {
          const { annotationId, documentId, organizationId } = input
          return yield* withTransaction(Effect.gen(function*() {
            yield* lockDocument(apiKey, organizationId, documentId)
            const annotation = yield* threadIn(apiKey, organizationId, documentId, annotationId)
            const deleted = yield* repo.deleteComments(apiKey, organizationId, annotationId, input.commentIds)
            const data: Record<string, { success: boolean; id: number; message: string }> = {}
            for (const id of input.commentIds ?? []) data[String(id)] = { success: false, id, message: "Not found" }
            for (const row of deleted) data[String(row.id)] = { success: true, id: row.id, message: "Deleted successfully" }
            if (deleted.length > 0) {
              yield* events.emit(apiKey, Effect.map(present(apiKey, organizationId, [annotation]), ([after]) =>
                deleted.map((c) => commentEvent("comment.delete", after!, toComment(c), c.record.from))))
            }
            return success("Comments(s) deleted successfully.", data)
          }))
        }),

      /** reactions/add: `from` reacts to the comment with the emoji; once per user and emoji. */
      addReaction: (apiKey: string, input: typeof ReactionInput.Type) =>
        Effect.gen(function*() {
          const { annotationId, commentId, organizationId, reaction } = input
          const now = yield* Clock.currentTimeMillis
          return yield* withTransaction(Effect.gen(function*() {
            yield* lockDocument(apiKey, organizationId, input.documentId)
            const annotation = yield* threadIn(apiKey, organizationId, input.documentId, annotationId)
            if ((yield* repo.existingCommentIds(apiKey, organizationId, annotationId, [commentId])).length === 0) {
              return yield* notFound(`Comment ${commentId} not found in annotation ${annotationId}.`)
            }
            const row: ReactionRow = {
              apiKey,
              organizationId,
              annotationId,
              commentId,
              reactionId: reaction.reactionId,
              userId: input.from.userId,
              createdAt: now,
              record: { from: input.from, ...(reaction.customReaction !== undefined && { customReaction: reaction.customReaction }) }
            }
            if (!(yield* repo.insertReaction(row))) {
              return yield* alreadyExists(`User ${row.userId} already reacted with ${row.reactionId} to comment ${commentId}.`)
            }
            yield* reactionEvent("comment.reaction_add", annotation, input)
            return success("Reaction added successfully.", { reactionAnnotationId: reactionAnnotationId(row) })
          }))
        }),

      /** reactions/delete: `from` no longer reacts to the comment with the emoji. */
      deleteReaction: (apiKey: string, input: typeof ReactionInput.Type) =>
        Effect.gen(function*() {
          const { annotationId, commentId, organizationId, reaction } = input
          return yield* withTransaction(Effect.gen(function*() {
            yield* lockDocument(apiKey, organizationId, input.documentId)
            const annotation = yield* threadIn(apiKey, organizationId, input.documentId, annotationId)
            const key = { apiKey, organizationId, annotationId, commentId, reactionId: reaction.reactionId, userId: input.from.userId }
            if (!(yield* repo.deleteReaction(key))) {
              return yield* notFound(`User ${key.userId} has no ${key.reactionId} reaction on comment ${commentId} of annotation ${annotationId}.`)
            }
            yield* reactionEvent("comment.reaction_delete", annotation, input)
            return success("Reaction deleted successfully.", { reactionAnnotationId: reactionAnnotationId(key) })
          }))
        }),

      /** commentannotations/read: `userId` has read these threads as they are now; a later change makes one unread again. */
      markRead: (apiKey: string, input: typeof MarkReadInput.Type) =>
        Effect.gen(function*() {
          const { organizationId, userId } = input
          return yield* withTransaction(Effect.gen(function*() {
            const filters: AnnotationFilters = { documentIds: [input.documentId], ids: input.annotationIds }
            const rows = yield* repo.pageAnnotations(apiKey, organizationId, filters, { order: "asc", limit: input.annotationIds.length })
            const data: Record<string, { success: boolean; id: string; message: string }> = {}
            for (const id of input.annotationIds) data[id] = { success: false, id, message: "Annotation not found." }
            for (const row of rows) {
              yield* repo.markRead(apiKey, organizationId, row.id, userId, row.lastUpdated)
              data[row.id] = { success: true, id: row.id, message: "Marked as read" }
            }
            return success("Annotation(s) marked as read successfully.", data)
          }))
        }),

      /** commentannotations/count/get: per document asked for, its threads and those `userId` has not read. */
      countAnnotations: (apiKey: string, input: typeof CountAnnotationsInput.Type) =>
        Effect.gen(function*() {
          const counts = yield* repo.countAnnotations(apiKey, input.organizationId, input.documentIds, input.userId, input.statusIds)
          const data: Record<string, { total: number; unread: number }> = {}
          for (const documentId of input.documentIds) {
            const count = counts.find((c) => c.documentId === documentId)
            data[documentId] = { total: count?.total ?? 0, unread: count?.unread ?? 0 }
          }
          return success("Comment count retrieved successfully.", data)
        }),

      /** comments/get: a thread's comments, oldest first, or those asked for in the order asked (null: no such comment). */
      getComments: (apiKey: string, input: typeof GetCommentsInput.Type) =>
        Effect.gen(function*() {
          const annotation = yield* threadIn(apiKey, input.organizationId, input.documentId, input.annotationId)
          const [thread] = yield* present(apiKey, input.organizationId, [annotation])
          const rows = thread!.comments.filter((c) => input.userIds === undefined || input.userIds.includes((c.from as { userId: string }).userId))
          const comments = input.commentIds === undefined
            ? rows
            : input.commentIds.map((id) => rows.find((c) => c.commentId === id) ?? null)
          return success("Comments retrieved successfully.", comments)
        })
    }
  })
}) {}
