import type { StorageServices } from "@atrium/core"
import { PgStorage } from "@atrium/sql-pg"
import { SqliteStorage } from "@atrium/sql-sqlite"
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"

export interface StorageChoice {
  readonly kind: "sqlite" | "postgres"
  /** Where the data is, for the start-up line (never the password). */
  readonly description: string
  readonly layer: Layer.Layer<StorageServices | SqlClient.SqlClient, unknown>
  /** The same storage without its migration step: for callers that ran `migrate` first. */
  readonly migratedLayer: Layer.Layer<StorageServices | SqlClient.SqlClient, unknown>
  /** Applies pending migrations on its own connection; the `<id>_<name>` of each applied now. */
  readonly migrate: Effect.Effect<ReadonlyArray<string>, unknown>
}

export interface StorageSettings {
  /** PostgreSQL only: the schema holding Atrium's tables (`ATRIUM_PG_SCHEMA`). */
  readonly pgSchema?: string
}

/** A path to a file: it names a folder, starts like one, or ends as a SQLite file does. */
const looksLikePath = (value: string) => /[/\\]/.test(value) || /^[.~]/.test(value) || /\.(db|db3|sqlite|sqlite3)$/i.test(value)

const applied = (ids: ReadonlyArray<readonly [id: number, name: string]>) => ids.map(([id, name]) => `${id}_${name}`)

/**
 * `DATABASE_URL` → storage. PostgreSQL: `postgres://…` or `postgresql://…`.
 * SQLite: `sqlite:<path>`, `file:<path>`, or a bare path (one with a slash, starting with `.` or
 * `~`, or ending in .db, .db3, .sqlite or .sqlite3; any other bare word is refused).
 */
export const storageFromUrl = (url: string, settings: StorageSettings = {}): StorageChoice => {
  if (/^postgres(ql)?:\/\//i.test(url)) {
    const options = { url, ...(settings.pgSchema !== undefined && { schema: settings.pgSchema }) }
    const { hostname, pathname, port } = new URL(url)
    return {
      kind: "postgres",
      description: `PostgreSQL at ${hostname}${port ? `:${port}` : ""}${pathname}` +
        (settings.pgSchema !== undefined ? `, schema ${settings.pgSchema}` : ""),
      layer: PgStorage.layer(options),
      migratedLayer: PgStorage.layer({ ...options, migrate: false }),
      migrate: Effect.map(Effect.provide(PgStorage.migrate, PgStorage.clientLayer(options)), applied)
    }
  }
  // Any other scheme (mysql://, a typo) is refused, not taken for a SQLite file named after it.
  const scheme = /^([a-z][a-z0-9+.-]+):/i.exec(url)?.[1]
  if (scheme !== undefined && !/^(sqlite|file)$/i.test(scheme)) {
    throw new Error(`DATABASE_URL "${url.replace(/\/\/[^@/]*@/, "//…@")}" is not supported: use sqlite:<path> (or a bare path) or postgres://user:pass@host:port/db`)
  }
  // A schema given for SQLite is a mistake in the settings: say so rather than ignore it.
  if (settings.pgSchema !== undefined) throw new Error("ATRIUM_PG_SCHEMA is set, but DATABASE_URL is not a PostgreSQL URL")
  const filename = url.replace(/^(sqlite|file):(\/\/)?/i, "")
  if (filename === "") throw new Error(`DATABASE_URL "${url}" names no SQLite file`)
  // A bare value is taken for a file only when it looks like one: "garbage" is a mistake, not a database to create.
  if (scheme === undefined && !looksLikePath(url)) {
    throw new Error(
      `DATABASE_URL "${url}" is neither a database URL nor a file path: use sqlite:${url} (or ./${url}) for a SQLite file of that name, ` +
        "or postgres://user:pass@host:port/db"
    )
  }
  return {
    kind: "sqlite",
    description: `SQLite at ${filename}`,
    layer: SqliteStorage.layer({ filename }),
    migratedLayer: SqliteStorage.layer({ filename, migrate: false }),
    migrate: Effect.map(Effect.provide(SqliteStorage.migrate, SqliteStorage.clientLayer({ filename })), applied)
  }
}
