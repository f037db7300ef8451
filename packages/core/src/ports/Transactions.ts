import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

/**
 * The transaction boundary of the storage port. Everything run inside
 * `withTransaction` commits together or not at all; nested calls are savepoints,
 * which is how a batch operation keeps each item atomic.
 */
export class Transactions extends Context.Tag("@atrium/core/Transactions")<Transactions, {
  readonly withTransaction: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>() {}
