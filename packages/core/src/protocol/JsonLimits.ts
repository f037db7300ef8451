/**
 * What a parsed request body may hold beyond being JSON (docs/decisions.md, "Protocol"):
 * no deeper than MAX_JSON_DEPTH, no U+0000 (PostgreSQL text cannot hold it), no lone surrogate
 * (no storage could keep it as sent), no number too large to be finite (JSON.parse makes it
 * Infinity, which JSON then writes as null) and no `__proto__` key (some objects would drop it,
 * others keep it). Checked once, before any operation sees the body, so no schema, storage or
 * log has to cope with them.
 */
import { type ApiError, invalidArgument } from "./ApiError.js"
import { invalidAt } from "./Decode.js"

/** Objects and arrays inside one another, the body's own object counted as 1. */
export const MAX_JSON_DEPTH = 64

/** A problem: its message, and for one about a place, the path to it (built on the way out). */
interface Found {
  readonly message: string
  readonly path?: Array<string | number>
}

const TOO_DEEP: Found = { message: `Request body is nested deeper than ${MAX_JSON_DEPTH} levels of objects and arrays.` }
const NUL: Found = { message: "Strings must not contain the NUL character (\\u0000)." }
const LONE_SURROGATE: Found = { message: "Strings must be well-formed Unicode: a surrogate (\\ud800-\\udfff) must be one of a pair." }
const NOT_FINITE = "must be a finite number (at most 1.8e308 in size)"
const PROTO_KEY = "is not allowed as a key"

/** A body can only carry U+0000 or a lone surrogate as a `\u` escape (the bytes are UTF-8). */
const MAY_HOLD_BAD_CHARACTER = /\\u(?:0000|[dD][89a-fA-F])/

/** With the `u` flag a surrogate only matches on its own: a pair is one code point. */
const LONE = /[\ud800-\udfff]/u

const badString = (value: string): Found | undefined =>
  value.includes("\u0000") ? NUL : LONE.test(value) ? LONE_SURROGATE : undefined

const walk = (value: unknown, depth: number, strings: boolean): Found | undefined => {
  if (typeof value === "string") return strings ? badString(value) : undefined
  if (typeof value === "number") return Number.isFinite(value) ? undefined : { message: NOT_FINITE, path: [] }
  if (typeof value !== "object" || value === null) return undefined
  if (depth > MAX_JSON_DEPTH) return TOO_DEEP
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = walk(value[i], depth + 1, strings)
      if (found !== undefined) {
        found.path?.unshift(i)
        return found
      }
    }
    return undefined
  }
  for (const key in value) {
    if (key === "__proto__") return { message: PROTO_KEY, path: [key] }
    const found = (strings ? badString(key) : undefined) ?? walk((value as Record<string, unknown>)[key], depth + 1, strings)
    if (found !== undefined) {
      found.path?.unshift(key)
      return found
    }
  }
  return undefined
}

/** Why the parsed body `value` (of JSON `text`) is refused, or undefined. */
export const jsonProblem = (text: string, value: unknown): ApiError<"INVALID_ARGUMENT"> | undefined => {
  const found = walk(value, 1, MAY_HOLD_BAD_CHARACTER.test(text))
  if (found === undefined) return undefined
  return found.path === undefined ? invalidArgument(found.message) : invalidAt([{ path: found.path, message: found.message }])
}
