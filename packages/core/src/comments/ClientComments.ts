import * as Arr from "effect/Array"
import * as Effect from "effect/Effect"
import { DocumentAccess, questionOf } from "../access/DocumentAccess.js"
import type { AccessRole } from "../access/AccessRule.js"
import { type ApiError, permissionDenied } from "../protocol/ApiError.js"
import type { UserCaller } from "../protocol/Operation.js"
import type {
  ClientAddAnnotationsInput,
  ClientAddCommentsInput,
  ClientCountAnnotationsInput,
  ClientMarkReadInput,
  ClientReactionInput,
  ClientUpdateAnnotationsInput,
  ClientUpdateCommentsInput
} from "./ClientCommentSchemas.js"
import type { DeleteAnnotationsInput, DeleteCommentsInput, GetAnnotationsInput } from "./CommentSchemas.js"
import { Comments } from "./Comments.js"
import type { CommentScope } from "./CommentScope.js"
import type { AnnotationRow, CommentRow } from "./CommentsRepo.js"
import { threadsSeenBy } from "./ThreadReaders.js"

type Denied = ApiError<"PERMISSION_DENIED">

/**
 * The comment operations of the client API (spec client-api.md, "Operations"): the Comments
 * service's, acting as the token's user. Every document named is checked with the access rule
 * (`viewer` to read or react, `editor` to write); the threads a user may not see (visibility, or a
 * document it may not read) are as if they did not exist; deleting threads, and changing or
 * deleting comments, take only the user's own unless it is an admin. docs/decisions.md, "Client API".
 */
