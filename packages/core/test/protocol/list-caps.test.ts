/**
 * Every list an operation takes has a cap (issue 21: one call's work must stay short on SQLite,
 * where it holds the server's one thread). The operation table's input schemas are walked, so a
 * new list without a cap fails here; and for every capped list of every operation, a request with
 * one entry more than the cap is refused INVALID_ARGUMENT naming the field, and writes nothing.
 * That a call at the cap succeeds is each domain's test (test/<domain>/operations.test.ts).
 */
import * as Arbitrary from "effect/Arbitrary"
import * as FastCheck from "effect/FastCheck"
import * as Schema from "effect/Schema"
import { describe, expect, it } from "vitest"
import { forEachBackend } from "../../../../test-support/backends.js"
import { examples } from "../../src/codegen/Examples.js"
import { operations } from "../../src/operations.js"
import { credentialsFor } from "../../src/testing/Harness.js"
import { type ListCap, listCaps } from "../../src/protocol/ListCaps.js"
import { capTogether, JsonObject, List, maxJsonBytes, NonEmptyIds } from "../../src/schema/Common.js"
import { countCommittedWrites } from "./committedWrites.js"

type ListOf = Extract<ListCap, { maxItems: number | undefined }>
const lists = (schema: Schema.Schema.Any) => listCaps(schema).filter((cap): cap is ListOf => "maxItems" in cap)

describe("list caps", () => {
  it("every list in every operation's input has a cap", () => {
    const uncapped = operations.flatMap((operation) =>
      lists(operation.input).filter((cap) => cap.maxItems === undefined).map((cap) => `${operation.paths[0]} ${cap.path}`)
    )
    expect(uncapped).toEqual([])
    // Not vacuous: the walk finds the lists, nested ones included.
    const all = operations.flatMap((operation) => lists(operation.input).map((cap) => `${operation.paths[0]} ${cap.path}`))
    expect(all).toContain("/v1/users/add users")
    expect(all).toContain("/v2/commentannotations/add commentAnnotations[].commentData[].taggedUserContacts")
    expect(all).toContain("/v2/auth/generate_token permissions.resources")
  })

  it("finds lists in structs, arrays, unions, records, refinements and recursive schemas, caps on lists together, and caps on a value's size as JSON", () => {
    interface Tree { readonly children: ReadonlyArray<Tree> }
    const Tree: Schema.Schema<Tree> = Schema.Struct({ children: Schema.Array(Schema.suspend(() => Tree)) })
    const schema = Schema.Struct({
      capped: List(Schema.String, 3),
      nested: Schema.Array(Schema.Struct({ inner: NonEmptyIds(5) })),
      either: Schema.NullOr(Schema.Array(Schema.Number)),
      byKey: Schema.Record({ key: Schema.String, value: Schema.Array(Schema.String) }),
      tree: Tree,
      payload: JsonObject.pipe(maxJsonBytes(100))
    }).pipe(capTogether({ counted: "capped × nested", max: 7, path: [], product: (v) => [v.capped.length, v.nested.length] }))
    expect(listCaps(schema).map((cap) => "counted" in cap ? [cap.path, cap.counted, cap.max] : "bytes" in cap ? [cap.path, "bytes", cap.bytes] : [cap.path, cap.maxItems])).toEqual([
      ["", "capped × nested", 7],
      ["capped", 3],
      ["nested", undefined],
      ["nested[].inner", 5],
      ["either", undefined],
      ["byKey.*", undefined],
      ["tree.children", undefined],
      // A recursive schema is followed until it comes back to itself.
      ["tree.children[].children", undefined],
      // Not a list: a cap on a value's size as JSON.
      ["payload", "bytes", 100]
    ])
  })

  it("a cap on lists together names both counts and the limit", () => {
    const schema = Schema.Struct({ a: Schema.Array(Schema.String), b: Schema.Array(Schema.String) })
      .pipe(capTogether({ counted: "a × b", max: 6, path: ["b"], product: (v) => [v.a.length, v.b.length] }))
    const decode = Schema.decodeUnknownEither(schema)
    expect(decode({ a: ["1", "2"], b: ["1", "2", "3"] })._tag).toBe("Right")
    const refused = decode({ a: ["1", "2", "3"], b: ["1", "2", "3"] })
    expect(refused._tag).toBe("Left")
    expect(String((refused as any).left)).toContain("a × b must have at most 6 entries: 3 × 3 = 9")
  })
})

