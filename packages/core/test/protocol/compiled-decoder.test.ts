import * as Arbitrary from "effect/Arbitrary"
import * as Either from "effect/Either"
import * as FastCheck from "effect/FastCheck"
import * as Schema from "effect/Schema"
import { describe, expect, it } from "vitest"
import { operations } from "../../src/operations.js"
import { compileDecoder, UNDECIDED } from "../../src/protocol/CompiledDecoder.js"
import { makeDecoder } from "../../src/protocol/Decode.js"

/** An operation's input schema, as one type for all of them. */
const inputOf = (name: string) => operations.find((operation) => operation.name === name)!.input as Schema.Schema<any, any, never>

/** Effect's decoder with the options of every operation input (protocol/Decode.ts). */
const effectDecoder = (schema: Schema.Schema<any, any, never>) =>
  Schema.decodeUnknownEither(schema, { errors: "all", onExcessProperty: "error" })

/** Same value, same key order (JSON.stringify tells the order apart where toStrictEqual does not). */
const expectSame = (actual: unknown, expected: unknown) => {
  expect(actual).toStrictEqual(expected)
  const text = (value: unknown) => {
    try {
      return JSON.stringify(value)
    } catch {
      return undefined // a bigint or a cycle: toStrictEqual has compared it
    }
  }
  expect(text(actual)).toBe(text(expected))
}

/** Values near a valid one: each key dropped, an unknown key added, each value replaced by anything. */
const mutationsOf = (valid: unknown, random: ReadonlyArray<unknown>): Array<unknown> => {
  if (typeof valid !== "object" || valid === null || Array.isArray(valid)) return [...random]
  const out: Array<unknown> = [{ ...valid, unexpectedKey: 1 }]
  const keys = Object.keys(valid)
  keys.forEach((key, i) => {
    const { [key]: _dropped, ...rest } = valid as Record<string, unknown>
    out.push(rest)
    out.push({ ...valid, [key]: random[i % random.length] })
    const inner = (valid as Record<string, unknown>)[key]
    for (const mutated of mutationsOf(inner, random.slice(0, 3))) out.push({ ...valid, [key]: mutated })
  })
  return out
}

describe("compiled decoders of operation inputs", () => {
  const compiledOps = operations.filter((operation) => compileDecoder(operation.input.ast) !== undefined)

  it("cover every operation's input but four (records keyed by a refined string: the triggers)", () => {
    const notCompiled = operations.filter((operation) => !compiledOps.includes(operation)).map((operation) => operation.name)
    expect(notCompiled).toEqual(["workspace.notificationconfig.update", "workspace.activityconfig.update", "workspace.emailconfig.update", "workspace.webhookconfig.update"])
  })

  for (const operation of compiledOps) {
    it(`${operation.name}: a value it decodes, Effect decodes to the same value`, async () => {
      const input = inputOf(operation.name)
      const compiled = compileDecoder(input.ast)!
      const effect = effectDecoder(input)
      const valid = FastCheck.sample(Arbitrary.make(input), { numRuns: 100, seed: 42 })
      const random = FastCheck.sample(FastCheck.jsonValue(), { numRuns: 40, seed: 7 })
      // Valid values (the few generated values Effect refuses count as invalid ones below):
      // decoded the same, and almost always by the compiled path itself.
      const accepted = valid.filter((value) => Either.isRight(effect(value)))
      expect(accepted.length).toBeGreaterThanOrEqual(80)
      const decided = accepted.filter((value) => compiled(value) !== UNDECIDED)
      expect(decided.length).toBeGreaterThanOrEqual(accepted.length * 0.9)
      // Every value, valid, invalid or odd: whatever the compiled path decides, Effect decides alike.
      let undecided = 0
      let checked = 0
      for (const value of valid.concat(valid.slice(0, 20).flatMap((v) => mutationsOf(v, random)), random)) {
        // Long for the largest inputs on a busy machine: let the worker answer vitest in between.
        if (++checked % 50 === 0) await new Promise((resolve) => setImmediate(resolve))
        const actual = compiled(value)
        if (actual === UNDECIDED) {
          undecided++
          continue
        }
        const expected = effect(value)
        expect(Either.isRight(expected), JSON.stringify(value)).toBe(true)
        expectSame(actual, Either.getOrThrow(expected))
      }
      expect(undecided).toBeGreaterThan(0)
      // Deterministic (seeded), but commentannotations.add's large samples take 10-60 s on a busy 2-core machine.
    }, 180_000)
  }
})

describe("compileDecoder", () => {
  it("leaves out what it does not know: transformations, classes, recursion", () => {
    expect(compileDecoder(Schema.NumberFromString.ast)).toBeUndefined()
    expect(compileDecoder(Schema.Struct({ at: Schema.Date }).ast)).toBeUndefined()
    class Point extends Schema.Class<Point>("Point")({ x: Schema.Number }) {}
    expect(compileDecoder(Point.ast)).toBeUndefined()
    interface Tree { readonly children: ReadonlyArray<Tree> }
    const Tree: Schema.Schema<Tree> = Schema.Struct({ children: Schema.Array(Schema.suspend(() => Tree)) })
    expect(compileDecoder(Tree.ast)).toBeUndefined()
  })

  it("is undecided on keys Effect treats specially: __proto__, symbols, excess keys", () => {
    const decode = compileDecoder(Schema.Struct({ a: Schema.String }).ast)!
    expect(decode(JSON.parse('{"a":"x","__proto__":{"b":1}}'))).toBe(UNDECIDED)
    expect(decode({ a: "x", [Symbol("s")]: 1 })).toBe(UNDECIDED)
    expect(decode({ a: "x", b: 1 })).toBe(UNDECIDED)
    expect(decode({ a: "x" })).toStrictEqual({ a: "x" })
  })

  it("returns a new object in the schema's key order, as Effect does", () => {
    const schema = Schema.Struct({ a: Schema.String, b: Schema.optionalWith(Schema.Number, { exact: true }) })
    const input = { b: 1, a: "x" }
    const decoded = compileDecoder(schema.ast)!(input)
    expect(decoded).not.toBe(input)
    expect(Object.keys(decoded as object)).toEqual(["a", "b"])
    expectSame(decoded, Either.getOrThrow(effectDecoder(schema)(input)))
  })
})

describe("makeDecoder", () => {
  const decode = makeDecoder(inputOf("organizations.documents.get"))

  it("answers valid data by the compiled path and invalid data with Effect's issues", () => {
    expect(decode({ organizationId: "org", documentIds: ["a"] })).toStrictEqual(Either.right({ organizationId: "org", documentIds: ["a"] }))
    const invalid = decode({ organizationId: "", pageSize: 0, extra: true })
    expect(Either.isLeft(invalid)).toBe(true)
    const error = Either.getLeft(invalid).pipe((o) => o._tag === "Some" ? o.value : undefined)!
    expect(error.message).toBe("Invalid data.extra: is not a known parameter")
    expect((error.details as any).issues.map((issue: any) => issue.path.join("."))).toEqual(["data.extra", "data.organizationId", "data.pageSize"])
  })
})
