import * as Reactivity from "@effect/experimental/Reactivity"
import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import { PgClient } from "@effect/sql-pg"
import { directStatementsWanted, withDirectStatements } from "@atrium/core/sql"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import pg from "pg"
import { connectFailureMessage, describeUrl } from "./ConnectFailure.js"

export interface DirectPgOptions {
  readonly url: string
  readonly max?: number | undefined
  readonly idleTimeoutMillis?: number | undefined
  readonly connectTimeoutMillis?: number | undefined
  /** Run statements outside a transaction directly (default: yes, unless `createAtrium({ tracing })` traces); `false` keeps @effect/sql's spans. */
  readonly directStatements?: boolean | undefined
}

/** How long the first connection may take when no connect timeout is set. */
const FIRST_CONNECTION_TIMEOUT = Duration.seconds(5)

/**
 * A `pg.Pool` of our own, its first connection made at start (the layer fails
 * when the server does not answer), ended when the layer's scope closes.
 */
const acquirePool = (options: DirectPgOptions) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const pool = new pg.Pool({
        connectionString: options.url,
        application_name: "atrium",
        ...(options.max !== undefined && { max: options.max }),
        ...(options.idleTimeoutMillis !== undefined && { idleTimeoutMillis: options.idleTimeoutMillis }),
        ...(options.connectTimeoutMillis !== undefined && { connectionTimeoutMillis: options.connectTimeoutMillis })
      })
      pool.on("error", () => {}) // an idle connection the server dropped: the pool replaces it
      return pool
    }),
    (pool) => Effect.promise(() => pool.end()).pipe(Effect.interruptible, Effect.timeoutOption(1000))
  ).pipe(
    Effect.tap((pool) =>
      Effect.tryPromise({
        try: () => pool.query("SELECT 1"),
        catch: (cause) => new SqlError({ cause, message: connectFailureMessage(options.url, cause) })
      }).pipe(Effect.timeoutFail({
        duration: options.connectTimeoutMillis ?? FIRST_CONNECTION_TIMEOUT,
        onTimeout: () =>
          new SqlError({
            cause: new Error("Connection timed out"),
            message: `PostgreSQL: cannot connect to ${describeUrl(options.url)}: no answer within the connect timeout (check DATABASE_URL's host and port)`
          })
      }))
    )
  )

/**
 * `@effect/sql-pg`'s client over that pool, with a direct path: outside a
 * transaction a statement is one `pool.query` (a connection borrowed and
 * returned by the pool), as a hand-written `pg` server would send it, instead
 * of @effect/sql's span, scope and cancellable acquisition per statement.
 * Inside a transaction statements take the ordinary path, on the transaction's
 * connection. A direct statement cannot be cancelled: an interrupted request
 * lets it finish and drops the rows.
 */
export const directPgClient = (options: DirectPgOptions): Layer.Layer<SqlClient.SqlClient, SqlError> =>
  Layer.scoped(
    SqlClient.SqlClient,
    Effect.gen(function*() {
      const pool = yield* acquirePool(options)
      const client = yield* PgClient.fromPool({ acquire: Effect.succeed(pool), applicationName: "atrium" })
      if (!(yield* directStatementsWanted(options.directStatements))) return client
      return withDirectStatements(client, (statement, ordinary, compile) =>
        Effect.flatMap(Effect.serviceOption(SqlClient.TransactionConnection), (transaction) => {
          if (Option.isSome(transaction)) return ordinary(statement)
          const [sql, params] = compile(statement)
          return Effect.async<ReadonlyArray<unknown>, SqlError>((resume) => {
            pool.query(sql, params as Array<unknown>, (cause, result) =>
              resume(cause ? Effect.fail(new SqlError({ cause, message: "Failed to execute statement" })) : Effect.succeed(result.rows)))
          })
        }))
    })
  ).pipe(Layer.provide(Reactivity.layer))
