/**
 * A nested transaction's savepoint is released when it ends (sql/SqlStorage.ts). @effect/sql leaves
 * them open until the transaction ends, and SQLite visits every open savepoint for each page it
 * writes: a batch of 30,000 items, a savepoint each, took 187 s instead of seconds (issue 21).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { expect, it } from "vitest"
import { forEachBackend } from "../../../../test-support/backends.js"
import { Transactions } from "../../src/ports/Transactions.js"

type Runtime = { runPromise: <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient | Transactions>) => Promise<A> }

forEachBackend("savepoints", (ctx) => {
  it("a nested transaction leaves no savepoint open once it has ended, committed or rolled back", async () => {
    const runtime = ctx().atrium.runtime as unknown as Runtime
    const opened = await runtime.runPromise(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const { withTransaction } = yield* Transactions
      /** Whether the savepoint @effect/sql names `effect_sql_<depth>` is open: releasing it fails otherwise. */
      const isOpen = (depth: number) =>
        sql.unsafe(`RELEASE SAVEPOINT effect_sql_${depth}`).pipe(Effect.as(true), Effect.orElseSucceed(() => false))
      const found: Array<boolean> = []
      yield* withTransaction(Effect.gen(function*() {
        yield* withTransaction(Effect.void)
        yield* withTransaction(Effect.fail("item failed")).pipe(Effect.ignore)
        yield* withTransaction(withTransaction(Effect.void))
        // On PostgreSQL a failed statement spoils the transaction: ask once, last.
        found.push(yield* isOpen(1))
        return yield* Effect.fail("rolled back: nothing of this test stays")
      })).pipe(Effect.ignore)
      return found
    }))
    expect(opened).toEqual([false])
  })

  it("with their savepoints released, nested transactions still undo a failed item and keep the others", async () => {
    const runtime = ctx().atrium.runtime as unknown as Runtime
    const rows = await runtime.runPromise(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const { withTransaction } = yield* Transactions
      yield* sql.unsafe("CREATE TABLE savepoint_probe (n INTEGER NOT NULL)")
      yield* withTransaction(Effect.gen(function*() {
        for (let n = 0; n < 3; n++) yield* withTransaction(sql.unsafe(`INSERT INTO savepoint_probe (n) VALUES (${n})`))
        yield* withTransaction(sql.unsafe("INSERT INTO savepoint_probe (n) VALUES (99)").pipe(Effect.zipRight(Effect.fail("undone")))).pipe(Effect.ignore)
      }))
      return yield* sql<{ n: number }>`SELECT n FROM savepoint_probe ORDER BY n`
    }))
    expect(rows.map((row) => Number(row.n))).toEqual([0, 1, 2])
  })
})
