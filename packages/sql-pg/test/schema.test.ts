/**
 * What only the PostgreSQL package does: its migrations' column types and
 * collations, the `schema` option, and migrating twice.
 */
import { migrationRecord } from "@atrium/core/sql"
import * as SqlClient from "@effect/sql/SqlClient"
import { afterAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { createServer } from "node:net"
import { MIGRATIONS_TABLE, PgStorage } from "../src/index.js"
import { testDatabase } from "../src/testing/index.js"

/** Every migration's id, in order (1, 2, …): the record's, so a new migration does not break these tests. */
const ALL_MIGRATION_IDS = Object.keys(migrationRecord).map((id) => Number(id.split("_")[0]))

const db = await testDatabase()
afterAll(() => db.drop())

/** PGlite serves every connection from one session and ignores startup options, so it cannot honour `schema`. */
const embedded = db.server.startsWith("PGlite")

interface Column {
  readonly table_schema: string
  readonly table_name: string
  readonly column_name: string
  readonly data_type: string
  readonly collation_name: string | null
}

const columnsOf = (sql: SqlClient.SqlClient, schema: string) =>
  sql<Column>`SELECT table_schema, table_name, column_name, data_type, collation_name FROM information_schema.columns
    WHERE table_schema = ${schema} ORDER BY table_name, ordinal_position`

describe("PgStorage", () => {
  it.effect("migrates once: a second run applies nothing", () =>
    Effect.gen(function*() {
      const first = yield* PgStorage.migrate
      expect(first.map(([id]) => id)).toEqual(ALL_MIGRATION_IDS)
      expect(yield* PgStorage.migrate).toEqual([])
      const sql = yield* SqlClient.SqlClient
      const recorded = yield* sql<{ migration_id: number }>`SELECT migration_id FROM ${sql(MIGRATIONS_TABLE)} ORDER BY migration_id`
      expect(recorded.map((r) => r.migration_id)).toEqual(ALL_MIGRATION_IDS)
    }).pipe(Effect.provide(PgStorage.clientLayer({ url: db.url }))))

  it.effect("every text column compares by bytes, every timestamp is BIGINT, fractions are double precision", () =>
    Effect.gen(function*() {
      yield* PgStorage.migrate
      const sql = yield* SqlClient.SqlClient
      const columns = (yield* columnsOf(sql, "public")).filter((c) => c.table_name !== MIGRATIONS_TABLE)
      expect(new Set(columns.map((c) => c.table_name)).size).toBe(40)
      for (const c of columns) {
        const where = `${c.table_name}.${c.column_name}`
        if (c.data_type === "text") expect(c.collation_name, where).toBe("C")
        if (/(_at|_until|^window_start|^last_updated|^agent_version)$/.test(c.column_name)) expect(c.data_type, where).toBe("bigint")
      }
      expect(columns.map((c) => c.data_type).filter((t) => !["text", "bigint", "integer"].includes(t))).toEqual(["double precision"])
    }).pipe(Effect.provide(PgStorage.clientLayer({ url: db.url }))))

  it.effect.skipIf(embedded)("schema: every table and the migrations table live in it, created if missing", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const inSchema = yield* columnsOf(sql, "tenant_one")
      expect(inSchema.filter((c) => c.table_name === MIGRATIONS_TABLE)).not.toEqual([])
      expect(new Set(inSchema.map((c) => c.table_name)).size).toBe(41)
      // Unqualified names (as every repository writes them) resolve to the schema.
      yield* sql`INSERT INTO server_secrets (name, value) VALUES ('where', 'tenant_one')`
      expect(yield* sql`SELECT value FROM tenant_one.server_secrets`).toEqual([{ value: "tenant_one" }])
      // public holds the first tests' tables: not this row.
      expect(yield* sql`SELECT name FROM public.server_secrets WHERE name = 'where'`).toEqual([])
    }).pipe(Effect.provide(PgStorage.layer({ url: db.url, schema: "tenant_one" }))))

  it.effect.skipIf(embedded)("schema: two schemas of one database are two stores", () =>
    Effect.gen(function*() {
      const inSchema = <A>(schema: string, f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
        Effect.provide(Effect.flatMap(SqlClient.SqlClient, f), PgStorage.layer({ url: db.url, schema }))
      yield* inSchema("tenant_two", (sql) => sql`INSERT INTO server_secrets (name, value) VALUES ('only-in-two', 'x')`)
      expect(yield* inSchema("tenant_two", (sql) => sql`SELECT name FROM server_secrets`)).toEqual([{ name: "only-in-two" }])
      expect(yield* inSchema("tenant_three", (sql) => sql`SELECT name FROM server_secrets`)).toEqual([])
    }))

  /** `servers` clients, each with its own pool as separate processes would have, migrating at the same instant. */
  const migrateAtOnce = (servers: number, options: { readonly url: string; readonly schema?: string }) =>
    Effect.all(
      Array.from({ length: servers }, () => Effect.provide(PgStorage.migrate, PgStorage.clientLayer(options))),
      { concurrency: "unbounded" }
    )

  it.effect("servers starting at once on a new database: one applies every migration, the others find them applied", () =>
    Effect.gen(function*() {
      const fresh = yield* Effect.acquireRelease(Effect.promise(() => testDatabase()), (d) => Effect.promise(() => d.drop()))
      const applied = yield* migrateAtOnce(4, { url: fresh.url })
      expect(applied.flat().map(([id]) => id)).toEqual(ALL_MIGRATION_IDS)
    }).pipe(Effect.scoped))

  it.effect.skipIf(embedded)("servers starting at once with a new schema: it is created once and migrated once", () =>
    Effect.gen(function*() {
      for (const schema of ["race_one", "race_two", "race_three"]) {
        const applied = yield* migrateAtOnce(4, { url: db.url, schema })
        expect(applied.flat().map(([id]) => id), schema).toEqual(ALL_MIGRATION_IDS)
      }
    }))

  it("refuses a schema name that would need quoting", () => {
    expect(() => PgStorage.layer({ url: db.url, schema: "Tenant" })).toThrow(/lower-case identifier/)
    expect(() => PgStorage.layer({ url: db.url, schema: "a;drop" })).toThrow(/lower-case identifier/)
  })

  it.effect("pool options reach the client: the connect timeout bounds the wait for a server that never answers", () =>
    Effect.gen(function*() {
      // A local socket that accepts connections and never says a word.
      const silent = createServer(() => {})
      yield* Effect.acquireRelease(
        Effect.async<void>((resume) => void silent.listen(0, "127.0.0.1", () => resume(Effect.void))),
        () => Effect.sync(() => silent.close())
      )
      const { port } = silent.address() as { port: number }
      const started = Date.now()
      const error = yield* Effect.flip(Effect.scoped(Effect.provide(
        SqlClient.SqlClient,
        PgStorage.clientLayer({ url: `postgres://nobody@127.0.0.1:${port}/x`, pool: { connectTimeoutMillis: 300 } })
      )))
      expect(error._tag).toBe("SqlError")
      expect(Date.now() - started).toBeLessThan(3000)
    }).pipe(Effect.scoped))
})
