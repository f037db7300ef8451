import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { mergeLayers } from "./Domain.js"
import { type Domain, domains } from "./domains.js"
import type { DataTable } from "./jobs/JobTables.js"
import { SqlJobDataPort } from "./jobs/SqlJobDataPort.js"
import { SqlServerSecretsRepo } from "./ports/SqlServerSecretsRepo.js"
import { StorageHealth } from "./ports/StorageHealth.js"
import { Transactions, withCommitHooks } from "./ports/Transactions.js"
import { SqlRateLimitsRepo } from "./protocol/SqlRateLimitsRepo.js"
import { type ChangeFeed, InProcessChangeFeed } from "./realtime/ChangeFeed.js"
import type { StorageServices } from "./Storage.js"

/**
 * PostgreSQL's word for a transaction that lost a race with another: a unique key taken since
 * it looked (23505), a serialization failure (40001), a deadlock (40P01). SQLite runs one write
 * transaction at a time and never loses one.
 */
const LOST_RACE_CODES = new Set(["23505", "40001", "40P01"])

const lostRace = (cause: Cause.Cause<unknown>): boolean =>
  [...Cause.failures(cause), ...Cause.defects(cause)].some((error) =>
    error instanceof SqlError && LOST_RACE_CODES.has((error.cause as { code?: unknown } | undefined)?.code as string))

/**
 * `sql.withTransaction`, releasing a nested call's savepoint when it ends. @effect/sql leaves
 * every savepoint open until the transaction ends (it neither releases one that succeeded nor
 * one it rolled back to), and SQLite visits every open savepoint for each page it writes, so a
 * batch of n items, a savepoint each, cost O(n²): 30,000 usergroups/users/add ids took 187 s.
 * The name is the one @effect/sql gives the savepoint it opens at that depth.
 */
const releasingSavepoints = (sql: SqlClient.SqlClient) => <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.flatMap(Effect.serviceOption(SqlClient.TransactionConnection), (outer) =>
    Option.isNone(outer)
      ? sql.withTransaction(self)
      : Effect.onExit(sql.withTransaction(self), () => {
        const [connection, depth] = outer.value
        return Effect.orDie(connection.executeUnprepared(`RELEASE SAVEPOINT effect_sql_${depth + 1}`, [], undefined))
      }))

const SqlTransactions = Layer.effect(
  Transactions,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    // A storage failure is a defect (logged, answered INTERNAL); the operation's own errors pass through.
    withTransaction: withCommitHooks(<A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      releasingSavepoints(sql)(self).pipe(
        Effect.catchIf((error): error is SqlError => error instanceof SqlError, (error) => Effect.die(error))
      ) as Effect.Effect<A, E, R>, { lostRace }),
    // A transaction-level advisory lock on a 64-bit hash of the name: released with the transaction.
    lock: (...name: ReadonlyArray<string>) =>
      sql.onDialectOrElse({
        pg: () => sql`SELECT pg_advisory_xact_lock(hashtextextended(${JSON.stringify(name)}, 0))`.pipe(Effect.orDie, Effect.asVoid),
        orElse: () => Effect.void
      })
  }))
)

const SqlHealth = Layer.effect(
  StorageHealth,
  Effect.map(SqlClient.SqlClient, (sql) => ({ ping: Effect.asVoid(sql`SELECT 1`) }))
)

/**
 * Every repository written once against `@effect/sql`'s SqlClient: the SQLite
 * and PostgreSQL packages add only their client and their migrations. Each domain's
 * repositories come from its descriptor (domains.ts); the jobs' data port visits every
 * domain's tables; the rest is the storage's own (transactions, health, server secrets,
 * rate limits) and `changeFeed`, how changes reach the other servers on the database.
 */
export const sqlStorage = <E>(changeFeed: Layer.Layer<ChangeFeed, E, SqlClient.SqlClient>): Layer.Layer<StorageServices, E, SqlClient.SqlClient> =>
  Layer.mergeAll(
    mergeLayers(domains.flatMap<Domain["repositories"][number]>((domain) => domain.repositories)),
    SqlJobDataPort(domains.flatMap<DataTable>((domain) => "dataTables" in domain ? domain.dataTables : [])),
    SqlServerSecretsRepo,
    SqlRateLimitsRepo,
    SqlTransactions,
    SqlHealth,
    changeFeed
  )

/** The SQL storage of one process (SQLite, memory): its changes reach only this process's subscribers. */
export const SqlStorage: Layer.Layer<StorageServices, never, SqlClient.SqlClient> = sqlStorage(InProcessChangeFeed)
