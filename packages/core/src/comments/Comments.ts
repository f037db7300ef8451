import * as Arr from "effect/Array"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Random from "effect/Random"
import { ActivitiesRepo } from "../activities/ActivitiesRepo.js"
import { DocumentsRepo, newDocument } from "../documents/DocumentsRepo.js"
import { Events, type NewEvent } from "../events/Events.js"
import { OrganizationsRepo } from "../organizations/OrganizationsRepo.js"
import { alreadyExists, type ApiError, invalidArgument, notFound } from "../protocol/ApiError.js"
import { type Page, PageTokens } from "../protocol/PageTokens.js"
import { Ids } from "../ports/Ids.js"
import { Transactions } from "../ports/Transactions.js"
import { commentsAdded, commentsDeleted, commentsUpdated, reactionChanged, threadAdded, threadUpdated } from "./CommentEvents.js"
import { groupBy, reactionAnnotationId, toAnnotation, toComment } from "./CommentPresenters.js"
import type { CommentScope } from "./CommentScope.js"
import {
  type AddAnnotationsInput,
  type AddCommentsInput,
  type AnnotationChanges,
  type AnnotationInput,
  type AnnotationRecord,
  type Comment,
  type CommentAnnotation,
  type CommentInput,
  type CommentRecord,
  type CountAnnotationsInput,
  type DeleteAnnotationsInput,
  type DeleteCommentsInput,
  type GetAnnotationsInput,
  type GetCommentsInput,
  type MarkReadInput,
  OPEN_STATUS,
  type ReactionInput,
  type UpdateAnnotationsInput,
  type UpdateCommentsInput,
  type UserRecord
} from "./CommentSchemas.js"
import { recordsCommentActivity } from "../workspace/ActivityServiceConfig.js"
import { SettingsRepo } from "../workspace/SettingsRepo.js"
import { type AnnotationCursor, type AnnotationFilters, type AnnotationRow, type CommentRow, CommentsRepo, type DocumentCount, type ReactionRow } from "./CommentsRepo.js"

const DEFAULT_PAGE_SIZE = 1000

/** Threads one commentannotations/update changes at most: one transaction should stay short. */
const MAX_UPDATED = 1000

/** Rows a scoped call reads at a time, and ids one statement names at most. */
const CHUNK = 1000

/** `items` in runs of `size`. */
const chunksOf = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size))

/** Server-made comment ids look like the hosted service's: six digits, unused in the thread. */
const COMMENT_ID_MIN = 100_000
const COMMENT_ID_SPAN = 900_000

/** A comment's stored fields: what the caller sent, less what has a column or asks for a side effect. */
const commentRecord = (input: typeof CommentInput.Type): CommentRecord => {
  const { commentId: _id, createdAt: _c, lastUpdated: _l, triggerActivities: _a, triggerNotification: _n, ...kept } = input
  return { taggedUserContacts: [], attachments: [], ...kept, status: "added" }
}

/** A user moved by commentannotations/update's `updateUsers`. */
type UserMove = NonNullable<(typeof UpdateAnnotationsInput.Type)["updateUsers"]>[number]

/** A user reference rewritten by updateUsers, when it names the old user (the same object otherwise). */
const rewriteUser = (user: UserRecord, moves: ReadonlyArray<UserMove>): UserRecord =>
  moves.find((m) => m.oldUser.userId === user.userId)?.newUser ?? user

/**
 * A thread's record after commentannotations/update (docs/decisions.md, "Comments"): each field
 * sent replaces the stored one; `null` clears the two user ids; a status that is not terminal
 * clears who resolved it, whatever was sent; `moves` rewrite the author and the assignee.
 */
