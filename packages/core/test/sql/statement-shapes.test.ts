import * as Statement from "@effect/sql/Statement"
import * as Effect from "effect/Effect"
import * as FastCheck from "effect/FastCheck"
import { describe, expect, it } from "vitest"
import { makeStatementShapes } from "../../src/sql/StatementShapes.js"

// Statements are only built and compiled here, never run.
const constructor = (compiler: Statement.Compiler) => Statement.make(Effect.die("not run"), compiler, [], undefined)
// PostgreSQL's numbered placeholders ($1, $2, ...): core does not depend on @effect/sql-pg.
const numbered = Statement.makeCompiler({
  dialect: "pg",
  placeholder: (index) => `$${index}`,
  onIdentifier: Statement.defaultEscape('"'),
  onRecordUpdate: () => ["", []],
  onCustom: () => ["", []]
})
const dialects = {
  sqlite: constructor(Statement.makeCompilerSqlite()),
  pg: constructor(numbered)
}
type Sql = typeof dialects.sqlite

// Templates declared once, as repository statements are: the same strings objects on every call.
const templates: ReadonlyArray<(sql: Sql, a: unknown, b: unknown) => Statement.Statement<unknown>> = [
  (sql, a, b) => sql`SELECT id FROM t WHERE a = ${a} AND b = ${b}`,
  (sql, a, b) => sql`${a} AND ${b}`,
  (sql, a, b) => sql`x = ${a}${b} ORDER BY id`,
  (sql, a, b) => sql`UPDATE t SET ${a} WHERE k = ${b}`
]

/** An argument of a template: a value, or any kind of fragment a repository writes. */
type Arg =
  | { readonly kind: "value"; readonly value: string | number | boolean | null }
  | { readonly kind: "template"; readonly template: number; readonly a: Arg; readonly b: Arg }
  | { readonly kind: "in"; readonly values: ReadonlyArray<string | number> }
  | { readonly kind: "literal"; readonly text: string }
  | { readonly kind: "unsafe"; readonly params: ReadonlyArray<number> }
  | { readonly kind: "identifier"; readonly name: string }
  | { readonly kind: "insert"; readonly row: Record<string, number> }

const { arg } = FastCheck.letrec<{ arg: Arg }>((tie) => ({
  arg: FastCheck.oneof(
    { depthSize: "small", withCrossShrink: true },
    FastCheck.record({ kind: FastCheck.constant("value" as const), value: FastCheck.oneof(FastCheck.string(), FastCheck.integer(), FastCheck.boolean(), FastCheck.constant(null)) }),
    FastCheck.record({ kind: FastCheck.constant("in" as const), values: FastCheck.array(FastCheck.oneof(FastCheck.string(), FastCheck.integer()), { maxLength: 4 }) }),
    FastCheck.record({ kind: FastCheck.constant("literal" as const), text: FastCheck.constantFrom("", "LIMIT 11", "LIMIT 1001", " AND 1=1", "id") }),
    FastCheck.record({ kind: FastCheck.constant("unsafe" as const), params: FastCheck.array(FastCheck.integer(), { maxLength: 2 }) }),
    FastCheck.record({ kind: FastCheck.constant("identifier" as const), name: FastCheck.constantFrom("id", "name", "a.b") }),
    FastCheck.record({ kind: FastCheck.constant("insert" as const), row: FastCheck.constant({ a: 1, b: 2 }) }),
    FastCheck.record({
      kind: FastCheck.constant("template" as const),
      template: FastCheck.integer({ min: 0, max: templates.length - 1 }),
      a: tie("arg"),
      b: tie("arg")
    })
  )
}))

const build = (sql: Sql, value: Arg): unknown => {
  switch (value.kind) {
    case "value":
      return value.value
    case "template":
      return templates[value.template]!(sql, build(sql, value.a), build(sql, value.b))
    case "in":
      return sql.in("id", value.values)
    case "literal":
      return sql.literal(value.text)
    case "unsafe": // a literal that carries parameters of its own
      return Statement.unsafeFragment(value.params.map(() => "?").join(", "), value.params)
    case "identifier":
      return sql(value.name)
    case "insert":
      return sql.insert(value.row)
  }
}

const statementOf = (sql: Sql, top: { template: number; a: Arg; b: Arg }) =>
  templates[top.template]!(sql, build(sql, top.a), build(sql, top.b))

const top = FastCheck.record({ template: FastCheck.integer({ min: 0, max: templates.length - 1 }), a: arg, b: arg })

describe("statement shapes", () => {
  for (const [dialect, sql] of Object.entries(dialects)) {
    it(`${dialect}: gives what @effect/sql's compiler gives, the first time and every later time`, () => {
      const compile = makeStatementShapes()
      FastCheck.assert(
        FastCheck.property(top, (shape) => {
          // The same shape twice: learned, then remembered (values differ between the two builds
          // only where the generator put them; the text must still match the compiler's).
          for (let i = 0; i < 2; i++) {
            const statement = statementOf(sql, shape)
            expect(compile(statement)).toStrictEqual(statement.compile())
          }
        }),
        { numRuns: 500 }
      )
    })
  }

  it("hands out the same text object for every statement of a shape, with each one's own parameters", () => {
    const compile = makeStatementShapes()
    const sql = dialects.pg
    const list = (ids: ReadonlyArray<string>, after: string | undefined) =>
      sql`SELECT id FROM documents WHERE api_key = ${"k"}${ids.length > 0 ? sql` AND ${sql.in("id", ids)}` : sql.literal("")}${
        after !== undefined ? sql` AND id > ${after}` : sql.literal("")
      } ORDER BY id ${sql.literal("LIMIT 11")}`
    const [first] = compile(list(["a", "b"], undefined))
    const [second, params] = compile(list(["c", "d"], undefined))
    expect(second).toBe(first)
    expect(params).toStrictEqual(["k", "c", "d"])
    const [other, otherParams] = compile(list(["c", "d", "e"], "b")) // another list length, another condition
    expect(other).toBe('SELECT id FROM documents WHERE api_key = $1 AND "id" IN ($2,$3,$4) AND id > $5 ORDER BY id LIMIT 11')
    expect(otherParams).toStrictEqual(["k", "c", "d", "e", "b"])
  })

  it("forgets its shapes past the bound, and still compiles right", () => {
    const compile = makeStatementShapes(3)
    const sql = dialects.sqlite
    for (let limit = 0; limit < 20; limit++) {
      const statement = sql`SELECT id FROM t WHERE a = ${limit} ${sql.literal(`LIMIT ${limit}`)}`
      expect(compile(statement)).toStrictEqual([`SELECT id FROM t WHERE a = ? LIMIT ${limit}`, [limit]])
    }
  })
})