/** `data` with the list at `path` (`a.b[].c`: the first entry of each list on the way) set to `entries`; parents made as needed. */
const withList = (data: unknown, path: string, entries: (existing: ReadonlyArray<unknown> | undefined) => Array<unknown>) => {
  const copy = structuredClone(data) as Record<string, any>
  const steps = path.split(".")
  const concrete: Array<string | number> = []
  let at: Record<string, any> = copy
  for (const [i, step] of steps.entries()) {
    const [key, ...lists] = step.split("[]")
    concrete.push(key!)
    if (i === steps.length - 1 && lists.length === 0) {
      at[key!] = entries(Array.isArray(at[key!]) ? at[key!] : undefined)
      break
    }
    // A list on the way: its first entry, made when missing.
    if (lists.length > 0) {
      if (!Array.isArray(at[key!]) || at[key!].length === 0) at[key!] = [{}]
      concrete.push(0)
      at = at[key!][0]
    } else {
      if (typeof at[key!] !== "object" || at[key!] === null) at[key!] = {}
      at = at[key!]
    }
  }
  return { data: copy, concrete }
}

/**
 * `n` entries for a list: copies of the smallest valid entry at hand (the example's first one, or
 * one made from the entry's schema), so that even a list of 1,000 stays under the body limit.
 */
const entriesOf = (cap: ListOf, n: number) => (existing: ReadonlyArray<unknown> | undefined) => {
  const item = Schema.make(cap.item) as Schema.Schema<unknown, unknown, never>
  const encode = Schema.encodeSync(item)
  const made = FastCheck.sample(Arbitrary.make(item), { numRuns: 20, seed: 21 }).map((value) => encode(value))
  const smallest = [...(existing ?? []).slice(0, 1), ...made]
    .sort((a, b) => JSON.stringify(a).length - JSON.stringify(b).length)[0]
  return Array.from({ length: n }, () => structuredClone(smallest))
}

forEachBackend("list caps", (ctx) => {
  it("refuses one entry over any list's cap, naming the field and the cap, and writes nothing", async () => {
    const { atrium, client, workspace } = ctx()
    const creds = await workspace()
    const committedWrites = await countCommittedWrites(atrium)
    let checked = 0
    for (const operation of operations) {
      const path = operation.paths[0]!
      const example = examples[path]!.request.data
      const headers = await credentialsFor(operation.auth, creds, client)
      for (const cap of lists(operation.input)) {
        const { concrete, data } = withList(example, cap.path, entriesOf(cap, cap.maxItems! + 1))
        const before = await committedWrites()
        const answer = await client.post(path, data, headers)
        const where = `${path} ${cap.path}: ${answer.text.slice(0, 300)}`
        expect(answer.status, where).toBe(400)
        expect(answer.body.error.status, where).toBe("INVALID_ARGUMENT")
        if (answer.body.error.details === undefined) expect.fail(`no details.issues: ${where}`)
        expect(answer.body.error.details.issues, where).toContainEqual({
          path: ["data", ...concrete],
          message: `must have at most ${cap.maxItems} entries`
        })
        // Where the list is all that is wrong, the message names it.
        if (answer.body.error.details.issues.length === 1) {
          expect(answer.body.error.message, where).toBe(
            `Invalid data${concrete.map((key) => typeof key === "number" ? `[${key}]` : `.${key}`).join("")}: must have at most ${cap.maxItems} entries`
          )
        }
        expect(await committedWrites(), where).toBe(before)
        checked++
      }
    }
    expect(checked).toBeGreaterThan(60)
  }, 120_000)
})
