import * as Reactivity from "@effect/experimental/Reactivity"
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { Database, SqlJsStatic } from "sql.js"
import { MIGRATIONS_TABLE, migrations } from "../sql/migrations/index.js"
import { makeSyncSqliteClient, preparedStatements, type SyncSqliteDriver } from "../sql/SyncSqliteClient.js"

/**
 * sql.js: SQLite compiled to WebAssembly, so the in-memory storage needs no native build. An
 * optional peer dependency of @atrium/core: only this module loads it, once per process.
 */
let sqlJs: Promise<SqlJsStatic> | undefined
const loadSqlJs = (): Promise<SqlJsStatic> =>
  sqlJs ??= import("sql.js").then(
    (module) => ((module as { default?: unknown }).default ?? module) as (config?: object) => Promise<SqlJsStatic>
  ).then((init) => init(), (cause) => {
    sqlJs = undefined
    throw new Error("MemoryStorage runs on sql.js (SQLite in WebAssembly): add it to your dev dependencies (npm i -D sql.js)", { cause })
  })

const driverOf = (db: Database): SyncSqliteDriver => {
  const prepare = preparedStatements((sql) => db.prepare(sql), 500, (statement) => statement.free())
  const collect = (statement: ReturnType<Database["prepare"]>, params: ReadonlyArray<unknown>, raw: boolean) => {
    try {
      statement.bind(params as Array<number | string | Uint8Array | null>)
      const rows: Array<object> = []
      while (statement.step()) rows.push(raw ? statement.get() : statement.getAsObject())
      return rows
    } finally {
      statement.reset()
    }
  }
  return {
    run: (sql, params, raw) => collect(prepare(sql), params, raw),
    runOnce: (sql, params) => {
      const statement = db.prepare(sql)
      try {
        return collect(statement, params, false)
      } finally {
        statement.free()
      }
    }
  }
}

const clientOf = (db: Database) =>
  makeSyncSqliteClient(driverOf(db), { spanAttributes: [["db.system.name", "sqlite"]] }).pipe(Effect.provide(Reactivity.layer))

/**
 * A migrated, empty database image, made once per process: a fresh store is a copy of it,
 * which takes a fraction of running every migration again (docs/decisions.md, "Storage").
 */
let migratedImage: Promise<Uint8Array> | undefined
const loadMigratedImage = (SQL: SqlJsStatic): Promise<Uint8Array> =>
  migratedImage ??= Effect.runPromise(
    Effect.scoped(
      Effect.gen(function*() {
        const db = new SQL.Database()
        const client = yield* clientOf(db)
        yield* Migrator.make({})({ loader: migrations, table: MIGRATIONS_TABLE }).pipe(
          Effect.provideService(SqlClient.SqlClient, client)
        )
        const image = db.export()
        db.close()
        return image
      })
    )
  )

/** A fresh, migrated in-memory SQLite database for each build of the layer, closed with its scope. */
export const SqlJsClient: Layer.Layer<SqlClient.SqlClient> = Layer.scoped(
  SqlClient.SqlClient,
  Effect.gen(function*() {
    const db = yield* Effect.acquireRelease(
      Effect.promise(async () => {
        const SQL = await loadSqlJs()
        return new SQL.Database(await loadMigratedImage(SQL))
      }),
      (db) => Effect.sync(() => db.close())
    )
    return yield* clientOf(db)
  })
)
