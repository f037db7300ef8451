import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import { compareText } from "../TextOrder.js"

/**
 * The transaction boundary of the storage port. Everything run inside
 * `withTransaction` commits together or not at all; nested calls are savepoints,
 * which is how a batch operation keeps each item atomic.
 *
 * A write that reads what it changes (a merge, a check before an insert, a number after the
 * highest) first takes `lock` on what it reads, inside the transaction: concurrent writers of
 * the same thing then run one after the other, so none loses the other's change
 * (docs/storage.md, "Concurrent writes").
 */
export class Transactions extends Context.Tag("@atrium/core/Transactions")<Transactions, {
  readonly withTransaction: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /**
   * An exclusive lock on the thing these parts name (e.g. `"settings", apiKey, name`), held until
   * the enclosing transaction ends; it need not exist yet. A storage that runs one write
   * transaction at a time (SQLite) has nothing to do.
   */
  readonly lock: (...name: ReadonlyArray<string>) => Effect.Effect<void>
}>() {}

/**
 * Takes `lock` on each of `names` (each once), in one order whatever the caller's: by their parts,
 * code point by code point. A call that writes several things under their locks (a batch of users,
 * of documents) takes them all first this way, since it holds each until it commits: two callers
 * naming the same things in other orders would otherwise each hold one the other waits for, a
 * deadlock PostgreSQL breaks only after a second (`deadlock_timeout`), the loser running again —
 * fifty such callers at once ran out of retries (docs/storage.md, "Concurrent writes").
 */
export const lockInOrder = (
  lock: (...name: ReadonlyArray<string>) => Effect.Effect<void>,
  names: Iterable<ReadonlyArray<string>>
): Effect.Effect<void> => {
  const byText = new Map<string, ReadonlyArray<string>>()
  for (const name of names) byText.set(JSON.stringify(name), name)
  return Effect.forEach([...byText.keys()].sort(compareText), (text) => lock(...byText.get(text)!), { discard: true })
}

/** What the outermost transaction of this fiber runs once it has committed; undefined outside one. */
const commitHooks = FiberRef.unsafeMake<Array<Effect.Effect<void>> | undefined>(undefined)

/** Whether this fiber runs inside a transaction. */
export const inTransaction: Effect.Effect<boolean> = Effect.map(FiberRef.get(commitHooks), (hooks) => hooks !== undefined)

/**
 * Runs `effect` once the transaction this fiber is in has committed (at once outside a
 * transaction; never when it rolls back). For side effects that must not see, or be seen
 * before, uncommitted rows: waking the delivery worker after an event is written.
 */
export const afterCommit = (effect: Effect.Effect<void>): Effect.Effect<void> =>
  Effect.flatMap(FiberRef.get(commitHooks), (hooks) => hooks === undefined ? effect : Effect.sync(() => void hooks.push(effect)))

/** How often an outermost transaction that lost a race is run again before its failure stands. */
const MAX_RETRIES = 8

/** A pause on the platform's clock (a test clock must not hold a retry up), a few ms with jitter. */
const backoff = (attempt: number) =>
  Effect.async<void>((resume) => {
    const timer = setTimeout(() => resume(Effect.void), Math.random() * Math.min(2 ** attempt, 50))
    return Effect.sync(() => clearTimeout(timer))
  })

export interface CommitHookOptions {
  /**
   * Whether a failed outermost transaction lost a race the storage reports only at write time
   * (PostgreSQL: a unique key taken meanwhile, a serialization failure, a deadlock): it is then
   * run again from the start, and its checks now see the winner's rows, so the caller gets the
   * answer a later request would (ALREADY_EXISTS, or the idempotent one), never a defect.
   */
  readonly lostRace?: (cause: Cause.Cause<unknown>) => boolean
}

/**
 * Wraps a storage's `withTransaction` so the outermost one runs the `afterCommit` hooks
 * registered inside it once it has committed (the hooks of an attempt that rolled back are
 * dropped), and is run again when it lost a race. Every storage's transaction port uses it.
 */
export const withCommitHooks = (
  transaction: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>,
  options: CommitHookOptions = {}
) =>
<A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.flatMap(FiberRef.get(commitHooks), (outer) => {
    if (outer !== undefined) return transaction(self)
    const attempt = (retries: number): Effect.Effect<A, E, R> =>
      Effect.suspend(() => {
        const hooks: Array<Effect.Effect<void>> = []
        const run = transaction(self).pipe(
          Effect.locally(commitHooks, hooks),
          Effect.tap(() => hooks.length === 0 ? Effect.void : Effect.forEach(hooks, (hook) => hook, { discard: true }))
        )
        return options.lostRace === undefined || retries >= MAX_RETRIES ? run : run.pipe(
          Effect.catchAllCause((cause) =>
            options.lostRace!(cause) && !Cause.isInterrupted(cause)
              ? Effect.zipRight(backoff(retries), attempt(retries + 1))
              : Effect.failCause(cause))
        )
      })
    return attempt(0)
  })