const changedRecord = (before: AnnotationRecord, changes: typeof AnnotationChanges.Type, moves: ReadonlyArray<UserMove>): AnnotationRecord => {
  const { createdAt: _c, lastUpdated: _l, location, resolvedByUserId, status, statusUpdatedByUserId, visibility, ...plain } = changes
  const { resolvedByUserId: resolvedBefore, statusUpdatedByUserId: updatedByBefore, ...kept } = before
  const next: AnnotationRecord = {
    ...kept,
    ...plain,
    ...(location !== undefined && { location, locationId: String(location.id) }),
    ...(visibility !== undefined && { visibilityConfig: visibility }),
    ...(status !== undefined && { status })
  }
  const updatedBy = statusUpdatedByUserId === undefined ? updatedByBefore : statusUpdatedByUserId ?? undefined
  // Only a terminal status has someone who resolved it (the facts).
  const resolvedBy = next.status.type !== "terminal" ? undefined : resolvedByUserId === undefined ? resolvedBefore : resolvedByUserId ?? undefined
  return {
    ...next,
    ...(updatedBy !== undefined && { statusUpdatedByUserId: updatedBy }),
    ...(resolvedBy !== undefined && { resolvedByUserId: resolvedBy }),
    ...(moves.length > 0 && { from: rewriteUser(next.from, moves) }),
    ...(moves.length > 0 && next.assignedTo !== undefined && { assignedTo: rewriteUser(next.assignedTo, moves) })
  }
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

/**
 * Comment threads, their comments and reactions, with their events. Methods answer domain
 * values (threads, comments, the ids changed); the operation rows (operations.ts) make them answers.
 */
export class Comments extends Effect.Service<Comments>()("@atrium/core/Comments", {
  accessors: true,
  effect: Effect.gen(function*() {
    const repo = yield* CommentsRepo
    const organizations = yield* OrganizationsRepo
    const documents = yield* DocumentsRepo
    const events = yield* Events
    const activities = yield* ActivitiesRepo
    const settings = yield* SettingsRepo
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
      Arr.zip(inputs, commentIds).map(([input, id], i): CommentRow => {
        const createdAt = input.createdAt ?? now
        return {
          apiKey,
          organizationId,
          annotationId,
          id,
          createdBy: input.from.userId,
          createdAt,
          lastUpdated: input.lastUpdated ?? createdAt,
          seq: firstSeq + i,
          record: commentRecord(input)
        }
      })

    /**
     * The document's thread, or NOT_FOUND (another document's or another key's thread included,
     * and one the scope leaves out: to a user who may not see it, it does not exist).
     */
    const threadIn = <E = never>(apiKey: string, organizationId: string, documentId: string, annotationId: string, scope?: CommentScope<E>) =>
      Effect.flatMap(repo.findAnnotation(apiKey, organizationId, annotationId), (row): Effect.Effect<AnnotationRow, ApiError<"NOT_FOUND"> | E> => {
        const absent = Effect.fail(notFound(`Annotation ${annotationId} not found in document ${documentId}.`))
        if (row === undefined || row.documentId !== documentId) return absent
        if (scope === undefined) return Effect.succeed(row)
        return Effect.flatMap(scope.threads([row]), (kept) => kept.length === 0 ? absent : Effect.succeed(row))
      })

    /** Every thread that matches, read in runs of CHUNK (a scope judges rows, so it needs them all). */
    const allThreads = (apiKey: string, organizationId: string, filters: AnnotationFilters) =>
      Effect.gen(function*() {
        const rows: Array<AnnotationRow> = []
        let after: AnnotationCursor | undefined
        for (;;) {
          const run = yield* repo.pageAnnotations(apiKey, organizationId, filters, { order: "asc", limit: CHUNK, ...(after && { after }) })
          rows.push(...run)
          if (run.length < CHUNK) return rows
          const last = run[run.length - 1]!
          after = { lastUpdated: last.lastUpdated, id: last.id }
        }
      })

    /**
     * `limit` threads the scope keeps, from `after` on: rows are read `limit` at a time and a run
     * the viewer may see none of is passed over, so a page is short only at the end.
     */
    const keptThreads = <E>(
      scope: CommentScope<E>,
      read: (after: AnnotationCursor | undefined, limit: number) => Effect.Effect<ReadonlyArray<AnnotationRow>>,
      after: AnnotationCursor | undefined,
      limit: number
    ) =>
      Effect.gen(function*() {
        const kept: Array<AnnotationRow> = []
        let cursor = after
        for (;;) {
          const run = yield* read(cursor, limit)
          kept.push(...(yield* scope.threads(run)))
          if (run.length < limit || kept.length >= limit) return kept.slice(0, limit)
          const last = run[run.length - 1]!
          cursor = { lastUpdated: last.lastUpdated, id: last.id }
        }
      })

    /** Threads as reads answer them, with their comments and the comments' reactions, as stored now. */
    const present = (apiKey: string, organizationId: string, rows: ReadonlyArray<AnnotationRow>) =>
      Effect.gen(function*() {
        if (rows.length === 0) return []
        const ids = rows.map((row) => row.id)
        const comments = groupBy(yield* repo.listComments(apiKey, organizationId, ids), (c) => c.annotationId)
        const reactions = groupBy(yield* repo.listReactions(apiKey, organizationId, ids), (r) => r.annotationId)
        return rows.map((row) => toAnnotation(row, comments.get(row.id) ?? [], reactions.get(row.id) ?? []))
      })

    /** One thread as reads answer it, as stored now (the payload of its events). */
    const presentThread = (row: AnnotationRow) =>
      Effect.zipWith(
        repo.listComments(row.apiKey, row.organizationId, [row.id]),
        repo.listReactions(row.apiKey, row.organizationId, [row.id]),
        (comments, reactions) => toAnnotation(row, comments, reactions)
      )

    /** Emits the events of a change to `thread`, built (the thread re-read) only when someone listens. */
    const emitAbout = (thread: AnnotationRow, build: (after: CommentAnnotation) => ReadonlyArray<NewEvent>, notifying = false) =>
      events.emit(thread.apiKey, Effect.map(presentThread(thread), build), notifying)

    /**
     * The activity record of a comment sent with `triggerActivities: true` (featureType `comment`,
     * actionType the event's type), written beside it; the change's event is already in the outbox.
     */
    const recordActivity = (annotation: CommentAnnotation, comment: Comment, actionType: string) =>
      Effect.gen(function*() {
        // The workspace's activity log may be off, or this action's trigger (activityconfig).
        if (!(yield* recordsCommentActivity(settings, annotation.metadata.apiKey, actionType))) return
        const { email, name, userId } = comment.from
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

    /** Every method; those that take a scope act on every thread without one (the server API). */
    const methods = {
      /** commentannotations/add: every thread with its comments, or (any entry failing) none; the threads added. */
      addAnnotations: (apiKey: string, input: typeof AddAnnotationsInput.Type): Effect.Effect<ReadonlyArray<CommentAnnotation>, ApiError<"ALREADY_EXISTS" | "INVALID_ARGUMENT">> =>
        Effect.gen(function*() {
          const { documentId, organizationId } = input
          const now = yield* Clock.currentTimeMillis
          const entries: Array<{ readonly entry: typeof AnnotationInput.Type; readonly id: string; readonly key: string }> = []
          for (const [index, entry] of input.commentAnnotations.entries()) {
            // Unnamed entries are keyed by their place in the request, as the facts key denied ones.
            entries.push({ entry, id: entry.annotationId ?? (yield* ids.make(undefined, 20)), key: entry.annotationId ?? `__index:${index}` })
          }
          return yield* withTransaction(Effect.gen(function*() {
            yield* lockDocument(apiKey, organizationId, documentId)
            // Checked in the transaction: a thread added meanwhile under the same id is found here
            // (or, added to another document, makes the insert lose the race and this run again).
            const existing = new Set(yield* repo.existingAnnotations(apiKey, organizationId, entries.map((e) => e.id)))
            const refusals: Array<Refusal> = []
            const seen = new Set<string>()
            for (const { entry, id, key } of entries) {
              if (existing.has(id)) refusals.push({ key, exists: true, message: `Annotation ${id} already exists.` })
              else if (seen.has(id)) refusals.push({ key, exists: false, message: `Annotation ${id} appears more than once in this request.` })
              const [duplicate] = duplicateCommentIds(entry.commentData, new Set())
              if (duplicate !== undefined) {
                refusals.push({ key, exists: false, message: `Comment ${duplicate.id} appears more than once in annotation ${id}.` })
              }
              seen.add(id)
            }
            if (refusals.length > 0) return yield* refuseBatch("comment annotations", entries.map((e) => e.key), refusals)
            yield* ensureContainers(apiKey, input, now)
            const added: Array<CommentAnnotation> = []
            // Threads a comment of which asks for notifications (`triggerNotification`; the client API's always do).
            const notifying = new Set<string>()
            for (const { entry, id } of entries) {
              const commentIds = yield* assignCommentIds(entry.commentData, new Set(entry.commentData.flatMap((c) => c.commentId ?? [])))
              const [first] = entry.commentData
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
              for (const [i, comment] of annotation.comments.entries()) {
                if (entry.commentData[i]?.triggerActivities === true) {
                  yield* recordActivity(annotation, comment, i === 0 ? "comment_annotation.add" : "comment.add")
                }
              }
              added.push(annotation)
              if (entry.commentData.some((comment) => comment.triggerNotification === true)) notifying.add(id)
            }
            yield* events.emit(apiKey, added.map((annotation) => threadAdded(annotation, notifying.has(annotation.annotationId))), notifying.size > 0)
            return added
          }))
        }),

      /**
       * commentannotations/get: filters combine; keyset pages over (lastUpdated, annotationId). On
       * the last page, a requested id the organization does not have is a `null`, once (the facts),
       * unless the threads are grouped by document.
       */
      getAnnotations: <E = never>(
        apiKey: string,
        input: typeof GetAnnotationsInput.Type,
        scope?: CommentScope<E>
      ): Effect.Effect<Page<CommentAnnotation | null>, ApiError<"INVALID_ARGUMENT"> | E> =>
        Effect.gen(function*() {
          const order = input.order ?? "desc"
          const documentIds = [...new Set([...(input.documentIds ?? []), ...(input.documentId !== undefined ? [input.documentId] : [])])].sort()
          const filters: AnnotationFilters = {
            ...(documentIds.length > 0 && { documentIds }),
            ...(input.annotationIds && { ids: [...new Set(input.annotationIds)].sort() }),
            ...(input.locationIds && { locationIds: [...new Set(input.locationIds)].sort() }),
            ...(input.userIds && { createdBy: [...new Set(input.userIds)].sort() }),
            ...(input.mentionedUserIds && { mentioned: [...new Set(input.mentionedUserIds)].sort() }),
            ...(input.statusIds && { statusIds: [...new Set(input.statusIds)].sort() }),
            ...(input.resolvedBy !== undefined && { resolvedBy: input.resolvedBy }),
            ...(input.updatedAfter !== undefined && { updatedAfter: input.updatedAfter }),
            ...(input.updatedBefore !== undefined && { updatedBefore: input.updatedBefore }),
            ...(input.createdAfter !== undefined && { createdAfter: input.createdAfter }),
            ...(input.createdBefore !== undefined && { createdBefore: input.createdBefore })
          }
          const read = (after: AnnotationCursor | undefined, limit: number) =>
            repo.pageAnnotations(apiKey, input.organizationId, filters, { order, limit, ...(after && { after }) })
          const page = yield* pageTokens.page({
            scope: {
              apiKey,
              operation: "commentannotations.get",
              filters: { organizationId: input.organizationId, order, ...filters, ...(scope && { viewer: scope.viewer }) }
            },
            token: input.pageToken,
            limit: input.pageSize ?? DEFAULT_PAGE_SIZE,
            read: (after: AnnotationCursor | undefined, limit) => scope === undefined ? read(after, limit) : keptThreads(scope, read, after, limit),
            cursorOf: (row): AnnotationCursor => ({ lastUpdated: row.lastUpdated, id: row.id }),
            present: (page) => page
          })
          const annotations = yield* present(apiKey, input.organizationId, page.items)
          const asked = input.annotationIds
          // What the scope leaves out is, to its viewer, a thread the organization does not have.
          const found = asked === undefined ? Effect.succeed([]) : scope === undefined
            ? repo.existingAnnotations(apiKey, input.organizationId, asked)
            : Effect.map(
              Effect.flatMap(repo.pageAnnotations(apiKey, input.organizationId, { ids: asked }, { order: "asc", limit: asked.length }), scope.threads),
              (rows) => rows.map((row) => row.id)
            )
          const missing = asked === undefined || page.next !== undefined || input.groupByDocumentId === true ? [] : yield* Effect.map(
            found,
            (found) => [...new Set(asked)].filter((id) => !found.includes(id))
          )
          return { items: [...annotations, ...missing.map(() => null)], next: page.next }
        }),

      /**
       * commentannotations/delete: the document's threads that match (all of them without
       * selectors), with their comments; with a scope, those it keeps. The ids deleted.
       */
      deleteAnnotations: <E = never>(apiKey: string, input: typeof DeleteAnnotationsInput.Type, scope?: CommentScope<E>): Effect.Effect<ReadonlyArray<string>, E> => {
        const { documentId, organizationId } = input
        const filters: AnnotationFilters = {
          ...(input.annotationIds && { ids: input.annotationIds }),
          ...(input.locationIds && { locationIds: input.locationIds }),
          ...(input.userIds && { createdBy: input.userIds })
        }
        const deleted = scope === undefined
          ? repo.deleteAnnotations(apiKey, organizationId, documentId, filters)
          : Effect.gen(function*() {
            const kept = yield* scope.threads(yield* allThreads(apiKey, organizationId, { ...filters, documentIds: [documentId] }))
            const ids = yield* Effect.forEach(chunksOf(kept.map((row) => row.id), CHUNK), (ids) => repo.deleteAnnotations(apiKey, organizationId, documentId, { ids }))
            return ids.flat()
          })
        return withTransaction(Effect.zipRight(lockDocument(apiKey, organizationId, documentId), deleted))
      },

      /** comments/add: every comment, or (any failing) none; the thread's lastUpdated moves. The comments added. */
      addComments: <E = never>(
        apiKey: string,
        input: typeof AddCommentsInput.Type,
        scope?: CommentScope<E>
      ): Effect.Effect<ReadonlyArray<Comment>, ApiError<"ALREADY_EXISTS" | "INVALID_ARGUMENT" | "NOT_FOUND"> | E> =>
        Effect.gen(function*() {
          const { annotationId, documentId, organizationId } = input
          const now = yield* Clock.currentTimeMillis
          return yield* withTransaction(Effect.gen(function*() {
            yield* lockDocument(apiKey, organizationId, documentId)
            yield* ensureContainers(apiKey, input, now)
            const annotation = yield* threadIn(apiKey, organizationId, documentId, annotationId, scope)
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
            // Through the client API (a scope) every comment notifies; through the server API, those with triggerNotification.
            const notifies = new Set(rows.filter((_, i) => scope !== undefined || input.commentData[i]?.triggerNotification === true).map((row) => row.id))
            yield* emitAbout({ ...annotation, lastUpdated }, (after) => commentsAdded(after, rows, (row) => notifies.has(row.id)), notifies.size > 0)
            return rows.map((row) => toComment(row))
          }))
        }),

      /**
       * commentannotations/update: each selected thread of the document (all without selectors) gets
       * `updatedData`'s fields, each on its own; a status that is not terminal clears who resolved
       * it. Events: status_change, assign and priority_change for what changed. The ids updated.
       */
      updateAnnotations: <E = never>(
        apiKey: string,
        input: typeof UpdateAnnotationsInput.Type,
        scope?: CommentScope<E>
      ): Effect.Effect<ReadonlyArray<string>, ApiError<"INVALID_ARGUMENT"> | E> =>
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
            const selected = yield* repo.pageAnnotations(apiKey, organizationId, filters, { order: "asc", limit: MAX_UPDATED + 1 })
            if (selected.length > MAX_UPDATED) {
              return yield* invalidArgument(`The selectors match more than ${MAX_UPDATED} annotations; select fewer (annotationIds, locationIds, userIds).`)
            }
            const rows = scope === undefined ? selected : yield* scope.threads(selected)
            // Built only if someone listens (Events.emit): each re-reads its thread.
            const emitted: Array<Effect.Effect<ReadonlyArray<NewEvent>>> = []
            for (const row of rows) {
              const record = changedRecord(row.record, changes, moves)
              const updated: AnnotationRow = {
                ...row,
                record,
                statusId: record.status.id,
                locationId: changes.location !== undefined ? String(changes.location.id) : row.locationId,
                createdBy: record.from.userId,
                resolvedBy: record.resolvedByUserId ?? null,
                createdAt: changes.createdAt ?? row.createdAt,
                lastUpdated: changes.lastUpdated ?? now
              }
              yield* repo.updateAnnotation(updated)
              if (moves.length > 0) {
                for (const c of yield* repo.listComments(apiKey, organizationId, [row.id])) {
                  const from = rewriteUser(c.record.from, moves)
                  if (from !== c.record.from) yield* repo.updateComment({ ...c, createdBy: from.userId, record: { ...c.record, from } })
                }
                // Reactions are references inside the thread too; one the new user already made with that emoji stays single.
                for (const r of yield* repo.listReactions(apiKey, organizationId, [row.id])) {
                  const from = rewriteUser(r.record.from, moves)
                  if (from === r.record.from) continue
                  yield* repo.deleteReaction({ apiKey: r.apiKey, organizationId: r.organizationId, annotationId: r.annotationId, commentId: r.commentId, reactionId: r.reactionId, userId: r.userId })
                  yield* repo.insertReaction({ ...r, userId: from.userId, record: { ...r.record, from } })
                }
              }
              // Through the client API (a scope) the change notifies; through the server API it does not (docs/notifications.md).
              emitted.push(Effect.map(presentThread(updated), (after) => threadUpdated(after, row.record, changes, scope !== undefined, scope?.viewer)))
            }
            yield* events.emit(apiKey, Effect.map(Effect.all(emitted), (groups) => groups.flat()), scope !== undefined)
            return rows.map((row) => row.id)
          }))
        }),

      /** comments/update: the same changes to each listed comment of the thread; the ids updated (the thread has no other). */
      updateComments: <E = never>(
        apiKey: string,
        input: typeof UpdateCommentsInput.Type,
        scope?: CommentScope<E>
      ): Effect.Effect<ReadonlyArray<number>, ApiError<"NOT_FOUND"> | E> =>
        Effect.gen(function*() {
          const { annotationId, documentId, organizationId } = input
          const now = yield* Clock.currentTimeMillis
          return yield* withTransaction(Effect.gen(function*() {
            yield* lockDocument(apiKey, organizationId, documentId)
            const annotation = yield* threadIn(apiKey, organizationId, documentId, annotationId, scope)
            const { createdAt, lastUpdated, ...fields } = input.updatedData
            const existing = new Map((yield* repo.listComments(apiKey, organizationId, [annotationId])).map((c) => [c.id, c]))
            const listed = [...new Set(input.commentIds)].flatMap((id) => existing.get(id) ?? [])
            const updated: Array<CommentRow> = []
            for (const row of scope === undefined ? listed : yield* scope.comments(listed)) {
              const next: CommentRow = {
                ...row,
                record: { ...row.record, ...fields, status: "updated" },
                createdBy: fields.from?.userId ?? row.createdBy,
                createdAt: createdAt ?? row.createdAt,
                lastUpdated: lastUpdated ?? now
              }
              yield* repo.updateComment(next)
              updated.push(next)
            }
            if (updated.length > 0) {
              const threadUpdated = Math.max(annotation.lastUpdated, ...updated.map((c) => c.lastUpdated))
              yield* repo.touchAnnotation(apiKey, organizationId, annotationId, threadUpdated)
              yield* emitAbout({ ...annotation, lastUpdated: threadUpdated }, (after) => commentsUpdated(after, updated))
            }
            return updated.map((c) => c.id)
          }))
        }),

      /** comments/delete: the listed comments of the thread, or all of them; the ids deleted. */
      deleteComments: <E = never>(
        apiKey: string,
        input: typeof DeleteCommentsInput.Type,
        scope?: CommentScope<E>
      ): Effect.Effect<ReadonlyArray<number>, ApiError<"NOT_FOUND"> | E> =>
        Effect.gen(function*() {
          const { annotationId, commentIds, documentId, organizationId } = input
          return yield* withTransaction(Effect.gen(function*() {
            yield* lockDocument(apiKey, organizationId, documentId)
            const annotation = yield* threadIn(apiKey, organizationId, documentId, annotationId, scope)
            // With a scope, the comments it keeps of those listed (all of the thread's without a list).
            const ids = scope === undefined ? commentIds : yield* Effect.map(
              Effect.flatMap(repo.listComments(apiKey, organizationId, [annotationId]), (rows) =>
                scope.comments(commentIds === undefined ? rows : rows.filter((row) => commentIds.includes(row.id)))),
              (kept) => kept.map((row) => row.id)
            )
            const deleted = yield* repo.deleteComments(apiKey, organizationId, annotationId, ids)
            if (deleted.length > 0) yield* emitAbout(annotation, (after) => commentsDeleted(after, deleted))
            return deleted.map((c) => c.id)
          }))
        }),

      /** reactions/add: `from` reacts to the comment with the emoji, once per user and emoji; the reaction annotation's id. */
      addReaction: <E = never>(apiKey: string, input: typeof ReactionInput.Type, scope?: CommentScope<E>): Effect.Effect<string, ApiError<"ALREADY_EXISTS" | "NOT_FOUND"> | E> =>
        Effect.gen(function*() {
          const { annotationId, commentId, organizationId, reaction } = input
          const now = yield* Clock.currentTimeMillis
          return yield* withTransaction(Effect.gen(function*() {
            yield* lockDocument(apiKey, organizationId, input.documentId)
            const annotation = yield* threadIn(apiKey, organizationId, input.documentId, annotationId, scope)
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
            yield* emitAbout(annotation, (after) => [reactionChanged("comment.reaction_add", after, input)])
            return reactionAnnotationId(row)
          }))
        }),

      /** reactions/delete: `from` no longer reacts to the comment with the emoji; the reaction annotation's id. */
      deleteReaction: <E = never>(apiKey: string, input: typeof ReactionInput.Type, scope?: CommentScope<E>): Effect.Effect<string, ApiError<"NOT_FOUND"> | E> =>
        Effect.gen(function*() {
          const { annotationId, commentId, organizationId, reaction } = input
          return yield* withTransaction(Effect.gen(function*() {
            yield* lockDocument(apiKey, organizationId, input.documentId)
            const annotation = yield* threadIn(apiKey, organizationId, input.documentId, annotationId, scope)
            const key = { apiKey, organizationId, annotationId, commentId, reactionId: reaction.reactionId, userId: input.from.userId }
            if (!(yield* repo.deleteReaction(key))) {
              return yield* notFound(`User ${key.userId} has no ${key.reactionId} reaction on comment ${commentId} of annotation ${annotationId}.`)
            }
            yield* emitAbout(annotation, (after) => [reactionChanged("comment.reaction_delete", after, input)])
            return reactionAnnotationId(key)
          }))
        }),

      /** commentannotations/read: `userId` has read these threads as they are now (a later change makes one unread again); the ids marked. */
      markRead: <E = never>(apiKey: string, input: typeof MarkReadInput.Type, scope?: CommentScope<E>): Effect.Effect<ReadonlyArray<string>, E> =>
        withTransaction(Effect.gen(function*() {
          const filters: AnnotationFilters = { documentIds: [input.documentId], ids: input.annotationIds }
          const selected = yield* repo.pageAnnotations(apiKey, input.organizationId, filters, { order: "asc", limit: input.annotationIds.length })
          const rows = scope === undefined ? selected : yield* scope.threads(selected)
          for (const row of rows) yield* repo.markRead(apiKey, input.organizationId, row.id, input.userId, row.lastUpdated)
          return rows.map((row) => row.id)
        })),

      /**
       * commentannotations/count/get: per document asked for, its threads and those `userId` has
       * not read; with a scope, less the private threads it leaves out (the public ones are counted
       * in storage; only private ones are read, to be judged).
       */
      countAnnotations: <E = never>(
        apiKey: string,
        input: typeof CountAnnotationsInput.Type,
        scope?: CommentScope<E>
      ): Effect.Effect<Record<string, { total: number; unread: number }>, E> =>
        Effect.gen(function*() {
          const filters: AnnotationFilters = { documentIds: input.documentIds, ...(input.statusIds && { statusIds: input.statusIds }) }
          const counts = yield* repo.countAnnotations(apiKey, input.organizationId, input.userId, filters)
          const unseen: Array<DocumentCount> = []
          if (scope !== undefined) {
            const candidates = yield* allThreads(apiKey, input.organizationId, { ...filters, privateOnly: true })
            const kept = new Set((yield* scope.threads(candidates)).map((row) => row.id))
            const hidden = candidates.filter((row) => !kept.has(row.id)).map((row) => row.id)
            for (const ids of chunksOf(hidden, CHUNK)) unseen.push(...yield* repo.countAnnotations(apiKey, input.organizationId, input.userId, { ...filters, ids }))
          }
          const byDocument: Record<string, { total: number; unread: number }> = {}
          for (const documentId of input.documentIds) {
            const sum = (rows: ReadonlyArray<DocumentCount>, key: "total" | "unread") =>
              rows.reduce((total, count) => total + (count.documentId === documentId ? count[key] : 0), 0)
            byDocument[documentId] = { total: sum(counts, "total") - sum(unseen, "total"), unread: sum(counts, "unread") - sum(unseen, "unread") }
          }
          return byDocument
        }),

      /** comments/get: a thread's comments, oldest first, or those asked for in the order asked (null: no such comment). */
      getComments: (apiKey: string, input: typeof GetCommentsInput.Type): Effect.Effect<ReadonlyArray<Comment | null>, ApiError<"NOT_FOUND">> =>
        Effect.gen(function*() {
          const annotation = yield* threadIn(apiKey, input.organizationId, input.documentId, input.annotationId)
          const thread = yield* presentThread(annotation)
          const rows = thread.comments.filter((c) => input.userIds === undefined || input.userIds.includes(c.from.userId))
          return input.commentIds === undefined
            ? rows
            : input.commentIds.map((id) => rows.find((c) => c.commentId === id) ?? null)
        })
    }

    /** The methods that act within a scope (a client API user's: ClientComments.ts), bound to it. */
    const within = <E>(scope: CommentScope<E>) => ({
      getAnnotations: (apiKey: string, input: typeof GetAnnotationsInput.Type) => methods.getAnnotations(apiKey, input, scope),
      countAnnotations: (apiKey: string, input: typeof CountAnnotationsInput.Type) => methods.countAnnotations(apiKey, input, scope),
      updateAnnotations: (apiKey: string, input: typeof UpdateAnnotationsInput.Type) => methods.updateAnnotations(apiKey, input, scope),
      deleteAnnotations: (apiKey: string, input: typeof DeleteAnnotationsInput.Type) => methods.deleteAnnotations(apiKey, input, scope),
      addComments: (apiKey: string, input: typeof AddCommentsInput.Type) => methods.addComments(apiKey, input, scope),
      updateComments: (apiKey: string, input: typeof UpdateCommentsInput.Type) => methods.updateComments(apiKey, input, scope),
      deleteComments: (apiKey: string, input: typeof DeleteCommentsInput.Type) => methods.deleteComments(apiKey, input, scope),
      addReaction: (apiKey: string, input: typeof ReactionInput.Type) => methods.addReaction(apiKey, input, scope),
      deleteReaction: (apiKey: string, input: typeof ReactionInput.Type) => methods.deleteReaction(apiKey, input, scope),
      markRead: (apiKey: string, input: typeof MarkReadInput.Type) => methods.markRead(apiKey, input, scope)
    })

    // Each method without its scope parameter: a generic method gets no accessor (`Comments.getAnnotations(...)`).
    return {
      addAnnotations: methods.addAnnotations,
      getAnnotations: (apiKey: string, input: typeof GetAnnotationsInput.Type) => methods.getAnnotations(apiKey, input),
      deleteAnnotations: (apiKey: string, input: typeof DeleteAnnotationsInput.Type) => methods.deleteAnnotations(apiKey, input),
      addComments: (apiKey: string, input: typeof AddCommentsInput.Type) => methods.addComments(apiKey, input),
      updateAnnotations: (apiKey: string, input: typeof UpdateAnnotationsInput.Type) => methods.updateAnnotations(apiKey, input),
      updateComments: (apiKey: string, input: typeof UpdateCommentsInput.Type) => methods.updateComments(apiKey, input),
      deleteComments: (apiKey: string, input: typeof DeleteCommentsInput.Type) => methods.deleteComments(apiKey, input),
      addReaction: (apiKey: string, input: typeof ReactionInput.Type) => methods.addReaction(apiKey, input),
      deleteReaction: (apiKey: string, input: typeof ReactionInput.Type) => methods.deleteReaction(apiKey, input),
      markRead: (apiKey: string, input: typeof MarkReadInput.Type) => methods.markRead(apiKey, input),
      countAnnotations: (apiKey: string, input: typeof CountAnnotationsInput.Type) => methods.countAnnotations(apiKey, input),
      getComments: methods.getComments,
      within
    }
  })
}) {}
