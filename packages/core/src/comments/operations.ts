import { defineOperation } from "../protocol/Operation.js"
import {
  AddAnnotationsInput,
  AddAnnotationsResult,
  AddCommentsInput,
  AddCommentsResult,
  AnnotationsPage,
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
    handler: (comments, input, caller) => comments.addAnnotations(caller.apiKey, input)
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
    handler: (comments, input, caller) => comments.getAnnotations(caller.apiKey, input)
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
    handler: (comments, input, caller) => comments.updateAnnotations(caller.apiKey, input)
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
    handler: (comments, input, caller) => comments.deleteAnnotations(caller.apiKey, input)
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
    handler: (comments, input, caller) => comments.addComments(caller.apiKey, input)
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
    handler: (comments, input, caller) => comments.updateComments(caller.apiKey, input)
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
    handler: (comments, input, caller) => comments.deleteComments(caller.apiKey, input)
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
    handler: (comments, input, caller) => comments.getComments(caller.apiKey, input)
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
    handler: (comments, input, caller) => comments.countAnnotations(caller.apiKey, input)
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
    handler: (comments, input, caller) => comments.markRead(caller.apiKey, input)
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
    handler: (comments, input, caller) => comments.addReaction(caller.apiKey, input)
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
    handler: (comments, input, caller) => comments.deleteReaction(caller.apiKey, input)
  })
] as const
