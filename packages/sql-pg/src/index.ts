/**
 * @atrium/sql-pg: Atrium's storage on PostgreSQL.
 * The repositories and the migrations come from `@atrium/core/sql`; this package adds the client.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type { StorageServices } from "@atrium/core"
import { MIGRATIONS_TABLE, migrations, migrationScript, sqlStorage } from "@atrium/core/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { directPgClient } from "./DirectPgClient.js"
import { PgChangeFeed } from "./PgChangeFeed.js"

export interface PgPoolOptions {
  /** Most connections the pool opens (default 10). */
  readonly max?: number
  /** How long an unused connection stays open (default 10 s). */
  readonly idleTimeoutMillis?: number
  /** How long to wait for a new connection (default: no limit); the first one, at start, fails the layer after this (default 5 s). */
  readonly connectTimeoutMillis?: number
}

export interface PgStorageOptions {
  /** `postgres://user:password@host:port/database` (query parameters such as `sslmode` pass through). */
  readonly url: string
  /**
   * Put every table (and `atrium_migrations`) in this schema instead of `public`; created
   * if missing. A plain lower-case identifier. It is set as each connection's `search_path`
   * through the startup `options` parameter, which PostgreSQL honours (a pooler in front
   * of it must pass startup options through).
   */
  readonly schema?: string
  readonly pool?: PgPoolOptions
  /** Run pending migrations when the layer is built (default true). */
  readonly migrate?: boolean
  /**
   * Run each statement outside a transaction as one `pool.query` (default: yes, unless `createAtrium({ tracing })` traces), without
   * @effect/sql's span, scope and connection acquisition per statement. `false` gives those
   * back (a span per statement for a tracer), at their cost (docs/storage.md).
   */
  readonly directStatements?: boolean
}

export { MIGRATIONS_TABLE }
export { FEED_APPLICATION_NAME, feedChannel, PgChangeFeed, type PgChangeFeedOptions } from "./PgChangeFeed.js"

/** The advisory lock key of `underSetupLock` (any constant; "atrium" in ASCII). */
const SETUP_LOCK_KEY = 0x617472697564

/**
 * Serializes what two processes starting at once on a new database would race on: creating the
 * schema and `atrium_migrations` (the Migrator locks that table, but creates it outside its lock).
 * A transaction-level advisory lock, so it is released with the transaction, whatever happens.
 */
const underSetupLock = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql.withTransaction(Effect.zipRight(sql`SELECT pg_advisory_xact_lock(${SETUP_LOCK_KEY})`, effect)))

/** The table as the Migrator creates it, made here under the lock so the Migrator finds it. */
const createMigrationsTable = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql`CREATE TABLE IF NOT EXISTS ${sql(MIGRATIONS_TABLE)} (
    migration_id integer PRIMARY KEY,
    created_at timestamp with time zone NOT NULL DEFAULT now(),
    name text NOT NULL
  )`)

/** Applies pending migrations; returns the ids applied now. Safe to run from many processes at once. */
export const migrate: Effect.Effect<ReadonlyArray<readonly [id: number, name: string]>, Migrator.MigrationError | SqlError, SqlClient.SqlClient> =
  Effect.zipRight(underSetupLock(createMigrationsTable), Migrator.make({})({ loader: migrations, table: MIGRATIONS_TABLE }))

/** The SQL the migrations run on PostgreSQL, without a database (`atrium migrate --print --dialect pg`). */
export const printMigrations: Effect.Effect<string> = migrationScript(PgClient.makeCompiler()).pipe(Effect.provide(Reactivity.layer))

/** A schema name needs no quoting anywhere (SQL, the startup options): lower case, so PostgreSQL does not fold it. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/

/** The URL with `-c search_path=<schema>` added to its startup `options` (after any the URL already has). */
const withSearchPath = (url: string, schema: string): string => {
  const parsed = new URL(url)
  const options = parsed.searchParams.get("options")
  parsed.searchParams.set("options", [options, `-c search_path=${schema}`].filter(Boolean).join(" "))
  return parsed.toString()
}

/** The SqlClient alone, with the schema created when one is set (for `atrium migrate` and tests). */
export const clientLayer = (options: PgStorageOptions): Layer.Layer<SqlClient.SqlClient, SqlError> => {
  const { pool = {}, schema } = options
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new Error(`PostgreSQL schema "${schema}" must be a lower-case identifier: letters a-z, digits and _, at most 63`)
  }
  const client = directPgClient({
    url: schema === undefined ? options.url : withSearchPath(options.url, schema),
    max: pool.max,
    idleTimeoutMillis: pool.idleTimeoutMillis,
    connectTimeoutMillis: pool.connectTimeoutMillis,
    directStatements: options.directStatements
  })
  if (schema === undefined) return client
  return Layer.tap(client, (context) => Effect.asVoid(underSetupLock(
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE SCHEMA IF NOT EXISTS ${sql(schema)}`)
  ).pipe(Effect.provide(context))))
}

/**
 * Storage for `createAtrium({ storage })`: the client, migrations applied, every repository, and
 * the change feed between the servers on the database (LISTEN/NOTIFY, `PgChangeFeed`).
 */
export const layer = (options: PgStorageOptions): Layer.Layer<StorageServices | SqlClient.SqlClient, SqlError | Migrator.MigrationError> => {
  const client = clientLayer(options)
  const migrated = options.migrate === false ? Layer.empty : Layer.effectDiscard(migrate)
  const changeFeed = PgChangeFeed({ url: options.url, schema: options.schema, connectTimeoutMillis: options.pool?.connectTimeoutMillis })
  return Layer.merge(sqlStorage(changeFeed), migrated).pipe(Layer.provideMerge(client))
}

export const PgStorage = { layer, clientLayer, migrate, printMigrations }
