import * as Reactivity from "@effect/experimental/Reactivity"
import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import { makeSyncSqliteClient, preparedStatements } from "@atrium/core/sql"
import Database from "better-sqlite3"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

export interface LeanSqliteOptions {
  readonly filename: string
  /** Prepared statements kept (least recently used are dropped past this). */
  readonly statementCacheSize?: number
  /** Run statements outside a transaction directly (default: yes, unless `createAtrium({ tracing })` traces); `false` keeps @effect/sql's spans. */
  readonly directStatements?: boolean | undefined
}

/**
 * A `SqlClient` over better-sqlite3 with the least work per statement: core's synchronous
 * SQLite client (makeSyncSqliteClient) on a plain LRU of prepared statements. Measured in
 * docs/benchmarks.md against `@effect/sql-sqlite-node`'s client.
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

    // Each row is an object of its columns, or the array of its values when run raw.
    const prepareOnce = (sql: string) => db.prepare<Array<unknown>, object>(sql)
    const prepare = preparedStatements(prepareOnce, options.statementCacheSize ?? 500)
    const execute = (statement: Database.Statement<Array<unknown>, object>, params: ReadonlyArray<unknown>, raw: boolean): Array<object> => {
      if (!statement.reader) {
        statement.run(...params)
        return []
      }
      return statement.raw(raw).all(...params)
    }
    return yield* makeSyncSqliteClient({
      run: (sql, params, raw) => execute(prepare(sql), params, raw),
      runOnce: (sql, params) => execute(prepareOnce(sql), params, false)
    }, { spanAttributes: [["db.system.name", "sqlite"]], directStatements: options.directStatements })
  })

export const layer = (options: LeanSqliteOptions): Layer.Layer<SqlClient.SqlClient, SqlError> =>
  Layer.scoped(SqlClient.SqlClient, make(options)).pipe(Layer.provide(Reactivity.layer))
