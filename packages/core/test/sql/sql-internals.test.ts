/**
 * What the direct-statement path reads from @effect/sql beyond its documented API
 * (src/sql/SqlInternals.ts). After an @effect/sql upgrade, a failure here names the assumption
 * that broke; fix SqlInternals.ts (or turn the direct path off) before raising the peer range.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Statement from "@effect/sql/Statement"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import { CHECKED_SQL_VERSION, commitOf, ordinaryCommit, replaceCommit, segmentsOf } from "../../src/sql/SqlInternals.js"
import { SqlJsClient } from "../../src/testing/SqlJsClient.js"
import { recordingSpans } from "../../../../test-support/spans.js"

const packageJson = (path: string) => JSON.parse(readFileSync(path, "utf8"))
const installed: string = packageJson(join(dirname(createRequire(import.meta.url).resolve("@effect/sql/SqlClient")), "..", "..", "package.json")).version
const corePeerRange: string = packageJson(join(import.meta.dirname, "..", "..", "package.json")).peerDependencies["@effect/sql"]

const upgraded = `@effect/sql ${installed} changed what src/sql/SqlInternals.ts relies on (checked against ${CHECKED_SQL_VERSION})`

/** A client that only builds and compiles statements: @effect/sql's own statements, untouched. */
const compileOnly = SqlClient.make({ acquirer: Effect.dieMessage("no connection"), compiler: Statement.makeCompilerSqlite(), spanAttributes: [] }).pipe(
  Effect.provide(Reactivity.layer)
)

describe("@effect/sql internals", () => {
  it("the installed version is the one checked, and core's peer range stays within its minor", () => {
    expect(installed, `${upgraded}? If every other test here passes, set CHECKED_SQL_VERSION and core's peer range to ${installed}.`)
      .toBe(CHECKED_SQL_VERSION)
    expect(corePeerRange, "core's peer range on @effect/sql must allow only the checked minor").toBe(`~${CHECKED_SQL_VERSION}`)
  })

  it.scoped("a template statement keeps its parts, in order, as `segments`", () =>
    Effect.gen(function*() {
      const sql = yield* compileOnly
      const statement = sql`SELECT ${1} FROM ${sql("t")} WHERE id IN ${sql.in(["a", "b"])}`
      const segments = segmentsOf(statement)
      expect(Array.isArray(segments), `${upgraded}: a statement has no \`segments\` array`).toBe(true)
      expect(segments.map((segment) => segment._tag), `${upgraded}: the segments' tags`).toEqual(
        ["Literal", "Parameter", "Literal", "Identifier", "Literal", "ArrayHelper"]
      )
      expect(segments.map((segment) => "value" in segment ? segment.value : undefined), `${upgraded}: the segments' values`)
        .toEqual(["SELECT ", 1, " FROM ", "t", " WHERE id IN ", ["a", "b"]])
      expect(statement.compile(), `${upgraded}: compile()`).toEqual(["SELECT ? FROM \"t\" WHERE id IN (?,?)", [1, "a", "b"]])
    }))

  it.scoped("a statement runs as its commit(): one set on the instance replaces how it runs", () =>
    Effect.gen(function*() {
      const sql = yield* compileOnly
      const statement = sql`SELECT 1`
      expect(typeof (Object.getPrototypeOf(statement) as { commit?: unknown }).commit, `${upgraded}: a statement's class has no commit()`)
        .toBe("function")
      replaceCommit(statement, () => Exit.succeed([{ replaced: true }]))
      expect(commitOf(statement), `${upgraded}: commitOf does not call the instance's commit`).toEqual(Exit.succeed([{ replaced: true }]))
      expect(yield* statement, `${upgraded}: running a statement no longer runs its commit()`).toEqual([{ replaced: true }])
    }))

  it.scoped("the prototype's commit is @effect/sql's own, traced path, whatever the instance's says", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient // the direct path's client: statements run without spans
      const [direct, directSpans] = yield* recordingSpans(sql<{ one: number }>`SELECT 1 AS one`)
      const [ordinary, ordinarySpans] = yield* recordingSpans(ordinaryCommit(sql`SELECT 1 AS one`))
      expect(direct).toEqual([{ one: 1 }])
      expect(ordinary, `${upgraded}: the prototype's commit does not run the statement`).toEqual([{ one: 1 }])
      expect(directSpans).toEqual([])
      expect(ordinarySpans, `${upgraded}: the ordinary path opens no "sql.execute" span`).toContain("sql.execute")
    }).pipe(Effect.provide(SqlJsClient)))
})
