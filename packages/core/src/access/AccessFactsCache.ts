import * as Effect from "effect/Effect"
import { keepLatest } from "../BoundedMap.js"
import { afterCommit, inTransaction } from "../ports/Transactions.js"

/** How many facts one server keeps (about 1 KB each with a token's worth of grants). */
export const ACCESS_FACTS_CAPACITY = 50_000

interface Kept {
  readonly version: number
  readonly value: unknown
}

/**
 * Access facts a server keeps between checks, each stamped with its key's access version
 * (migration 0014: every write to a table the rule reads moves it on). A check reads the version
 * first, then takes what it keeps at that version or reads storage again: a write committed after
 * the version was read gives a newer version next time, so nothing older than the version is
 * ever served. Inside a transaction nothing kept is served (its own uncommitted writes move the
 * version only at commit on PostgreSQL, where the triggers are deferred), and what it reads is
 * kept only once it committed (`afterCommit`), so a rolled-back write is never kept.
 * docs/decisions.md, "Access".
 */
export const makeAccessFactsCache = (capacity = ACCESS_FACTS_CAPACITY) => {
  const kept = new Map<string, Kept>()

  const keep = (key: string, entry: Kept) => keepLatest(kept, key, entry, capacity)

  return {
    /**
     * `load`'s value as kept at `version`, or read again and kept (unless `keepIf` refuses it:
     * facts whose change moves no version, like a document not created yet).
     */
    get: <A>(version: number, key: string, load: Effect.Effect<A>, keepIf: (value: A) => boolean = () => true): Effect.Effect<A> => {
      const reload = Effect.tap(load, (value) => keepIf(value) ? afterCommit(Effect.sync(() => keep(key, { version, value }))) : Effect.void)
      const entry = kept.get(key)
      if (entry === undefined || entry.version !== version) return reload
      return Effect.flatMap(inTransaction, (inside) => {
        if (inside) return reload
        keep(key, entry)
        return Effect.succeed(entry.value as A)
      })
    },
    get size() {
      return kept.size
    }
  }
}
