/**
 * Property-based fuzzing of every operation (fast-check, through effect/FastCheck and
 * Schema-derived arbitraries): bodies derived from each operation's input schema, valid and
 * mutated (wrong types, boundaries, huge strings and arrays, deep nesting, lone surrogates,
 * U+0000, `__proto__`/`constructor` keys, extra keys), plus malformed bodies, headers, methods and
 * content types. Every answer is the envelope with a 2xx or 4xx status (with `strictStatuses`,
 * so the hosted service's three INTERNAL answers are 4xx too), and a refused call commits no
 * write to any table (counted by triggers the test adds to the Atrium's database). FUZZ_RUNS (default 12 bodies per operation and backend) runs more on demand; the seed
 * is printed so a failure can be replayed with FUZZ_SEED.
 */
import * as FastCheck from "effect/FastCheck"
import { expect, it } from "vitest"
import { forEachBackend, postgresOverHttp } from "../../../../test-support/backends.js"
import { operations } from "../../src/operations.js"
import { credentialsFor } from "../../src/testing/Harness.js"
import { httpStatusOf } from "../../src/protocol/ErrorStatus.js"
import { countCommittedWrites } from "./committedWrites.js"
import { schemaSamples } from "./schemaSamples.js"

const RUNS = Number(process.env.FUZZ_RUNS ?? 12)
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000)
console.log(`[fuzz] FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}`)

const nested = (depth: number): unknown => depth === 0 ? "leaf" : { a: nested(depth - 1) }

/** Values that break one assumption or another. */
const oddValue = FastCheck.oneof(
  FastCheck.constantFrom<unknown>(
    null, true, 0, -1, 1.5, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1e308, "", " ", "\u0000", "a\ud800b", "\udfff",
    "x".repeat(100_000), "😀".repeat(300), [], [null], {}, { __proto__: { polluted: true } }, JSON.parse('{"__proto__":{"polluted":true}}'),
    { constructor: { prototype: { polluted: true } } }, nested(40), nested(70), Array.from({ length: 10_000 }, (_, i) => i),
    Array.from({ length: 200 }, () => "id"), "<script>alert(1)</script>", "' OR 1=1 --", "../../etc/passwd", "%00", "\r\n\r\n"
  ),
  FastCheck.anything({ maxDepth: 4, withNullPrototype: true, withBigInt: false }).filter((v) => JSON.stringify(v) !== undefined),
  FastCheck.string({ unit: "binary", maxLength: 50 }),
  FastCheck.integer(),
  FastCheck.double()
)

/** A small seeded generator (mulberry32): the same FUZZ_SEED mutates the same way. */
const seeded = (seed: number) => {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  return { nextInt: (min = 0, max = 2 ** 31 - 1) => min + Math.floor(next() * (max - min + 1)) }
}
type Rng = ReturnType<typeof seeded>

/** `value` with one path replaced, removed, or an extra key added (at the top or one level down). */
const mutate = (value: unknown, random: Rng): unknown => {
  const odd = FastCheck.sample(oddValue, { numRuns: 1, seed: random.nextInt() })[0]
  if (typeof value !== "object" || value === null) return odd
  const copy: any = Array.isArray(value) ? [...value] : { ...value }
  const keys = Object.keys(copy)
  const choice = random.nextInt(0, 3)
  if (choice === 0 || keys.length === 0) copy[["extra", "__proto__", "constructor", "prototype"][random.nextInt(0, 3)]!] = odd
  else {
    const key = keys[random.nextInt(0, keys.length - 1)]!
    if (choice === 1) delete copy[key]
    else if (choice === 2) copy[key] = odd
    else copy[key] = mutate(copy[key], random)
  }
  return copy
}

