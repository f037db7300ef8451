/**
 * The repositories and the migrations are written once for both databases, so the migrations
 * must build the same schema on each: the same tables with the same columns in the same order,
 * the same primary keys, and the same indexes (name, table, columns, unique, partial). A
 * dialect difference written wrong in a migration fails here, and so does a printed script
 * (`atrium migrate --print`) that builds anything else than the migrations do.
 */
import { PgStorage } from "@atrium/sql-pg"
import { testDatabase } from "@atrium/sql-pg/testing"
import { SqliteStorage } from "@atrium/sql-sqlite"
import { MemoryStorage } from "../../src/testing/index.js"
import * as SqlClient from "@effect/sql/SqlClient"
import { afterAll, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"

const db = await testDatabase()
afterAll(() => db.drop())

interface Shape {
  /** table → its columns in order, then `pk:` and its primary key columns. */
  readonly tables: Record<string, ReadonlyArray<string>>
  /** index name → `table(columns) unique? partial?`. */
  readonly indexes: Record<string, string>
}

const describeIndex = (table: string, columns: string, unique: boolean, partial: boolean) =>
  `${table}(${columns})${unique ? " unique" : ""}${partial ? " partial" : ""}`

const sqliteShape = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const tables: Record<string, ReadonlyArray<string>> = {}
  const indexes: Record<string, string> = {}
  const names = yield* sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
  for (const { name } of names) {
    const columns = yield* sql<{ name: string; pk: number }>`SELECT name, pk FROM pragma_table_info(${name}) ORDER BY cid`
    const pk = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name)
    tables[name] = [...columns.map((c) => c.name), `pk:${pk.join(",")}`]
    const list = yield* sql<{ name: string; unique: number; origin: string; partial: number }>`SELECT * FROM pragma_index_list(${name})`
    for (const index of list.filter((i) => i.origin === "c")) {
      const columnsOf = yield* sql<{ name: string | null }>`SELECT name FROM pragma_index_info(${index.name}) ORDER BY seqno`
      // An expression (`lower(owner_email)`) has no column name.
      indexes[index.name] = describeIndex(name, columnsOf.map((c) => c.name ?? "expr").join(","), index.unique === 1, index.partial === 1)
    }
  }
  return { tables, indexes } satisfies Shape
})

const postgresShape = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const tables: Record<string, Array<string>> = {}
  const columns = yield* sql<{ table_name: string; column_name: string }>`SELECT table_name, column_name
    FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`
  for (const c of columns) (tables[c.table_name] ??= []).push(c.column_name)
  const indexes: Record<string, string> = {}
  const rows = yield* sql<{ index_name: string; table_name: string; is_unique: boolean; is_primary: boolean; partial: boolean; columns: string }>`
    SELECT c.relname AS index_name, t.relname AS table_name, ix.indisunique AS is_unique, ix.indisprimary AS is_primary,
      ix.indpred IS NOT NULL AS partial,
      (SELECT string_agg(COALESCE(a.attname, 'expr'), ',' ORDER BY k.ord) FROM unnest(ix.indkey) WITH ORDINALITY AS k(attnum, ord)
        LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum) AS columns
    FROM pg_index ix JOIN pg_class c ON c.oid = ix.indexrelid JOIN pg_class t ON t.oid = ix.indrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace
    WHERE n.nspname = 'public'`
  for (const row of rows) {
    if (row.is_primary) tables[row.table_name]!.push(`pk:${row.columns}`)
    else indexes[row.index_name] = describeIndex(row.table_name, row.columns, row.is_unique, row.partial)
  }
  return { tables, indexes } satisfies Shape
})

/** The tables but the Migrator's own. */
const withoutMigrationsTable = (shape: Shape): Shape => {
  const { atrium_migrations: _, ...tables } = shape.tables
  return { tables, indexes: shape.indexes }
}

/** Runs a printed script statement by statement (the drivers prepare one statement at a time). */
const runScript = (script: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.forEach(script.split(/;\n/).map((s) => s.replace(/^--.*$/gm, "").trim()).filter((s) => s !== ""), (statement) =>
      sql.unsafe(statement), { discard: true }))

it.effect("the migrations build the same tables, keys and indexes on SQLite, PostgreSQL and in memory", () =>
  Effect.gen(function*() {
    const sqlite = yield* Effect.provide(Effect.zipRight(SqliteStorage.migrate, sqliteShape), SqliteStorage.clientLayer({ filename: ":memory:" }))
    const postgres = yield* Effect.provide(Effect.zipRight(PgStorage.migrate, postgresShape), PgStorage.clientLayer({ url: db.url }))
    const memory = yield* Effect.provide(sqliteShape, MemoryStorage)
    expect(Object.keys(sqlite.tables)).toContain("atrium_migrations")
    expect(Object.keys(withoutMigrationsTable(sqlite).tables)).toHaveLength(40)
    expect(withoutMigrationsTable(postgres)).toEqual(withoutMigrationsTable(sqlite))
    expect(memory).toEqual(sqlite)
  }))

it.effect("`migrate --print` prints, for each dialect, a script that builds what the migrations build", () =>
  Effect.gen(function*() {
    const sqliteScript = yield* SqliteStorage.printMigrations
    const pgScript = yield* PgStorage.printMigrations
    expect(sqliteScript).toMatch(/^-- 0001_core\nCREATE TABLE workspaces \(/)
    expect(sqliteScript).not.toContain("COLLATE")
    expect(pgScript).toContain(`id TEXT COLLATE "C" PRIMARY KEY`)
    expect(pgScript).toContain("created_at BIGINT NOT NULL")

    const migrated = yield* Effect.provide(Effect.zipRight(SqliteStorage.migrate, sqliteShape), SqliteStorage.clientLayer({ filename: ":memory:" }))
    const printed = yield* Effect.provide(Effect.zipRight(runScript(sqliteScript), sqliteShape), SqliteStorage.clientLayer({ filename: ":memory:" }))
    expect(printed).toEqual(withoutMigrationsTable(migrated))

    const fresh = yield* Effect.promise(() => testDatabase())
    const pgPrinted = yield* Effect.provide(Effect.zipRight(runScript(pgScript), postgresShape), PgStorage.clientLayer({ url: fresh.url })).pipe(
      Effect.ensuring(Effect.promise(() => fresh.drop()))
    )
    const pgMigrated = yield* Effect.provide(Effect.zipRight(PgStorage.migrate, postgresShape), PgStorage.clientLayer({ url: db.url }))
    expect(pgPrinted).toEqual(withoutMigrationsTable(pgMigrated))
  }))
