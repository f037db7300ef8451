import * as Effect from "effect/Effect"
import { answer, answerPage, answerPageAs } from "../protocol/Envelope.js"
import { defineOperation } from "../protocol/Operation.js"
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
    handler: (comments, input, caller) => Effect.map(comments.addAnnotations(caller.apiKey, input), (added) =>
      answer("Comment Annotation(s) added successfully.")(addedThreads(added)))
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
    // The facts' two messages: grouped by document, and not.
    handler: (comments, input, caller) =>
      input.groupByDocumentId === true
        ? Effect.map(comments.getAnnotations(caller.apiKey, input), answerPageAs("Annotations fetched successfully.", "nextPageToken", byDocument))
        : Effect.map(comments.getAnnotations(caller.apiKey, input), answerPage("Annotation(s) fetched successfully.", "nextPageToken"))
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
    handler: (comments, input, caller) => Effect.map(comments.updateAnnotations(caller.apiKey, input), (updated) =>
      answer("Annotations updated successfully.")(perId(input.annotationIds, updated, "Annotations updated successfully", "Annotation not found.")))
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
    handler: (comments, input, caller) => Effect.map(comments.deleteAnnotations(caller.apiKey, input), (deleted) =>
      answer("Annotations deleted successfully.")(perId(input.annotationIds, deleted, "Deleted Successfully", "Annotation not found.")))
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
    handler: (comments, input, caller) => Effect.map(comments.addComments(caller.apiKey, input), (added) =>
      answer("Comment(s) added successfully.")(added.map((c) => c.commentId)))
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
    handler: (comments, input, caller) => Effect.map(comments.updateComments(caller.apiKey, input), (updated) =>
      answer("Comment updated successfully.")(perId(input.commentIds, updated, "Updated successfully", "Not found")))
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
    handler: (comments, input, caller) => Effect.map(comments.deleteComments(caller.apiKey, input), (deleted) =>
      answer("Comments(s) deleted successfully.")(perId(input.commentIds, deleted, "Deleted successfully", "Not found")))
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
    handler: (comments, input, caller) => Effect.map(comments.countAnnotations(caller.apiKey, input), answer("Comment count retrieved successfully."))
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
    handler: (comments, input, caller) => Effect.map(comments.markRead(caller.apiKey, input), (marked) =>
      answer("Annotation(s) marked as read successfully.")(perId(input.annotationIds, marked, "Marked as read", "Annotation not found.")))
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
    handler: (comments, input, caller) => Effect.map(comments.addReaction(caller.apiKey, input), (reactionAnnotationId) =>
      answer("Reaction added successfully.")({ reactionAnnotationId }))
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
    handler: (comments, input, caller) => Effect.map(comments.deleteReaction(caller.apiKey, input), (reactionAnnotationId) =>
      answer("Reaction deleted successfully.")({ reactionAnnotationId }))
  })
] as const
