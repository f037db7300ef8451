/**
 * What a parsed request body may hold beyond being JSON (docs/decisions.md, "Protocol"):
 * no deeper than MAX_JSON_DEPTH, no U+0000 (PostgreSQL text cannot hold it), no lone surrogate
 * (no storage could keep it as sent), no number too large to be finite (JSON.parse makes it
 * Infinity, which JSON then writes as null), no `__proto__` key (some objects would drop it,
 * others keep it) and no key twice in one object (JSON.parse keeps the last one, which whatever
 * read the first did not see). Checked once, before any operation sees the body, so no schema,
 * storage or log has to cope with them.
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
const DUPLICATE_KEY = "is given more than once: a key may appear only once in an object"

/** A body can only carry U+0000 or a lone surrogate as a `\u` escape (the bytes are UTF-8). */
const MAY_HOLD_BAD_CHARACTER = /\\u(?:0000|[dD][89a-fA-F])/

/** With the `u` flag a surrogate only matches on its own: a pair is one code point. */
const LONE = /[\ud800-\udfff]/u

const badString = (value: string): Found | undefined =>
  value.includes("\u0000") ? NUL : LONE.test(value) ? LONE_SURROGATE : undefined

/** Keys of the objects walked, to compare with the text's: fewer means a key was given twice. */
let keysWalked = 0

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
    keysWalked++
    if (key === "__proto__") return { message: PROTO_KEY, path: [key] }
    const found = (strings ? badString(key) : undefined) ?? walk((value as Record<string, unknown>)[key], depth + 1, strings)
    if (found !== undefined) {
      found.path?.unshift(key)
      return found
    }
  }
  return undefined
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const COLON = 0x3a
const COMMA = 0x2c

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

/** Whether the quote at `at` is escaped: an odd number of backslashes before it. */
const isEscaped = (text: string, at: number): boolean => {
  let backslashes = 0
  while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++
  return backslashes % 2 === 1
}

/** The closing quote of the string that opens at `start` (the text is valid JSON). */
const stringEnd = (text: string, start: number): number => {
  let end = text.indexOf("\"", start + 1)
  while (isEscaped(text, end)) end = text.indexOf("\"", end + 1)
  return end
}

/**
 * Colons that may follow a key: those after a quote (white space between) that no backslash
 * escapes. Every key's colon is one, so there are at least as many as keys in the text; a colon
 * inside a string (a URL, a time) is one only right after its opening quote, as in `":x"`.
 */
const keyColons = (text: string): number => {
  let count = 0
  for (let i = text.indexOf(":"); i !== -1; i = text.indexOf(":", i + 1)) {
    let before = i - 1
    while (isSpace(text.charCodeAt(before))) before--
    if (text.charCodeAt(before) === QUOTE && !isEscaped(text, before)) count++
  }
  return count
}

/** Whether the string ending at `end` is a key: the next character but white space is a colon. */
const isKey = (text: string, end: number): boolean => {
  let next = end + 1
  while (isSpace(text.charCodeAt(next))) next++
  return text.charCodeAt(next) === COLON
}

/** The path of the first key given twice in one object of the (valid) JSON text, the key last. */
const duplicateKey = (text: string): Array<string | number> | undefined => {
  // Per open object its keys so far, per open array undefined; `path` holds where in each the scan is.
  const open: Array<Set<string> | undefined> = []
  const path: Array<string | number> = []
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === QUOTE) {
      const end = stringEnd(text, i)
      const keys = open[open.length - 1]
      if (keys !== undefined && isKey(text, end)) {
        const raw = text.slice(i + 1, end)
        const key: string = raw.includes("\\") ? JSON.parse(text.slice(i, end + 1)) : raw
        path[path.length - 1] = key
        if (keys.has(key)) return path
        keys.add(key)
      }
      i = end
    } else if (c === 0x7b) { // {
      open.push(new Set())
      path.push("")
    } else if (c === 0x5b) { // [
      open.push(undefined)
      path.push(0)
    } else if (c === 0x7d || c === 0x5d) { // } ]
      open.pop()
      path.pop()
    } else if (c === COMMA && open[open.length - 1] === undefined) {
      path[path.length - 1] = (path[path.length - 1] as number) + 1
    }
  }
  return undefined
}

/** Why the parsed body `value` (of JSON `text`) is refused, or undefined. */
export const jsonProblem = (text: string, value: unknown): ApiError<"INVALID_ARGUMENT"> | undefined => {
  keysWalked = 0
  const found = walk(value, 1, MAY_HOLD_BAD_CHARACTER.test(text))
  if (found !== undefined) {
    return found.path === undefined ? invalidArgument(found.message) : invalidAt([{ path: found.path, message: found.message }])
  }
  // No more colons that may follow a key than keys walked (nearly every body): no key was given twice.
  if (keyColons(text) === keysWalked) return undefined
  const duplicate = duplicateKey(text)
  return duplicate === undefined ? undefined : invalidAt([{ path: duplicate, message: DUPLICATE_KEY }])
}