export class ClientComments extends Effect.Service<ClientComments>()("@atrium/core/ClientComments", {
  accessors: true,
  effect: Effect.gen(function*() {
    const comments = yield* Comments
    const access = yield* DocumentAccess

    /** The user may read (`viewer`) or write (`editor`) each document, else PERMISSION_DENIED naming the first it may not. */
    const requireEach = (caller: UserCaller, organizationId: string, documentIds: ReadonlyArray<string>, needed: AccessRole) =>
      Effect.forEach(new Set(documentIds), (documentId) => access.require(questionOf(caller, organizationId, documentId), needed), { discard: true })

    /** The token's user, as a comment or a reaction records who wrote it. */
    const actorOf = (caller: UserCaller) => ({ userId: caller.userId, name: caller.user.name, email: caller.user.email })

    /** The threads the user may see, of those given (ThreadReaders.ts; `readable`: documents already checked). */
    const seenBy = (caller: UserCaller, organizationId: string, readable: ReadonlyArray<string>) =>
      threadsSeenBy(access, caller, organizationId, readable)

    /** A scope acting as the user on the threads `threads` keeps and the comments `comments` keeps (all, by default). */
    const scope = <E = never>(
      caller: UserCaller,
      threads: CommentScope<E>["threads"],
      comments: CommentScope<E>["comments"] = Effect.succeed
    ): CommentScope<E> => ({ viewer: caller.userId, threads, comments })

    /**
     * Of the rows (threads or comments), those the user may delete or change: any as an admin,
     * else its own. Naming another's (`named`) is refused, saying whose (`may`: what the user may
     * do, e.g. "delete only the threads they started"); a selection without names takes the
     * user's own and leaves the others be.
     */
    const own = <Row extends AnnotationRow | CommentRow>(caller: UserCaller, named: boolean, may: string, id: (row: Row) => string) =>
    (rows: ReadonlyArray<Row>): Effect.Effect<ReadonlyArray<Row>, Denied> => {
      if (caller.user.isAdmin) return Effect.succeed(rows)
      const others = rows.filter((row) => row.createdBy !== caller.userId)
      if (named && others.length > 0) {
        return Effect.fail(permissionDenied(`User ${caller.userId} may ${may} (an admin, any): ${others.map((row) => `${id(row)} is by ${row.createdBy}`).join(", ")}.`))
      }
      return Effect.succeed(others.length === 0 ? rows : rows.filter((row) => row.createdBy === caller.userId))
    }

    const ownThreads = (caller: UserCaller, named: boolean) =>
      own<AnnotationRow>(caller, named, "delete only the threads they started", (row) => `thread ${row.id}`)
    const ownComments = (caller: UserCaller, named: boolean, verb: "change" | "delete") =>
      own<CommentRow>(caller, named, `${verb} only their own comments`, (row) => `comment ${row.id}`)

    /** A call on one document: the user's role there first, then `run` with the threads it may see there. */
    const onDocument = <A, E>(
      caller: UserCaller,
      input: { readonly organizationId: string; readonly documentId: string },
      needed: AccessRole,
      run: (seen: ReturnType<typeof seenBy>) => Effect.Effect<A, E>
    ) =>
      Effect.zipRight(
        requireEach(caller, input.organizationId, [input.documentId], needed),
        Effect.suspend(() => run(seenBy(caller, input.organizationId, [input.documentId])))
      )

    return {
      /** commentannotations/get: the threads of the documents the user may read (each named must be), that their visibility shows it. */
      getAnnotations: (caller: UserCaller, input: typeof GetAnnotationsInput.Type) => {
        const named = [...(input.documentIds ?? []), ...(input.documentId !== undefined ? [input.documentId] : [])]
        return Effect.zipRight(
          requireEach(caller, input.organizationId, named, "viewer"),
          Effect.suspend(() => comments.within(scope(caller, seenBy(caller, input.organizationId, named))).getAnnotations(caller.apiKey, input))
        )
      },

      /** commentannotations/count/get: the threads of each document the user sees, and those it has not read. */
      countAnnotations: (caller: UserCaller, input: typeof ClientCountAnnotationsInput.Type) =>
        Effect.zipRight(
          requireEach(caller, input.organizationId, input.documentIds, "viewer"),
          Effect.suspend(() =>
            comments.within(scope(caller, seenBy(caller, input.organizationId, input.documentIds))).countAnnotations(caller.apiKey, { ...input, userId: caller.userId })
          )
        ),

      /** commentannotations/add: threads whose every comment the user wrote. */
      addAnnotations: (caller: UserCaller, input: typeof ClientAddAnnotationsInput.Type) =>
        onDocument(caller, input, "editor", () => {
          const from = actorOf(caller)
          return comments.addAnnotations(caller.apiKey, {
            ...input,
            // A user's comments always notify (docs/notifications.md).
            commentAnnotations: Arr.map(input.commentAnnotations, (thread) => ({
              ...thread,
              commentData: Arr.map(thread.commentData, (comment) => ({ ...comment, from, triggerNotification: true }))
            }))
          })
        }),

      /** commentannotations/update: the threads the user sees; a status sent is the user's change (and, terminal, its resolution). */
      updateAnnotations: (caller: UserCaller, input: typeof ClientUpdateAnnotationsInput.Type) =>
        onDocument(caller, input, "editor", (seen) => {
          const { updatedData } = input
          const status = updatedData?.status
          const changes = updatedData === undefined || status === undefined ? updatedData : {
            ...updatedData,
            statusUpdatedByUserId: caller.userId,
            ...(status.type === "terminal" && { resolvedByUserId: caller.userId })
          }
          return comments.within(scope(caller, seen)).updateAnnotations(caller.apiKey, { ...input, ...(changes !== undefined && { updatedData: changes }) })
        }),

      /** commentannotations/delete: the threads the user sees and started (any it sees, as an admin). */
      deleteAnnotations: (caller: UserCaller, input: typeof DeleteAnnotationsInput.Type) =>
        onDocument(caller, input, "editor", (seen) => {
          const owned = ownThreads(caller, input.annotationIds !== undefined)
          return comments.within(scope<Denied>(caller, (rows) => Effect.flatMap(seen(rows), owned))).deleteAnnotations(caller.apiKey, input)
        }),

      /** comments/add: comments the user wrote, to a thread it sees. */
      addComments: (caller: UserCaller, input: typeof ClientAddCommentsInput.Type) =>
        onDocument(caller, input, "editor", (seen) => {
          const from = actorOf(caller)
          return comments.within(scope(caller, seen)).addComments(caller.apiKey, { ...input, commentData: Arr.map(input.commentData, (comment) => ({ ...comment, from })) })
        }),

      /** comments/update: the user's own comments (any, as an admin), in a thread it sees. */
      updateComments: (caller: UserCaller, input: typeof ClientUpdateCommentsInput.Type) =>
        onDocument(caller, input, "editor", (seen) => comments.within(scope<Denied>(caller, seen, ownComments(caller, true, "change"))).updateComments(caller.apiKey, input)),

      /** comments/delete: the user's own comments (any, as an admin), in a thread it sees; without ids, all of its own. */
      deleteComments: (caller: UserCaller, input: typeof DeleteCommentsInput.Type) =>
        onDocument(caller, input, "editor", (seen) =>
          comments.within(scope<Denied>(caller, seen, ownComments(caller, input.commentIds !== undefined, "delete"))).deleteComments(caller.apiKey, input)),

      /** reactions/add: the user reacts, in a thread it sees (reading is enough). */
      addReaction: (caller: UserCaller, input: typeof ClientReactionInput.Type) =>
        onDocument(caller, input, "viewer", (seen) => comments.within(scope(caller, seen)).addReaction(caller.apiKey, { ...input, from: actorOf(caller) })),

      /** reactions/delete: the user takes back its reaction. */
      deleteReaction: (caller: UserCaller, input: typeof ClientReactionInput.Type) =>
        onDocument(caller, input, "viewer", (seen) => comments.within(scope(caller, seen)).deleteReaction(caller.apiKey, { ...input, from: actorOf(caller) })),

      /** commentannotations/read: the user has read the threads it sees. */
      markRead: (caller: UserCaller, input: typeof ClientMarkReadInput.Type) =>
        onDocument(caller, input, "viewer", (seen) => comments.within(scope(caller, seen)).markRead(caller.apiKey, { ...input, userId: caller.userId }))
    }
  })
}) {}
