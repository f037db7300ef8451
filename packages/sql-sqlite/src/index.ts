/**
 * @atrium/sql-sqlite: Atrium's storage on an embedded SQLite database.
 * The repositories and the migrations come from `@atrium/core/sql`; this package adds the client.
 */
import * as Migrator from "@effect/sql/Migrator"
import * as Reactivity from "@effect/experimental/Reactivity"
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Statement from "@effect/sql/Statement"
import { SqliteClient } from "@effect/sql-sqlite-node"
import type { StorageServices } from "@atrium/core"
import { MIGRATIONS_TABLE, migrations, migrationScript, SqlStorage } from "@atrium/core/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { closeSync, mkdirSync, openSync } from "node:fs"
import { dirname } from "node:path"
import * as LeanSqliteClient from "./LeanSqliteClient.js"

export interface SqliteStorageOptions {
  /** Database file, or `:memory:`. Its folder is created if missing. */
  readonly filename: string
  /**
   * `lean` (default): Atrium's minimal client over better-sqlite3.
   * `effect`: `@effect/sql-sqlite-node`'s client. Both pass the same storage suite; lean is faster (docs/benchmarks.md).
   */
  readonly client?: "lean" | "effect"
  /** Run pending migrations when the layer is built (default true). */
  readonly migrate?: boolean
  /**
   * Run each statement outside a transaction directly on the driver (default: yes, unless `createAtrium({ tracing })` traces), without
   * @effect/sql's span, scope and connection acquisition per statement. `false` gives those
   * back (a span per statement for a tracer), at their cost (docs/storage.md). The lean client only.
   */
  readonly directStatements?: boolean
}

export { MIGRATIONS_TABLE }

/** Applies pending migrations; returns the ids applied now. */
export const migrate: Effect.Effect<ReadonlyArray<readonly [id: number, name: string]>, Migrator.MigrationError | SqlError, SqlClient.SqlClient> =
  Migrator.make({})({ loader: migrations, table: MIGRATIONS_TABLE })

/** The SQL the migrations run on SQLite, without a database (`atrium migrate --print --dialect sqlite`). */
export const printMigrations: Effect.Effect<string> = migrationScript(Statement.makeCompilerSqlite()).pipe(Effect.provide(Reactivity.layer))

/**
 * A new database file is created readable by its owner only (0600, its folder 0700 when made
 * here): it holds hashed credentials and webhook secrets. SQLite gives its -wal and -shm files
 * the database file's permissions. An existing file keeps the permissions its operator gave it.
 */
const createPrivately = (filename: string) => {
  mkdirSync(dirname(filename), { recursive: true, mode: 0o700 })
  closeSync(openSync(filename, "a", 0o600))
}

/** The SqlClient alone (for `atrium migrate` and tests). */
export const clientLayer = (options: SqliteStorageOptions): Layer.Layer<SqlClient.SqlClient, SqlError> =>
  // Suspended: nothing is created on disk until the layer is built (`migrate --print` builds none).
  Layer.suspend(() => {
    if (options.filename !== ":memory:") createPrivately(options.filename)
    return options.client === "effect"
      ? SqliteClient.layer({ filename: options.filename }).pipe(Layer.orDie)
      : LeanSqliteClient.layer({ filename: options.filename, directStatements: options.directStatements })
  })

/** Storage for `createAtrium({ storage })`: the client, migrations applied, every repository. */
export const layer = (options: SqliteStorageOptions): Layer.Layer<StorageServices | SqlClient.SqlClient, SqlError | Migrator.MigrationError> => {
  const client = clientLayer(options)
  const migrated = options.migrate === false ? Layer.empty : Layer.effectDiscard(migrate)
  return Layer.merge(SqlStorage, migrated).pipe(Layer.provideMerge(client))
}

export const SqliteStorage = { layer, clientLayer, migrate, printMigrations }
