import type * as Effect from "effect/Effect"
import type { AnnotationRow, CommentRow } from "./CommentsRepo.js"

/**
 * What a call may act on within its document. A server API call acts on every thread and comment
 * (the host's calls: no scope); a client API call acts as its user (ClientComments.ts): on the
 * threads the user may see and, for some changes, only on what the user wrote. The Comments
 * service applies it to the rows it selected, inside the change's transaction and under the
 * document's lock, so what is checked is what is written.
 */
export interface CommentScope<E = never> {
  /** Whose view it is: page tokens are bound to it, so one user's token pages no one else's view. */
  readonly viewer: string
  /** The threads among `rows` the call acts on, in their order (the others are as if they did not exist), or a refusal. */
  readonly threads: (rows: ReadonlyArray<AnnotationRow>) => Effect.Effect<ReadonlyArray<AnnotationRow>, E>
  /** The comments among `rows` (of one thread) the call changes or deletes, or a refusal. */
  readonly comments: (rows: ReadonlyArray<CommentRow>) => Effect.Effect<ReadonlyArray<CommentRow>, E>
}