/** Requests no operation takes; `maybe`: one some operations may take (a charset, odd credentials on a public one). */
const MALFORMED: ReadonlyArray<{ readonly method?: string; readonly headers?: Record<string, string>; readonly body?: string; readonly maybe?: true }> = [
  { body: "" },
  { body: "{" },
  { body: "null" },
  { body: "[]" },
  { body: '"data"' },
  { body: '{"data":null}' },
  { body: '{"data":[]}' },
  { body: '{"data":{},"extra":1}' },
  { body: '{"data":' + "[".repeat(5000) + "]".repeat(5000) + "}" },
  { body: '{"data":{"a":"\\ud800"}}' },
  { body: '{"data":{"a":"\\u0000"}}' },
  { body: "\u0000\u0001\u0002" },
  { body: '{"data":{}}', headers: { "content-type": "text/plain" } },
  { body: '{"data":{}}', headers: { "content-type": "application/json; charset=latin1" }, maybe: true },
  { body: '{"data":{}}', headers: { "content-type": "" } },
  { method: "GET" },
  { body: '{"data":{}}', method: "PUT" },
  { method: "DELETE" },
  { body: '{"data":{}}', headers: { "x-service-api-key": "\u00ff\u00fe", "x-service-auth-token": "x".repeat(10_000) }, maybe: true }
]

forEachBackend("fuzz", (ctx) => {
  /** Every answer: JSON, exactly {result} or {error: {status, message, ...}}, and never 5xx. */
  const expectEnvelope = (where: string, answer: { status: number; body: any }) => {
    const context = `${where}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`
    expect(answer.status, context).toBeGreaterThanOrEqual(200)
    expect(answer.status, context).toBeLessThan(500)
    const keys = Object.keys(answer.body ?? {})
    expect(keys.length === 1 && (keys[0] === "result" || keys[0] === "error"), context).toBe(true)
    if (keys[0] === "error") {
      expect(typeof answer.body.error.message, context).toBe("string")
      expect(answer.body.error.message.length, context).toBeGreaterThan(0)
      expect(httpStatusOf[answer.body.error.status as keyof typeof httpStatusOf], context).toBe(answer.status)
    }
  }

  it(`answers ${RUNS} valid and ${RUNS} mutated bodies per operation with the envelope and a 2xx or 4xx`, async () => {
    const { client, workspace } = ctx()
    const creds = await workspace()
    const committedWrites = await countCommittedWrites(ctx().atrium)
    const random = seeded(SEED)
    let requests = 0
    let answered = 0
    let refusedChecked = 0
    for (const [index, operation] of operations.entries()) {
      const valid = schemaSamples(operation.input, RUNS, SEED + index)
      const bodies = [...valid, ...Array.from({ length: RUNS }, (_, i) => mutate(valid[i % Math.max(valid.length, 1)] ?? {}, random))]
      const headers = await credentialsFor(operation.auth, creds, client)
      for (const data of bodies) {
        const writesBefore = await committedWrites()
        const answer = await client.raw({ path: operation.paths[0]!, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ data }) })
        requests++
        if (answer.status < 300) answered++
        const where = `${operation.name} ${JSON.stringify(data).slice(0, 200)}`
        expectEnvelope(where, answer)
        // A refused call leaves nothing behind (SQLite storages: their whole content is compared).
        // Except the hosted service's partial failures (strictStatus): the other items are written by design.
        if (answer.status >= 400 && operation.strictStatus === undefined) {
          refusedChecked++
          expect(await committedWrites(), `${where}: ${answer.text.slice(0, 200)} changed what is stored`).toBe(writesBefore)
        }
      }
    }
    expect(requests).toBeGreaterThan(operations.length * RUNS)
    // The derived bodies reach the operations: a good share is carried out, not all refused.
    console.log(`[fuzz] ${answered} of ${requests} answered 2xx; ${refusedChecked} refused calls checked to leave storage unchanged`)
    expect(answered).toBeGreaterThan(requests / 5)
    // The triggers count: the calls carried out wrote rows.
    expect(await committedWrites()).toBeGreaterThan(100)
  }, 120_000)

  it("answers malformed bodies, headers, methods and content types with the envelope and a 4xx", async () => {
    const { client, workspace } = ctx()
    const creds = await workspace()
    for (const operation of operations) {
      for (const request of MALFORMED) {
        const answer = await client.raw({
          method: request.method ?? "POST",
          path: operation.paths[0]!,
          headers: { "content-type": "application/json", ...creds.headers, ...request.headers },
          ...(request.body !== undefined && { body: request.body })
        })
        const where = `${operation.name} ${JSON.stringify(request).slice(0, 120)}`
        expectEnvelope(where, answer)
        if (request.maybe !== true) expect(answer.status, where).toBeGreaterThanOrEqual(400)
      }
    }
  }, 120_000)
}, { options: { strictStatuses: true } }, [postgresOverHttp])
