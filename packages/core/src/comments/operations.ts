import * as Effect from "effect/Effect"
import { answer, answerPage, answerPageAs } from "../protocol/Envelope.js"
import { defineOperation } from "../protocol/Operation.js"
import type { Page } from "../protocol/PageTokens.js"
import {
  AddAnnotationsInput,
  AddAnnotationsResult,
  AddCommentsInput,
  AddCommentsResult,
  AnnotationsPage,
  type CommentAnnotation,
  CommentsResult,
  CountAnnotationsInput,
  CountAnnotationsResult,
  DeleteAnnotationsInput,
  DeleteAnnotationsResult,
  DeleteCommentsInput,
  GetAnnotationsInput,
  GetCommentsInput,
  ItemResults,
  MarkReadInput,
  ReactionInput,
  ReactionResult,
  UpdateAnnotationsInput,
  UpdateCommentsInput
} from "./CommentSchemas.js"
import { Comments } from "./Comments.js"

/**
 * Per-id results, the facts' answer to a batch: each id asked for, failed with `missing` unless
 * it is among the ids `done` (then `message`); the keys are the ids as text.
 */
const perId = <Id extends string | number>(asked: ReadonlyArray<Id> | undefined, done: ReadonlyArray<Id>, message: string, missing: string) => {
  const data: Record<string, { success: boolean; id: Id; message: string }> = {}
  for (const id of asked ?? []) data[String(id)] = { success: false, id, message: missing }
  for (const id of done) data[String(id)] = { success: true, id, message }
  return data
}

/** commentannotations/add's `data`: per thread added, its id and its comments' ids. */
const addedThreads = (threads: ReadonlyArray<CommentAnnotation>) => {
  const data: Record<string, { success: boolean; annotationId: string; commentIds: Array<number>; message: string }> = {}
  for (const { annotationId, comments } of threads) {
    data[annotationId] = { success: true, annotationId, commentIds: comments.map((c) => c.commentId), message: "Added Successfully" }
  }
  return data
}

/** commentannotations/get with `groupByDocumentId`: the page's threads under their document's id. */
const byDocument = (threads: ReadonlyArray<CommentAnnotation | null>) => {
  const grouped: Record<string, Array<CommentAnnotation>> = {}
  for (const thread of threads) if (thread !== null) (grouped[thread.metadata.documentId] ??= []).push(thread)
  return grouped
}

/**
 * Each operation's answer from what the service returned: the server API's rows and the client
 * API's (clientOperations.ts) answer alike, in the facts' messages and shapes.
 */
export const commentAnswers = {
  added: (threads: ReadonlyArray<CommentAnnotation>) => answer("Comment Annotation(s) added successfully.")(addedThreads(threads)),
  // The facts' two messages: grouped by document, and not.
  page: (grouped: boolean | undefined) => (page: Page<CommentAnnotation | null>) =>
    grouped === true
      ? answerPageAs("Annotations fetched successfully.", "nextPageToken", byDocument)(page)
      : answerPage("Annotation(s) fetched successfully.", "nextPageToken")(page),
  updated: (asked: ReadonlyArray<string> | undefined) => (updated: ReadonlyArray<string>) =>
    answer("Annotations updated successfully.")(perId(asked, updated, "Annotations updated successfully", "Annotation not found.")),
  deleted: (asked: ReadonlyArray<string> | undefined) => (deleted: ReadonlyArray<string>) =>
    answer("Annotations deleted successfully.")(perId(asked, deleted, "Deleted Successfully", "Annotation not found.")),
  commentsAdded: (added: ReadonlyArray<{ readonly commentId: number }>) => answer("Comment(s) added successfully.")(added.map((c) => c.commentId)),
  commentsUpdated: (asked: ReadonlyArray<number>) => (updated: ReadonlyArray<number>) =>
    answer("Comment updated successfully.")(perId(asked, updated, "Updated successfully", "Not found")),
  commentsDeleted: (asked: ReadonlyArray<number> | undefined) => (deleted: ReadonlyArray<number>) =>
    answer("Comments(s) deleted successfully.")(perId(asked, deleted, "Deleted successfully", "Not found")),
  counted: answer("Comment count retrieved successfully."),
  read: (asked: ReadonlyArray<string>) => (marked: ReadonlyArray<string>) =>
    answer("Annotation(s) marked as read successfully.")(perId(asked, marked, "Marked as read", "Annotation not found.")),
  reactionAdded: (reactionAnnotationId: string) => answer("Reaction added successfully.")({ reactionAnnotationId }),
  reactionDeleted: (reactionAnnotationId: string) => answer("Reaction deleted successfully.")({ reactionAnnotationId })
}

