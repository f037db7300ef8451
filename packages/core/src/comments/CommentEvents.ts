import { aboutOrganization } from "../events/Channels.js"
import type { NewEvent } from "../events/Events.js"
import { toComment } from "./CommentPresenters.js"
import type { AnnotationChanges, AnnotationRecord, Comment, CommentAnnotation, ReactionInput, UserRecord } from "./CommentSchemas.js"
import type { CommentRow } from "./CommentsRepo.js"

/**
 * What each change to comments emits (docs/webhooks.md, "What is emitted"): the thread after the
 * change (the facts' advanced payload carries it whole), the comment it happened to, and who acted.
 * The service hands these to `events.emit` inside an Effect that reads the thread, so nothing is
 * read or built while no listener follows the key.
 */

/** Who acted, as events carry them: a user reference, or none when the REST call names nobody. */
type ActionUser = UserRecord | { readonly userId: string } | undefined

/** An event about a thread, and the comment it happened to. */
const commentEvent = (type: string, annotation: CommentAnnotation, targetComment: Comment | undefined, actionUser: ActionUser): NewEvent => ({
  type,
  ...aboutOrganization(annotation.metadata.organizationId, annotation.metadata.documentId),
  data: {
    commentAnnotation: annotation,
    ...(targetComment !== undefined && { targetComment }),
    actionUser,
    metadata: annotation.metadata
  }
})

/** The event, marked as asking for notifications when `notifies` (NewEvent.notifies). */
const notifying = (event: NewEvent, notifies: boolean): NewEvent => notifies ? { ...event, notifies } : event

/** commentannotations/add: one `comment_annotation.add` per thread, its first comment the target. */
export const threadAdded = (annotation: CommentAnnotation, notifies = false): NewEvent => {
  const [first] = annotation.comments
  return notifying(commentEvent("comment_annotation.add", annotation, first, first?.from), notifies)
}

/** comments/add: one `comment.add` per comment added, with the thread as it is after all of them. */
export const commentsAdded = (after: CommentAnnotation, added: ReadonlyArray<CommentRow>, notifies: (row: CommentRow) => boolean = () => false): Array<NewEvent> =>
  added.map((row) => notifying(commentEvent("comment.add", after, toComment(row), row.record.from), notifies(row)))

/** comments/update: one `comment.update` per comment changed, each as the thread now shows it. */
export const commentsUpdated = (after: CommentAnnotation, updated: ReadonlyArray<CommentRow>): Array<NewEvent> =>
  updated.map((row) => commentEvent("comment.update", after, after.comments.find((c) => c.commentId === row.id), row.record.from))

/** comments/delete: one `comment.delete` per comment deleted, each as it was. */
export const commentsDeleted = (after: CommentAnnotation, deleted: ReadonlyArray<CommentRow>): Array<NewEvent> =>
  deleted.map((row) => commentEvent("comment.delete", after, toComment(row), row.record.from))

/** comment.reaction_add/_delete: the thread and comment after the change, and which reaction (`reaction`, beyond the facts). */
export const reactionChanged = (
  type: "comment.reaction_add" | "comment.reaction_delete",
  after: CommentAnnotation,
  input: typeof ReactionInput.Type
): NewEvent => {
  const event = commentEvent(type, after, after.comments.find((c) => c.commentId === input.commentId), input.from)
  return { ...event, data: { ...event.data, reaction: input.reaction } }
}

/**
 * commentannotations/update: `status_change` (with `oldStatus`, `newStatus`), `assign` and
 * `priority_change` (with `newPriority`), each only when the value changed; `actionUser` is the
 * client API's user (`actor`), else the thread's `statusUpdatedByUserId` when it has one.
 */
export const threadUpdated = (
  after: CommentAnnotation,
  before: AnnotationRecord,
  changes: typeof AnnotationChanges.Type,
  notifies = false,
  actor?: string
): Array<NewEvent> => {
  const actorId = actor ?? after.statusUpdatedByUserId
  const actionUser = actorId !== undefined ? { userId: actorId } : undefined
  const out: Array<NewEvent> = []
  const { assignedTo, priority, status } = changes
  if (status !== undefined && status.id !== before.status.id) {
    const event = commentEvent("comment_annotation.status_change", after, undefined, actionUser)
    out.push(notifying({ ...event, data: { ...event.data, oldStatus: before.status, newStatus: status } }, notifies))
  }
  if (assignedTo !== undefined && assignedTo.userId !== before.assignedTo?.userId) {
    out.push(notifying(commentEvent("comment_annotation.assign", after, undefined, actionUser), notifies))
  }
  if (priority !== undefined && priority.id !== before.priority?.id) {
    const event = commentEvent("comment_annotation.priority_change", after, undefined, actionUser)
    out.push({ ...event, data: { ...event.data, newPriority: priority } })
  }
  return out
}
