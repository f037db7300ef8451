import * as Schema from "effect/Schema"
import { ACTOR_REFUSED, optional, refusing } from "../schema/Common.js"
import {
  AddCommentsInput,
  addAnnotationsInput,
  AnnotationChanges,
  CommentChanges,
  CommentInput,
  commentsOf,
  CountAnnotationsInput,
  MarkReadInput,
  ReactionInput,
  ReplyInput,
  UpdateAnnotationsInput,
  UpdateCommentsInput
} from "./CommentSchemas.js"

/**
 * The client API's comment inputs (spec client-api.md, "Operations"): each the server operation's,
 * less the fields that name the acting user, who is the token's user. Those are refused with a
 * message saying so (spec "Conventions" 4); the reads and the deletes take the server's inputs
 * as they are (their `userIds` select the threads' authors, not the actor).
 */

/** Who wrote it is the token's user. */
const authoredByActor = { from: ACTOR_REFUSED } as const

export const ClientAddAnnotationsInput = addAnnotationsInput(refusing(CommentInput.omit("from").fields, authoredByActor))

export const ClientAddCommentsInput = Schema.Struct({
  ...AddCommentsInput.fields,
  commentData: commentsOf(refusing(ReplyInput.omit("from").fields, authoredByActor))
})

/**
 * commentannotations/update as a client sends it: a status change is the actor's (who changed it,
 * and who resolved it with a terminal one); rewriting authors (`updateUsers`) is the server API's.
 */
export const ClientUpdateAnnotationsInput = refusing({
  ...UpdateAnnotationsInput.omit("updatedData", "updateUsers").fields,
  updatedData: optional(refusing(AnnotationChanges.omit("from", "statusUpdatedByUserId", "resolvedByUserId").fields, {
    ...authoredByActor,
    statusUpdatedByUserId: `${ACTOR_REFUSED} (set to the user when status is sent)`,
    resolvedByUserId: `${ACTOR_REFUSED} (set to the user when a terminal status is sent)`
  }))
}, { updateUsers: "rewrites who wrote threads and comments, which only the server API may do" })

export const ClientUpdateCommentsInput = Schema.Struct({
  ...UpdateCommentsInput.fields,
  updatedData: refusing(CommentChanges.fields, authoredByActor)
})

/** The actor reacts. */
export const ClientReactionInput = refusing(ReactionInput.omit("from").fields, authoredByActor)

/** The actor has read the threads. */
export const ClientMarkReadInput = refusing(MarkReadInput.omit("userId").fields, { userId: ACTOR_REFUSED })

/** The actor's unread threads are counted. */
export const ClientCountAnnotationsInput = refusing(CountAnnotationsInput.omit("userId").fields, { userId: ACTOR_REFUSED })