export const commentOperations = [
  defineOperation({
    name: "commentannotations.add",
    paths: ["/v2/commentannotations/add"],
    auth: "apiKey",
    summary: "Add comment threads with their comments to a document: all of them, or none (details say which failed).",
    input: AddAnnotationsInput,
    output: AddAnnotationsResult,
    errors: ["INVALID_ARGUMENT", "ALREADY_EXISTS"],
    organization: (input) => input.organizationId,
    service: Comments,
    handler: (comments, input, caller) => Effect.map(comments.addAnnotations(caller.apiKey, input), commentAnswers.added)
  }),
  defineOperation({
    name: "commentannotations.get",
    paths: ["/v2/commentannotations/get"],
    auth: "apiKey",
    summary: "List an organization's comment threads with their comments, by document, id, location, author or status, newest first by default.",
    input: GetAnnotationsInput,
    output: AnnotationsPage,
    errors: ["INVALID_ARGUMENT"],
    organization: (input) => input.organizationId,
    service: Comments,
    handler: (comments, input, caller) => Effect.map(comments.getAnnotations(caller.apiKey, input), commentAnswers.page(input.groupByDocumentId))
  }),
  defineOperation({
    name: "commentannotations.update",
    paths: ["/v2/commentannotations/update"],
    auth: "apiKey",
    summary: "Change fields of a document's comment threads (the ones selected, or all); per-id results.",
    input: UpdateAnnotationsInput,
    output: ItemResults,
    errors: ["INVALID_ARGUMENT"],
    organization: (input) => input.organizationId,
    service: Comments,
    handler: (comments, input, caller) => Effect.map(comments.updateAnnotations(caller.apiKey, input), commentAnswers.updated(input.annotationIds))
  }),
  defineOperation({
    name: "commentannotations.delete",
    paths: ["/v2/commentannotations/delete"],
    auth: "apiKey",
    summary: "Delete a document's comment threads (the ones selected, or all) with their comments; per-id results.",
    input: DeleteAnnotationsInput,
    output: DeleteAnnotationsResult,
    organization: (input) => input.organizationId,
    service: Comments,
    handler: (comments, input, caller) => Effect.map(comments.deleteAnnotations(caller.apiKey, input), commentAnswers.deleted(input.annotationIds))
  }),
  defineOperation({
    name: "commentannotations.comments.add",
    paths: ["/v2/commentannotations/comments/add"],
    auth: "apiKey",
    summary: "Add comments to a thread: all of them, or none; answers the new comment ids.",
    input: AddCommentsInput,
    output: AddCommentsResult,
    errors: ["INVALID_ARGUMENT", "NOT_FOUND", "ALREADY_EXISTS"],
    organization: (input) => input.organizationId,
    service: Comments,
    handler: (comments, input, caller) => Effect.map(comments.addComments(caller.apiKey, input), commentAnswers.commentsAdded)
  }),
  defineOperation({
    name: "commentannotations.comments.update",
    paths: ["/v2/commentannotations/comments/update"],
    auth: "apiKey",
    summary: "Apply the same changes to the listed comments of a thread; per-id results.",
    input: UpdateCommentsInput,
    output: ItemResults,
    errors: ["INVALID_ARGUMENT", "NOT_FOUND"],
    organization: (input) => input.organizationId,
    service: Comments,
    handler: (comments, input, caller) => Effect.map(comments.updateComments(caller.apiKey, input), commentAnswers.commentsUpdated(input.commentIds))
  }),
  defineOperation({
    name: "commentannotations.comments.delete",
    paths: ["/v2/commentannotations/comments/delete"],
    auth: "apiKey",
    summary: "Delete the listed comments of a thread, or all of them; per-id results.",
    input: DeleteCommentsInput,
    output: ItemResults,
    errors: ["INVALID_ARGUMENT", "NOT_FOUND"],
    organization: (input) => input.organizationId,
    service: Comments,
    handler: (comments, input, caller) => Effect.map(comments.deleteComments(caller.apiKey, input), commentAnswers.commentsDeleted(input.commentIds))
  }),
  defineOperation({
    name: "commentannotations.comments.get",
    paths: ["/v2/commentannotations/comments/get"],
    auth: "apiKey",
    summary: "Read a thread's comments, or the ones asked for (null for an id the thread does not have).",
    input: GetCommentsInput,
    output: CommentsResult,
    errors: ["INVALID_ARGUMENT", "NOT_FOUND"],
    organization: (input) => input.organizationId,
    service: Comments,
    handler: (comments, input, caller) => Effect.map(comments.getComments(caller.apiKey, input), answer("Comments retrieved successfully."))
  }),
  defineOperation({
    name: "commentannotations.count.get",
    paths: ["/v2/commentannotations/count/get"],
    auth: "apiKey",
    summary: "Count each document's comment threads, and those a user has not read since they last changed.",
    input: CountAnnotationsInput,
    output: CountAnnotationsResult,
    errors: ["INVALID_ARGUMENT"],
    organization: (input) => input.organizationId,
    service: Comments,
    handler: (comments, input, caller) => Effect.map(comments.countAnnotations(caller.apiKey, input), commentAnswers.counted)
  }),
  defineOperation({
    name: "commentannotations.read",
    paths: ["/v2/commentannotations/read"],
    auth: "apiKey",
    summary: "Record that a user has read comment threads as they are now (count/get's unread); per-id results.",
    input: MarkReadInput,
    output: ItemResults,
    errors: ["INVALID_ARGUMENT"],
    organization: (input) => input.organizationId,
    service: Comments,
    handler: (comments, input, caller) => Effect.map(comments.markRead(caller.apiKey, input), commentAnswers.read(input.annotationIds))
  }),
  defineOperation({
    name: "commentannotations.comments.reactions.add",
    paths: ["/v2/commentannotations/comments/reactions/add"],
    auth: "apiKey",
    summary: "Add a user's reaction (an emoji) to a comment; once per user and emoji.",
    input: ReactionInput,
    output: ReactionResult,
    errors: ["INVALID_ARGUMENT", "NOT_FOUND", "ALREADY_EXISTS"],
    organization: (input) => input.organizationId,
    service: Comments,
    handler: (comments, input, caller) => Effect.map(comments.addReaction(caller.apiKey, input), commentAnswers.reactionAdded)
  }),
  defineOperation({
    name: "commentannotations.comments.reactions.delete",
    paths: ["/v2/commentannotations/comments/reactions/delete"],
    auth: "apiKey",
    summary: "Remove a user's reaction (an emoji) from a comment.",
    input: ReactionInput,
    output: ReactionResult,
    errors: ["INVALID_ARGUMENT", "NOT_FOUND"],
    organization: (input) => input.organizationId,
    service: Comments,
    handler: (comments, input, caller) => Effect.map(comments.deleteReaction(caller.apiKey, input), commentAnswers.reactionDeleted)
  })
] as const
