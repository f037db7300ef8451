import * as Arbitrary from "effect/Arbitrary"
import * as FastCheck from "effect/FastCheck"
import * as Schema from "effect/Schema"

/**
 * `count` valid inputs of an operation's input schema (fast-check through its Schema arbitrary),
 * encoded as a client sends them; none when the schema has no arbitrary. The same seed, the same samples.
 */
export const schemaSamples = (input: Schema.Schema<any, any, never>, count: number, seed: number): Array<unknown> => {
  const schema = input as Schema.Schema<unknown, unknown, never>
  try {
    const encode = Schema.encodeSync(schema)
    return FastCheck.sample(Arbitrary.make(schema), { numRuns: count, seed }).flatMap((value) => {
      try {
        return [encode(value)]
      } catch {
        return []
      }
    })
  } catch {
    return []
  }
}
