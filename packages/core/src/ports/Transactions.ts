import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"

/**
 * The transaction boundary of the storage port. Everything run inside
 * `withTransaction` commits together or not at all; nested calls are savepoints,
 * which is how a batch operation keeps each item atomic.
 */
export class Transactions extends Context.Tag("@atrium/core/Transactions")<Transactions, {
  readonly withTransaction: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
}>() {}

/** What the outermost transaction of this fiber runs once it has committed; undefined outside one. */
const commitHooks = FiberRef.unsafeMake<Array<Effect.Effect<void>> | undefined>(undefined)

/**
 * Runs `effect` once the transaction this fiber is in has committed (at once outside a
 * transaction; never when it rolls back). For side effects that must not see, or be seen
 * before, uncommitted rows: waking the delivery worker after an event is written.
 */
export const afterCommit = (effect: Effect.Effect<void>): Effect.Effect<void> =>
  Effect.flatMap(FiberRef.get(commitHooks), (hooks) => hooks === undefined ? effect : Effect.sync(() => void hooks.push(effect)))

/**
 * Wraps a storage's `withTransaction` so the outermost one runs the `afterCommit` hooks
 * registered inside it once it has committed. Every storage's transaction port uses it.
 */
export const withCommitHooks = (
  transaction: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
) =>
<A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.flatMap(FiberRef.get(commitHooks), (outer) => {
    if (outer !== undefined) return transaction(self)
    const hooks: Array<Effect.Effect<void>> = []
    return transaction(self).pipe(
      Effect.locally(commitHooks, hooks),
      Effect.tap(() => hooks.length === 0 ? Effect.void : Effect.forEach(hooks, (hook) => hook, { discard: true }))
    )
  })
