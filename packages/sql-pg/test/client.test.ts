/**
 * The client's direct path (docs/benchmarks.md): outside a transaction a statement is one
 * pool.query; inside one it runs on the transaction's connection. Both must behave as
 * @effect/sql's ordinary path does.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import { afterAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { PgStorage } from "../src/index.js"
import { testDatabase } from "../src/testing/index.js"
import { recordingSpans } from "../../../test-support/spans.js"

const db = await testDatabase()
afterAll(() => db.drop())

describe("PostgreSQL client", () => {
  it.effect("a failing statement outside a transaction is a SqlError naming the cause, not a defect", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const error = yield* Effect.flip(sql`SELECT * FROM no_such_table`)
      expect(error._tag).toBe("SqlError")
      expect(String((error.cause as Error).message)).toContain("no_such_table")
      // The pool is fine afterwards.
      expect(yield* sql<{ one: number }>`SELECT 1 AS one`).toEqual([{ one: 1 }])
    }).pipe(Effect.provide(PgStorage.clientLayer({ url: db.url }))))

  it.effect("statements in a transaction share its connection: they see its writes, and a failure rolls them back", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE direct_path (id TEXT PRIMARY KEY)`
      const inside = yield* sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO direct_path (id) VALUES ('a')`
        // Another connection cannot see the uncommitted row; this statement must run on ours.
        return yield* sql<{ id: string }>`SELECT id FROM direct_path`
      }))
      expect(inside).toEqual([{ id: "a" }])
      const failed = yield* Effect.flip(sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO direct_path (id) VALUES ('b')`
        return yield* Effect.fail("stop" as const)
      })))
      expect(failed).toBe("stop")
      expect(yield* sql<{ id: string }>`SELECT id FROM direct_path ORDER BY id`).toEqual([{ id: "a" }])
    }).pipe(Effect.provide(PgStorage.clientLayer({ url: db.url }))))

  it.effect("many statements at once share the pool, none lost", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const answers = yield* Effect.all(
        Array.from({ length: 50 }, (_, i) => sql<{ n: number }>`SELECT ${i}::int AS n`),
        { concurrency: "unbounded" }
      )
      expect(answers.map((rows) => rows[0]!.n)).toEqual(Array.from({ length: 50 }, (_, i) => i))
    }).pipe(Effect.provide(PgStorage.clientLayer({ url: db.url, pool: { max: 3 } }))))

  it.effect("directStatements: false gives every statement @effect/sql's span back; the direct path opens none", () =>
    Effect.gen(function*() {
      const spansOf = (directStatements: boolean) =>
        Effect.flatMap(SqlClient.SqlClient, (sql) => recordingSpans(sql<{ one: number }>`SELECT 1 AS one`)).pipe(
          Effect.provide(PgStorage.clientLayer({ url: db.url, directStatements }))
        )
      const [ordinaryRows, ordinarySpans] = yield* spansOf(false)
      const [directRows, directSpans] = yield* spansOf(true)
      expect(ordinaryRows).toEqual([{ one: 1 }])
      expect(directRows).toEqual([{ one: 1 }])
      expect(ordinarySpans).toEqual(["sql.execute"])
      expect(directSpans).toEqual([])
    }))
})
