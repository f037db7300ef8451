import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Layer from "effect/Layer"
import { Transactions } from "../../ports/Transactions.js"

/** One table of the in-memory store: rows are replaced, never mutated in place, so snapshots stay valid. */
export interface MemoryTable<Row> {
  readonly get: (key: string) => Row | undefined
  readonly set: (key: string, row: Row) => void
  readonly delete: (key: string) => boolean
  readonly values: () => Array<Row>
}

/** A set of named tables, with snapshot and restore for transactions. */
export class MemoryDb extends Context.Tag("@atrium/core/testing/MemoryDb")<MemoryDb, {
  readonly table: <Row>(name: string) => MemoryTable<Row>
  readonly snapshot: () => ReadonlyMap<string, Map<string, unknown>>
  readonly restore: (snapshot: ReadonlyMap<string, Map<string, unknown>>) => void
}>() {
  static readonly layer = Layer.sync(MemoryDb, () => {
    let tables = new Map<string, Map<string, unknown>>()
    const tableOf = (name: string) => {
      let table = tables.get(name)
      if (table === undefined) {
        table = new Map()
        tables.set(name, table)
      }
      return table
    }
    return {
      table: <Row>(name: string): MemoryTable<Row> => ({
        get: (key) => tableOf(name).get(key) as Row | undefined,
        set: (key, row) => void tableOf(name).set(key, row),
        delete: (key) => tableOf(name).delete(key),
        values: () => Array.from(tableOf(name).values()) as Array<Row>
      }),
      snapshot: () => new Map(Array.from(tables, ([name, rows]) => [name, new Map(rows)])),
      restore: (snapshot) => {
        tables = new Map(Array.from(snapshot, ([name, rows]) => [name, new Map(rows)]))
      }
    }
  })
}

const inTransaction = FiberRef.unsafeMake(false)

/**
 * Transactions over the memory store: a failure (or defect, or interruption)
 * restores the snapshot taken when the transaction (or savepoint) began.
 * Top-level transactions are serialized, as a database would lock.
 */
export const MemoryTransactions = Layer.effect(
  Transactions,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const lock = yield* Effect.makeSemaphore(1)
    const guarded = <A, E, R>(self: Effect.Effect<A, E, R>) =>
      Effect.suspend(() => {
        const before = db.snapshot()
        return Effect.onExit(self, (exit) => exit._tag === "Failure" ? Effect.sync(() => db.restore(before)) : Effect.void)
      })
    return {
      withTransaction: <A, E, R>(self: Effect.Effect<A, E, R>) =>
        Effect.flatMap(FiberRef.get(inTransaction), (nested) =>
          nested
            ? guarded(self)
            : lock.withPermits(1)(Effect.locally(guarded(self), inTransaction, true)))
    }
  })
)
