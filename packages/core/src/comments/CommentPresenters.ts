import type * as Arr from "effect/Array"
import type { Comment, CommentAnnotation, ReactionAnnotation } from "./CommentSchemas.js"
import type { AnnotationRow, CommentRow, ReactionRow } from "./CommentsRepo.js"

/**
 * Stored rows as reads (and events) show them: the hosted service's published record shapes
 * (docs/compatibility.md, "Comments"). Pure functions of what was read: no storage, no rules.
 */

/** The id of a comment's reactions with one emoji: the facts' reads name each such group. */
export const reactionAnnotationId = (r: Pick<ReactionRow, "annotationId" | "commentId" | "reactionId">) =>
  `${r.annotationId}:${r.commentId}:${r.reactionId}`

/** Rows grouped by a key, in their order; every group has at least one row. */
export const groupBy = <A, K>(rows: ReadonlyArray<A>, key: (row: A) => K): Map<K, Arr.NonEmptyArray<A>> => {
  const groups = new Map<K, Arr.NonEmptyArray<A>>()
  for (const row of rows) {
    const group = groups.get(key(row))
    if (group === undefined) groups.set(key(row), [row])
    else group.push(row)
  }
  return groups
}

/** A comment's reactions as the facts' REST reads show them: one reaction annotation per emoji, with `fromUsers`. */
const reactionAnnotations = (reactions: ReadonlyArray<ReactionRow>): Array<ReactionAnnotation> =>
  Array.from(groupBy(reactions, (r) => r.reactionId).values(), (group) => {
    const [first] = group
    const custom = first.record.customReaction
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
    ...row.record,
    createdAt: row.createdAt,
    lastUpdated: new Date(row.lastUpdated).toISOString(),
    reactionAnnotationIds: grouped.map((g) => g.annotationId),
    reactionAnnotations: grouped
  }
}

/** A thread as reads answer it, with its comments (in their order) and their reactions. */
export const toAnnotation = (row: AnnotationRow, comments: ReadonlyArray<CommentRow>, reactions: ReadonlyArray<ReactionRow> = []): CommentAnnotation => {
  const byComment = groupBy(reactions, (r) => r.commentId)
  return {
    ...row.record,
    annotationId: row.id,
    annotationNumber: row.annotationNumber,
    sourceType: "rest-api",
    createdAt: row.createdAt,
    lastUpdated: row.lastUpdated,
    metadata: { apiKey: row.apiKey, organizationId: row.organizationId, documentId: row.documentId },
    comments: comments.map((comment) => toComment(comment, byComment.get(comment.id)))
  }
}
