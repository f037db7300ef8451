import * as Arbitrary from "effect/Arbitrary"
import * as FastCheck from "effect/FastCheck"
import * as Schema from "effect/Schema"
import { jsonProblem } from "../../src/protocol/JsonLimits.js"

/**
 * `count` valid inputs of an operation's input schema (fast-check through its Schema arbitrary),
 * encoded as a client sends them; none when the schema has no arbitrary. The same seed, the same samples.
 * Samples the server refuses before any schema sees them (a `__proto__` key fast-check may make;
 * protocol/JsonLimits.ts) are left out: they are not valid bodies.
 */
export const schemaSamples = (input: Schema.Schema<any, any, never>, count: number, seed: number): Array<unknown> => {
  const schema = input as Schema.Schema<unknown, unknown, never>
  try {
    const encode = Schema.encodeSync(schema)
    return FastCheck.sample(Arbitrary.make(schema), { numRuns: count, seed }).flatMap((value) => {
      try {
        const body = encode(value)
        return jsonProblem(JSON.stringify(body), JSON.parse(JSON.stringify(body))) === undefined ? [body] : []
      } catch {
        return []
      }
    })
  } catch {
    return []
  }
}
