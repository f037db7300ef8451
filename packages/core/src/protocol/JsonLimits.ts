/**
 * What a parsed request body may hold beyond being JSON (docs/decisions.md, "Protocol"):
 * no deeper than MAX_JSON_DEPTH, no U+0000 (PostgreSQL text cannot hold it), no lone surrogate
 * (no storage could keep it as sent). Checked once, before any operation sees the body, so no
 * schema, storage or log has to cope with them.
 */

/** Objects and arrays inside one another, the body's own object counted as 1. */
export const MAX_JSON_DEPTH = 64

const TOO_DEEP = `Request body is nested deeper than ${MAX_JSON_DEPTH} levels of objects and arrays.`
const NUL = "Strings must not contain the NUL character (\\u0000)."
const LONE_SURROGATE = "Strings must be well-formed Unicode: a surrogate (\\ud800-\\udfff) must be one of a pair."

/** A body can only carry U+0000 or a lone surrogate as a `\u` escape (the bytes are UTF-8). */
const MAY_HOLD_BAD_CHARACTER = /\\u(?:0000|[dD][89a-fA-F])/

/** With the `u` flag a surrogate only matches on its own: a pair is one code point. */
const LONE = /[\ud800-\udfff]/u

const badString = (value: string): string | undefined =>
  value.includes("\u0000") ? NUL : LONE.test(value) ? LONE_SURROGATE : undefined

const walk = (value: unknown, depth: number, strings: boolean): string | undefined => {
  if (typeof value === "string") return strings ? badString(value) : undefined
  if (typeof value !== "object" || value === null) return undefined
  if (depth > MAX_JSON_DEPTH) return TOO_DEEP
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = walk(item, depth + 1, strings)
      if (problem !== undefined) return problem
    }
    return undefined
  }
  for (const key in value) {
    const problem = (strings ? badString(key) : undefined) ?? walk((value as Record<string, unknown>)[key], depth + 1, strings)
    if (problem !== undefined) return problem
  }
  return undefined
}

/** Why the parsed body `value` (of JSON `text`) is refused, or undefined. */
export const jsonProblem = (text: string, value: unknown): string | undefined =>
  walk(value, 1, MAY_HOLD_BAD_CHARACTER.test(text))
