import * as Reactivity from "@effect/experimental/Reactivity"
import type * as Connection from "@effect/sql/SqlConnection"
import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import * as Statement from "@effect/sql/Statement"
import { withDirectStatements } from "@atrium/core/sql"
import Database from "better-sqlite3"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"

export interface LeanSqliteOptions {
  readonly filename: string
  /** Prepared statements kept (least recently used are dropped past this). */
  readonly statementCacheSize?: number
}

/**
 * A `SqlClient` over better-sqlite3 with the least work per statement: a plain
 * LRU map of prepared statements, and no lock unless a transaction holds the
 * connection. better-sqlite3 runs each statement synchronously, so outside a
 * transaction there is nothing to wait for, and a statement can run at once.
 * Measured in docs/benchmarks.md against `@effect/sql-sqlite-node`'s client.
 */
export const make = (options: LeanSqliteOptions) =>
  Effect.gen(function*() {
    const db = yield* Effect.acquireRelease(
      Effect.try({
        try: () => new Database(options.filename),
        catch: (cause) => new SqlError({ cause, message: `Failed to open SQLite database ${options.filename}` })
      }),
      (db) => Effect.sync(() => db.close())
    )
    db.pragma("journal_mode = WAL")
    db.pragma("synchronous = NORMAL")
    db.pragma("busy_timeout = 5000")

    const capacity = options.statementCacheSize ?? 500
    const statements = new Map<string, Database.Statement>()
    const prepare = (sql: string) => {
      let statement = statements.get(sql)
      if (statement !== undefined) {
        statements.delete(sql) // re-insert: the map's order is the recency order
      } else {
        statement = db.prepare(sql)
        if (statements.size >= capacity) statements.delete(statements.keys().next().value!)
      }
      statements.set(sql, statement)
      return statement
    }
    const execute = (sql: string, params: ReadonlyArray<unknown>, raw: boolean): Array<any> => {
      const statement = prepare(sql)
      if (statement.reader) return (raw ? statement.raw(true).all(...params) : statement.raw(false).all(...params)) as Array<any>
      statement.run(...params)
      return []
    }
    const failure = (cause: unknown) => new SqlError({ cause, message: `Failed to execute statement: ${(cause as Error)?.message ?? cause}` })
    const run = (sql: string, params: ReadonlyArray<unknown>, raw: boolean) =>
      Effect.try({ try: () => execute(sql, params, raw), catch: failure })

    const connection: Connection.Connection = {
      execute: (sql, params, transformRows) =>
        transformRows ? Effect.map(run(sql, params, false), transformRows) : run(sql, params, false),
      executeRaw: (sql, params) => run(sql, params, false),
      executeValues: (sql, params) => run(sql, params, true),
      executeUnprepared: (sql, params, transformRows) => {
        const effect = Effect.try({
          try: () => {
            const statement = db.prepare(sql)
            return statement.reader ? statement.all(...(params ?? [])) as Array<any> : (statement.run(...(params ?? [])), [])
          },
          catch: (cause) => new SqlError({ cause, message: "Failed to execute statement" })
        })
        return transformRows ? Effect.map(effect, transformRows) : effect
      },
      executeStream: () => Effect.dieMessage("executeStream is not supported") as any
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
      spanAttributes: [["db.system.name", "sqlite"]]
    })

    // The fast path: better-sqlite3 is synchronous, so when no transaction holds
    // the connection a statement can simply run; inside or beside a transaction
    // it takes the ordinary path, which finds the transaction's connection or
    // waits for it.
    // It runs the statement right away, inside the statement's commit: an Exit is all it allocates.
    return withDirectStatements(client, (statement, ordinary, compile) => {
      if (held) return ordinary(statement)
      const [sql, params] = compile(statement)
      try {
        return Exit.succeed(execute(sql, params, false))
      } catch (cause) {
        return Exit.fail(failure(cause))
      }
    })
  })

export const layer = (options: LeanSqliteOptions): Layer.Layer<SqlClient.SqlClient, SqlError> =>
  Layer.scoped(SqlClient.SqlClient, make(options)).pipe(Layer.provide(Reactivity.layer))
