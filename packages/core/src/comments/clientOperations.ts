import * as Effect from "effect/Effect"
import { defineOperation } from "../protocol/Operation.js"
import { ClientComments } from "./ClientComments.js"
import {
  ClientAddAnnotationsInput,
  ClientAddCommentsInput,
  ClientCountAnnotationsInput,
  ClientMarkReadInput,
  ClientReactionInput,
  ClientUpdateAnnotationsInput,
  ClientUpdateCommentsInput
} from "./ClientCommentSchemas.js"
import {
  AddAnnotationsResult,
  AddCommentsResult,
  AnnotationsPage,
  CountAnnotationsResult,
  DeleteAnnotationsInput,
  DeleteAnnotationsResult,
  DeleteCommentsInput,
  GetAnnotationsInput,
  ItemResults,
  ReactionResult
} from "./CommentSchemas.js"
import { commentAnswers } from "./operations.js"

/**
 * The client API's comment operations (spec client-api.md, "Operations"): the server operations
 * of the same names, called by a user with its token, as that user (ClientComments.ts), and
 * answered alike.
 */
export const clientCommentOperations = [
  defineOperation({
    name: "client.commentannotations.get",
    paths: ["/v2/client/commentannotations/get"],
    auth: "user",
    summary: "The comment threads the acting user may see (documents it may read, visibility that shows it), as commentannotations/get filters and pages them.",
    input: GetAnnotationsInput,
    output: AnnotationsPage,
    errors: ["INVALID_ARGUMENT", "PERMISSION_DENIED"],
    organization: (input) => input.organizationId,
    service: ClientComments,
    handler: (comments, input, caller) => Effect.map(comments.getAnnotations(caller, input), commentAnswers.page(input.groupByDocumentId))
  }),
  defineOperation({
    name: "client.commentannotations.count.get",
    paths: ["/v2/client/commentannotations/count/get"],
    auth: "user",
    summary: "Count each document's comment threads the acting user may see, and those it has not read since they last changed.",
    input: ClientCountAnnotationsInput,
    output: CountAnnotationsResult,
    errors: ["PERMISSION_DENIED"],
    organization: (input) => input.organizationId,
    service: ClientComments,
    handler: (comments, input, caller) => Effect.map(comments.countAnnotations(caller, input), commentAnswers.counted)
  }),
  defineOperation({
    name: "client.commentannotations.add",
    paths: ["/v2/client/commentannotations/add"],
    auth: "user",
    summary: "Add comment threads, every comment by the acting user (editor): all of them, or none.",
    input: ClientAddAnnotationsInput,
    output: AddAnnotationsResult,
    errors: ["INVALID_ARGUMENT", "ALREADY_EXISTS", "PERMISSION_DENIED"],
    organization: (input) => input.organizationId,
    service: ClientComments,
    handler: (comments, input, caller) => Effect.map(comments.addAnnotations(caller, input), commentAnswers.added)
  }),
  defineOperation({
    name: "client.commentannotations.update",
    paths: ["/v2/client/commentannotations/update"],
    auth: "user",
    summary: "Change fields of the comment threads the acting user (editor) may see; a status sent is the user's change. Per-id results.",
    input: ClientUpdateAnnotationsInput,
    output: ItemResults,
    errors: ["INVALID_ARGUMENT", "PERMISSION_DENIED"],
    organization: (input) => input.organizationId,
    service: ClientComments,
    handler: (comments, input, caller) => Effect.map(comments.updateAnnotations(caller, input), commentAnswers.updated(input.annotationIds))
  }),
  defineOperation({
    name: "client.commentannotations.delete",
    paths: ["/v2/client/commentannotations/delete"],
    auth: "user",
    summary: "Delete comment threads the acting user (editor) started (any it may see, as an admin), with their comments. Per-id results.",
    input: DeleteAnnotationsInput,
    output: DeleteAnnotationsResult,
    errors: ["PERMISSION_DENIED"],
    organization: (input) => input.organizationId,
    service: ClientComments,
    handler: (comments, input, caller) => Effect.map(comments.deleteAnnotations(caller, input), commentAnswers.deleted(input.annotationIds))
  }),
  defineOperation({
    name: "client.commentannotations.comments.add",
    paths: ["/v2/client/commentannotations/comments/add"],
    auth: "user",
    summary: "Add comments by the acting user (editor) to a thread it may see: all of them, or none; answers the new comment ids.",
    input: ClientAddCommentsInput,
    output: AddCommentsResult,
    errors: ["INVALID_ARGUMENT", "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED"],
    organization: (input) => input.organizationId,
    service: ClientComments,
    handler: (comments, input, caller) => Effect.map(comments.addComments(caller, input), commentAnswers.commentsAdded)
  }),
  defineOperation({
    name: "client.commentannotations.comments.update",
    paths: ["/v2/client/commentannotations/comments/update"],
    auth: "user",
    summary: "Apply the same changes to comments of a thread, the acting user's own (any, as an admin; editor). Per-id results.",
    input: ClientUpdateCommentsInput,
    output: ItemResults,
    errors: ["NOT_FOUND", "PERMISSION_DENIED"],
    organization: (input) => input.organizationId,
    service: ClientComments,
    handler: (comments, input, caller) => Effect.map(comments.updateComments(caller, input), commentAnswers.commentsUpdated(input.commentIds))
  }),
  defineOperation({
    name: "client.commentannotations.comments.delete",
    paths: ["/v2/client/commentannotations/comments/delete"],
    auth: "user",
    summary: "Delete comments of a thread, the acting user's own (any, as an admin; editor). Per-id results.",
    input: DeleteCommentsInput,
    output: ItemResults,
    errors: ["NOT_FOUND", "PERMISSION_DENIED"],
    organization: (input) => input.organizationId,
    service: ClientComments,
    handler: (comments, input, caller) => Effect.map(comments.deleteComments(caller, input), commentAnswers.commentsDeleted(input.commentIds))
  }),
  defineOperation({
    name: "client.commentannotations.comments.reactions.add",
    paths: ["/v2/client/commentannotations/comments/reactions/add"],
    auth: "user",
    summary: "The acting user (viewer) reacts to a comment with an emoji; once per emoji.",
    input: ClientReactionInput,
    output: ReactionResult,
    errors: ["NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED"],
    organization: (input) => input.organizationId,
    service: ClientComments,
    handler: (comments, input, caller) => Effect.map(comments.addReaction(caller, input), commentAnswers.reactionAdded)
  }),
  defineOperation({
    name: "client.commentannotations.comments.reactions.delete",
    paths: ["/v2/client/commentannotations/comments/reactions/delete"],
    auth: "user",
    summary: "The acting user (viewer) takes back its reaction (an emoji) to a comment.",
    input: ClientReactionInput,
    output: ReactionResult,
    errors: ["NOT_FOUND", "PERMISSION_DENIED"],
    organization: (input) => input.organizationId,
    service: ClientComments,
    handler: (comments, input, caller) => Effect.map(comments.deleteReaction(caller, input), commentAnswers.reactionDeleted)
  }),
  defineOperation({
    name: "client.commentannotations.read",
    paths: ["/v2/client/commentannotations/read"],
    auth: "user",
    summary: "Record that the acting user (viewer) has read comment threads as they are now (count/get's unread). Per-id results.",
    input: ClientMarkReadInput,
    output: ItemResults,
    errors: ["PERMISSION_DENIED"],
    organization: (input) => input.organizationId,
    service: ClientComments,
    handler: (comments, input, caller) => Effect.map(comments.markRead(caller, input), commentAnswers.read(input.annotationIds))
  })
] as const
