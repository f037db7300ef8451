import type * as Reactivity from "@effect/experimental/Reactivity"
import type * as Connection from "@effect/sql/SqlConnection"
import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import * as Statement from "@effect/sql/Statement"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { directStatementsWanted, withDirectStatements } from "./DirectStatements.js"
import type { Compiled } from "./StatementShapes.js"

/**
 * A SQLite driver that runs a statement synchronously (better-sqlite3, sql.js): the one thing
 * that differs between Atrium's SQLite clients.
 */
export interface SyncSqliteDriver {
  /** Runs a prepared (and remembered) statement: its rows as objects, or as arrays of values when `raw`; throws on failure. */
  readonly run: (sql: string, params: ReadonlyArray<unknown>, raw: boolean) => Array<object>
  /** Runs a statement once, without remembering it (transaction control, migrations); throws on failure. */
  readonly runOnce: (sql: string, params: ReadonlyArray<unknown>) => Array<object>
}

export interface SyncSqliteClientOptions {
  /** `db.system.name` and any other attributes of @effect/sql's spans. */
  readonly spanAttributes: ReadonlyArray<readonly [string, unknown]>
  /**
   * Run statements outside a transaction directly (default: yes, unless `createAtrium({ tracing })` traces). `false` keeps @effect/sql's
   * ordinary path for every statement, with its span per statement, at its cost (docs/storage.md).
   */
  readonly directStatements?: boolean | undefined
}

const failure = (cause: unknown) => new SqlError({ cause, message: `Failed to execute statement: ${(cause as Error)?.message ?? cause}` })

/** Rows run `raw` are arrays of values (SyncSqliteDriver.run). */
const valuesOf = (rows: Array<object>): Array<ReadonlyArray<unknown>> => rows.filter((row) => Array.isArray(row))

/**
 * A `SqlClient` over a synchronous SQLite driver with the least work per statement: no lock
 * unless a transaction holds the connection. The driver runs each statement synchronously, so
 * outside a transaction there is nothing to wait for, and a statement runs at once, inside its
 * own `commit` (the direct path, DirectStatements.ts): an `Exit` is all it allocates. Inside a
 * transaction its statements run directly as well; beside one (another fiber's) a statement
 * takes @effect/sql's ordinary path, which waits for the connection. Measured in docs/benchmarks.md.
 */
export const makeSyncSqliteClient = (
  driver: SyncSqliteDriver,
  options: SyncSqliteClientOptions
): Effect.Effect<SqlClient.SqlClient, never, Reactivity.Reactivity | Scope.Scope> =>
  Effect.gen(function*() {
    const run = (sql: string, params: ReadonlyArray<unknown>, raw: boolean) =>
      Effect.try({ try: () => driver.run(sql, params, raw), catch: failure })
    const connection: Connection.Connection = {
      execute: (sql, params, transformRows) =>
        transformRows ? Effect.map(run(sql, params, false), transformRows) : run(sql, params, false),
      executeRaw: (sql, params) => run(sql, params, false),
      executeValues: (sql, params) => Effect.map(run(sql, params, true), valuesOf),
      executeUnprepared: (sql, params, transformRows) => {
        const rows = Effect.try({ try: () => driver.runOnce(sql, params ?? []), catch: failure })
        return transformRows ? Effect.map(rows, transformRows) : rows
      },
      executeStream: () => Stream.dieMessage("executeStream is not supported")
    }

    // One transaction at a time holds the connection; plain statements wait only while one does.
    const lock = yield* Effect.makeSemaphore(1)
    let held = false
    const acquirer = Effect.suspend(() => held ? lock.withPermits(1)(Effect.succeed(connection)) : Effect.succeed(connection))
    const transactionAcquirer = Effect.uninterruptibleMask((restore) =>
      Effect.zipRight(
        restore(lock.take(1)),
        Effect.flatMap(Effect.scope, (scope) =>
          Effect.as(
            Effect.zipRight(
              Effect.sync(() => (held = true)),
              Scope.addFinalizer(scope, Effect.zipRight(Effect.sync(() => (held = false)), lock.release(1)))
            ),
            connection
          ))
      )
    )

    const client = yield* SqlClient.make({
      acquirer,
      transactionAcquirer,
      compiler: Statement.makeCompilerSqlite(),
      spanAttributes: options.spanAttributes
    })

    if (!(yield* directStatementsWanted(options.directStatements))) return client
    const runNow = (statement: Statement.Statement<unknown>, compile: (statement: Statement.Statement<unknown>) => Compiled) => {
      const [sql, params] = compile(statement)
      try {
        return Exit.succeed(driver.run(sql, params, false))
      } catch (cause) {
        return Exit.fail(failure(cause))
      }
    }
    return withDirectStatements(client, (statement, ordinary, compile) => {
      if (!held) return runNow(statement, compile)
      // Held: the transaction's own statements run directly too (its fiber holds the connection; a
      // batch's items cost a third of what @effect/sql's path did); any other fiber's wait for it.
      return Effect.withFiberRuntime((fiber) => {
        const transaction = Context.getOption(fiber.currentContext, SqlClient.TransactionConnection)
        return transaction._tag === "Some" && transaction.value[0] === connection ? runNow(statement, compile) : ordinary(statement)
      })
    })
  })

/**
 * Prepared statements by their text, the least recently used dropped past `capacity`
 * (`free` releases a dropped one, for drivers whose statements hold memory until freed).
 */
export const preparedStatements = <S>(prepare: (sql: string) => S, capacity: number, free?: (statement: S) => void) => {
  const statements = new Map<string, S>()
  return (sql: string): S => {
    let statement = statements.get(sql)
    if (statement !== undefined) {
      statements.delete(sql) // re-insert: the map's order is the recency order
    } else {
      statement = prepare(sql)
      if (statements.size >= capacity) {
        const oldest = statements.keys().next().value!
        free?.(statements.get(oldest)!)
        statements.delete(oldest)
      }
    }
    statements.set(sql, statement)
    return statement
  }
}
