/**
 * The duplicate-key check counts instead of scanning (JsonLimits.ts): it may only skip the scan
 * when no key can have been given twice. Checked on random JSON, compact and indented, with one
 * key written twice into it, keys made of quotes, colons and backslashes included.
 */
import * as FastCheck from "effect/FastCheck"
import { expect, it } from "vitest"
import { jsonProblem } from "../../src/protocol/JsonLimits.js"

const TWICE = /is given more than once/

it("finds every key given twice in random JSON, and none where there is none", () => {
  const values = FastCheck.sample(FastCheck.jsonValue({ maxDepth: 5 }), { numRuns: 2000, seed: 3 })
  const keys = FastCheck.sample(
    FastCheck.oneof(FastCheck.string({ unit: "binary", maxLength: 6 }), FastCheck.constantFrom(":", "\\", "a\\", "\"", "\":", " : ")),
    { numRuns: 2000, seed: 4 }
  )
  let found = 0
  values.forEach((value, n) => {
    for (const text of [JSON.stringify({ data: value }), JSON.stringify({ data: value }, null, n % 4)]) {
      // Made from a JavaScript value, the text has no key twice: whatever else is refused, not that.
      const problem = jsonProblem(text, JSON.parse(text))
      expect(problem?.message ?? "", text).not.toMatch(TWICE)
      if (problem !== undefined || keys[n] === "__proto__") continue
      // The key twice at the start of the last object, the second time with a space before its colon
      // (a "{" inside a string makes no JSON: skipped).
      const key = JSON.stringify(keys[n])
      const at = text.lastIndexOf("{")
      const twice = `${text.slice(0, at + 1)}${key}:1, ${key} :[":",2],${text.slice(at + 1).replace(/^\s*}/, "\"z\":0}")}`
      let parsed: unknown
      try {
        parsed = JSON.parse(twice)
      } catch {
        continue
      }
      const refused = jsonProblem(twice, parsed)
      // A NUL or lone surrogate in the random key is refused first.
      if (refused?.message.startsWith("Strings must")) continue
      expect(refused?.message, twice).toMatch(TWICE)
      found++
    }
  })
  expect(found).toBeGreaterThan(2000)
})
