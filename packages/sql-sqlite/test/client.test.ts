/**
 * The lean client's fast path must never let a statement into another fiber's
 * transaction: a read beside an open transaction waits for it and never sees
 * its uncommitted writes. Both clients behave the same.
 */
import { mapRows } from "@atrium/core/sql"
import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { clientLayer } from "../src/index.js"
import { recordingSpans } from "../../../test-support/spans.js"

const withDatabase = (client: "lean" | "effect") =>
  Layer.unwrapScoped(
    Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "atrium-client-"))),
      (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
    ).pipe(Effect.map((dir) => clientLayer({ filename: join(dir, "t.db"), client })))
  )

for (const client of ["lean", "effect"] as const) {
  describe(`SqliteStorage client "${client}"`, () => {
    it.live("a read beside an open transaction waits for it and sees only committed data", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE t (id TEXT PRIMARY KEY)`
        const writer = yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`INSERT INTO t (id) VALUES ('uncommitted')`
          yield* Effect.sleep("50 millis")
          return yield* Effect.fail("roll back")
        })).pipe(Effect.either, Effect.fork)
        yield* Effect.sleep("10 millis")
        const seen = yield* sql<{ id: string }>`SELECT id FROM t`
        expect(seen).toEqual([])
        expect((yield* Fiber.join(writer))._tag).toBe("Left")
        yield* sql`INSERT INTO t (id) VALUES ('committed')`
        expect(yield* sql<{ id: string }>`SELECT id FROM t`).toEqual([{ id: "committed" }])
      }).pipe(Effect.provide(withDatabase(client))))

    it.live("statements inside a transaction see its own writes; nested savepoints roll back alone", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE t (id TEXT PRIMARY KEY)`
        const inside = yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`INSERT INTO t (id) VALUES ('a')`
          yield* sql.withTransaction(sql`INSERT INTO t (id) VALUES ('b')`.pipe(Effect.zipRight(Effect.fail("no b")))).pipe(Effect.ignore)
          return yield* sql<{ id: string }>`SELECT id FROM t ORDER BY id`
        }))
        expect(inside).toEqual([{ id: "a" }])
        expect(yield* sql<{ id: string }>`SELECT id FROM t ORDER BY id`).toEqual([{ id: "a" }])
      }).pipe(Effect.provide(withDatabase(client))))

    it.live("a failing statement is a SqlError naming the cause, not a defect; a statement runs each time it is run", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const error = yield* Effect.flip(sql`SELECT * FROM no_such_table`)
        expect(error._tag).toBe("SqlError")
        expect(String((error.cause as Error).message)).toContain("no_such_table")
        yield* sql`CREATE TABLE n (i INTEGER)`
        const insert = sql`INSERT INTO n (i) VALUES (1)`
        yield* Effect.repeatN(insert, 2)
        expect(yield* sql<{ c: number }>`SELECT count(*) AS c FROM n`).toEqual([{ c: 3 }])
      }).pipe(Effect.provide(withDatabase(client))))

    it.live("mapRows: the rows mapped, in or out of a transaction; a failure is a defect; it runs each time it is run", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE n (i INTEGER)`
        const count = sql<{ c: number }>`SELECT count(*) AS c FROM n`.pipe(mapRows((rows: ReadonlyArray<{ c: number }>) => Number(rows[0]!.c)))
        const insert = sql`INSERT INTO n (i) VALUES (1) RETURNING i`.pipe(mapRows((rows) => rows.length))
        expect(yield* insert).toBe(1)
        expect(yield* Effect.repeatN(insert, 1)).toBe(1) // run twice more
        expect(yield* count).toBe(3)
        expect(yield* sql.withTransaction(Effect.zipRight(insert, count))).toBe(4)
        const failed = yield* Effect.exit(sql`SELECT * FROM no_such_table`.pipe(mapRows(() => "never")))
        expect(Exit.isFailure(failed) && Cause.isDie(failed.cause)).toBe(true)
        expect(Exit.isFailure(failed) && (Cause.squash(failed.cause) as { _tag?: string })._tag).toBe("SqlError")
        const thrown = yield* Effect.exit(count.pipe(Effect.zipRight(sql`SELECT 1`.pipe(mapRows(() => {
          throw new Error("mapping failed")
        })))))
        expect(Exit.isFailure(thrown) && Cause.isDie(thrown.cause)).toBe(true)
      }).pipe(Effect.provide(withDatabase(client))))
  })
}

describe("SqliteStorage directStatements", () => {
  it.live("false gives every statement @effect/sql's span back; the direct path opens none", () =>
    Effect.gen(function*() {
      const spansOf = (directStatements: boolean) =>
        Effect.flatMap(SqlClient.SqlClient, (sql) => recordingSpans(sql<{ one: number }>`SELECT 1 AS one`)).pipe(
          Effect.provide(clientLayer({ filename: ":memory:", directStatements }))
        )
      const [ordinaryRows, ordinarySpans] = yield* spansOf(false)
      const [directRows, directSpans] = yield* spansOf(true)
      expect(ordinaryRows).toEqual([{ one: 1 }])
      expect(directRows).toEqual([{ one: 1 }])
      expect(ordinarySpans).toEqual(["sql.execute"])
      expect(directSpans).toEqual([])
    }))
})
