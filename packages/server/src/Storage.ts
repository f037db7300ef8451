import type { StorageServices } from "@atrium/core"
import { SqliteStorage } from "@atrium/sql-sqlite"
import type * as SqlClient from "@effect/sql/SqlClient"
import type * as Layer from "effect/Layer"

export interface StorageChoice {
  readonly kind: "sqlite"
  readonly description: string
  readonly layer: Layer.Layer<StorageServices | SqlClient.SqlClient, unknown>
  readonly clientLayer: Layer.Layer<SqlClient.SqlClient, unknown>
}

/**
 * `DATABASE_URL` → storage. SQLite: `sqlite:<path>`, `file:<path>`, or a bare path.
 * PostgreSQL URLs are refused until `@atrium/sql-pg` lands.
 */
export const storageFromUrl = (url: string): StorageChoice => {
  if (/^postgres(ql)?:\/\//i.test(url)) {
    throw new Error("DATABASE_URL is a PostgreSQL URL, but this build of Atrium has SQLite storage only (PostgreSQL comes with @atrium/sql-pg).")
  }
  const filename = url.replace(/^(sqlite|file):(\/\/)?/i, "")
  if (filename === "") throw new Error(`DATABASE_URL "${url}" names no SQLite file`)
  return {
    kind: "sqlite",
    description: `SQLite at ${filename}`,
    layer: SqliteStorage.layer({ filename }),
    clientLayer: SqliteStorage.clientLayer({ filename })
  }
}
