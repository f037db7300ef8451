import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { AnnotationRecord, CommentRecord, ReactionRecord } from "./CommentSchemas.js"

/** A comment thread as stored: its indexed fields, and the rest of its record as `record`. */
export interface AnnotationRow {
  readonly apiKey: string
  readonly organizationId: string
  readonly documentId: string
  readonly id: string
  /** 1, 2, 3, … per document, in order of creation. */
  readonly annotationNumber: number
  /** The caller's `location.id`, as text; null without a location. */
  readonly locationId: string | null
  readonly statusId: string
  /** `from.userId` of the thread's first comment. */
  readonly createdBy: string
  readonly resolvedBy: string | null
  readonly createdAt: number
  readonly lastUpdated: number
  /** The thread's other fields (type, from, status, priority, assignedTo, location, context, …), decoded as read. */
  readonly record: AnnotationRecord
}

/** A comment as stored. */
export interface CommentRow {
  readonly apiKey: string
  readonly organizationId: string
  readonly annotationId: string
  readonly id: number
  readonly createdBy: string
  readonly createdAt: number
  readonly lastUpdated: number
  /** Its place in the thread's order of insertion: comments with the same createdAt read in this order. */
  readonly seq: number
  /** The comment's other fields (commentText, commentHtml, from, taggedUserContacts, attachments, context, …), decoded as read. */
  readonly record: CommentRecord
}

/** One user's reaction (an emoji, by id) to a comment. */
export interface ReactionRow {
  readonly apiKey: string
  readonly organizationId: string
  readonly annotationId: string
  readonly commentId: number
  /** The emoji's id, e.g. `HEART_FACE`; reads group a comment's reactions by it. */
  readonly reactionId: string
  readonly userId: string
  readonly createdAt: number
  /** `from` (the user as sent) and `customReaction`, when given. */
  readonly record: ReactionRecord
}

/** Threads and unread threads of one document, for one user. */
export interface DocumentCount {
  readonly documentId: string
  readonly total: number
  readonly unread: number
}

/** Filters of commentannotations/get (and the selectors of delete); every one given must match. */
export interface AnnotationFilters {
  readonly documentIds?: ReadonlyArray<string>
  readonly ids?: ReadonlyArray<string>
  readonly locationIds?: ReadonlyArray<string>
  readonly createdBy?: ReadonlyArray<string>
  /** Threads a comment of which mentions one of these users (`taggedUserContacts[].userId`). */
  readonly mentioned?: ReadonlyArray<string>
  readonly statusIds?: ReadonlyArray<string>
  readonly resolvedBy?: string
  readonly updatedAfter?: number
  readonly updatedBefore?: number
  readonly createdAfter?: number
  readonly createdBefore?: number
  /** Only threads whose visibility is not public (organizationPrivate, restricted): those some users may not see. */
  readonly privateOnly?: boolean
}

/** Position of the last thread of a page: threads are ordered by (lastUpdated, id). */
export interface AnnotationCursor {
  readonly lastUpdated: number
  readonly id: string
}

/** Storage port: comment threads and their comments, per API key and organization. */
export class CommentsRepo extends Context.Tag("@atrium/core/CommentsRepo")<CommentsRepo, {
  /** The number the next thread of the document gets; call it in the transaction that inserts the thread, holding the document's lock (Comments.lockDocument). */
  readonly nextAnnotationNumber: (apiKey: string, organizationId: string, documentId: string) => Effect.Effect<number>
  /** Which of these thread ids the organization already has. */
  readonly existingAnnotations: (apiKey: string, organizationId: string, ids: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<string>>
  readonly insertAnnotation: (row: AnnotationRow) => Effect.Effect<void>
  readonly findAnnotation: (apiKey: string, organizationId: string, id: string) => Effect.Effect<AnnotationRow | undefined>
  /** Moves the thread's lastUpdated (a comment was added). */
  readonly touchAnnotation: (apiKey: string, organizationId: string, id: string, lastUpdated: number) => Effect.Effect<void>
  /** Keyset page ordered by (lastUpdated, id) in `order`, strictly after `after`. */
  readonly pageAnnotations: (
    apiKey: string,
    organizationId: string,
    filters: AnnotationFilters,
    options: { readonly order: "asc" | "desc"; readonly after?: AnnotationCursor; readonly limit: number }
  ) => Effect.Effect<ReadonlyArray<AnnotationRow>>
  /** Deletes the document's threads that match, with their comments; the ids deleted. */
  readonly deleteAnnotations: (
    apiKey: string,
    organizationId: string,
    documentId: string,
    filters: AnnotationFilters
  ) => Effect.Effect<ReadonlyArray<string>>
  /** Writes every field of an existing thread but its keys, document and number. */
  readonly updateAnnotation: (row: AnnotationRow) => Effect.Effect<void>
  readonly insertComments: (rows: ReadonlyArray<CommentRow>) => Effect.Effect<void>
  /** Writes the author, times and record of an existing comment. */
  readonly updateComment: (row: CommentRow) => Effect.Effect<void>
  /** Deletes the thread's comments with these ids (all of them when none are given) and their reactions; the rows deleted. */
  readonly deleteComments: (
    apiKey: string,
    organizationId: string,
    annotationId: string,
    ids: ReadonlyArray<number> | undefined
  ) => Effect.Effect<ReadonlyArray<CommentRow>>
  /** The reactions to the comments of these threads, oldest first. */
  readonly listReactions: (apiKey: string, organizationId: string, annotationIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<ReactionRow>>
  /** Adds the reaction unless the user already has it on the comment; whether it was added. */
  readonly insertReaction: (row: ReactionRow) => Effect.Effect<boolean>
  /** Removes one user's reaction; whether there was one. */
  readonly deleteReaction: (key: Omit<ReactionRow, "createdAt" | "record">) => Effect.Effect<boolean>
  /** The user read the thread as it was at `readAt`. */
  readonly markRead: (apiKey: string, organizationId: string, annotationId: string, userId: string, readAt: number) => Effect.Effect<void>
  /** When the user last read each of these threads (the thread's lastUpdated then); a thread never read is absent. */
  readonly readAtOf: (apiKey: string, organizationId: string, userId: string, annotationIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyMap<string, number>>
  /** Per document (those with matching threads only): the threads that match, and those the user has not read since they last changed. */
  readonly countAnnotations: (
    apiKey: string,
    organizationId: string,
    userId: string,
    filters: AnnotationFilters
  ) => Effect.Effect<ReadonlyArray<DocumentCount>>
  /** Which of `ids` the thread already has (read by id: a long thread is not read whole). */
  readonly existingCommentIds: (apiKey: string, organizationId: string, annotationId: string, ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<number>>
  /** The `seq` the thread's next comment takes. */
  readonly nextCommentSeq: (apiKey: string, organizationId: string, annotationId: string) => Effect.Effect<number>
  /** The comments of these threads, oldest first within each. */
  readonly listComments: (apiKey: string, organizationId: string, annotationIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<CommentRow>>
}>() {}
