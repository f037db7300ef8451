import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { type ApiError, invalidArgument } from "./ApiError.js"
import { compileDecoder, UNDECIDED } from "./CompiledDecoder.js"

export interface Issue {
  readonly path: ReadonlyArray<string | number>
  readonly message: string
}

const MAX_ISSUES = 20

/** `["data", "a", 0, "b"]` -> `data.a[0].b` */
const describe = (path: ReadonlyArray<string | number>) =>
  path.reduce<string>((out, key, i) => typeof key === "number" ? `${out}[${key}]` : i === 0 ? key : `${out}.${key}`, "")

/**
 * INVALID_ARGUMENT for problems at places in the body (paths from its top, `["data", ...]`):
 * the message names the first, `details.issues` lists them all (docs/decisions.md, "Product rulings").
 */
export const invalidAt = (issues: ReadonlyArray<Issue>): ApiError<"INVALID_ARGUMENT"> => {
  const first = issues[0]
  return invalidArgument(first === undefined ? "Invalid data." : `Invalid ${describe(first.path)}: ${first.message}`, { issues })
}

/** Effect's messages quote the actual value; a huge value would bloat the answer. */
const shorten = (message: string) => message.length > 300 ? `${message.slice(0, 297)}...` : message

const EXPECTED = /^Expected (.+), actual (.+)$/s

/**
 * A union's members each say what they expected, as issues of their own at the same place
 * ("Expected \"a\", actual \"x\"", then "\"b\""): told as one that names every allowed value
 * ("Expected \"a\" | \"b\", actual \"x\""); the same issue twice at one place, once.
 */
export const mergeAlternatives = (issues: ReadonlyArray<ParseResult.ArrayFormatterIssue>): Array<ParseResult.ArrayFormatterIssue> => {
  const merged: Array<ParseResult.ArrayFormatterIssue> = []
  const at = new Map<string, { index: number; expected: Array<string>; actual: string }>()
  for (const issue of issues) {
    const place = JSON.stringify(issue.path.map(String))
    const match = issue._tag === "Type" ? EXPECTED.exec(issue.message) : null
    const earlier = at.get(place)
    if (match !== null && earlier !== undefined && earlier.actual === match[2]) {
      if (!earlier.expected.includes(match[1]!)) earlier.expected.push(match[1]!)
      merged[earlier.index] = { ...merged[earlier.index]!, message: `Expected ${earlier.expected.join(" | ")}, actual ${earlier.actual}` }
      continue
    }
    if (merged.some((seen) => seen._tag === issue._tag && seen.message === issue.message && JSON.stringify(seen.path.map(String)) === place)) continue
    if (match !== null && earlier === undefined) at.set(place, { index: merged.length, expected: [match[1]!], actual: match[2]! })
    merged.push(issue)
  }
  return merged
}

/**
 * A decoder for an operation's `data`: a schema violation is INVALID_ARGUMENT,
 * whose message names the first offending field and whose `details.issues`
 * lists every problem (docs/decisions.md, "Product rulings").
 */
export const makeDecoder = <I, IE>(schema: Schema.Schema<I, IE, never>) => {
  const decode = Schema.decodeUnknownEither(schema, { errors: "all", onExcessProperty: "error" })
  const decodeWithIssues = (data: unknown): Either.Either<I, ApiError<"INVALID_ARGUMENT">> =>
    Either.mapLeft(decode(data), (error) => {
      const formatted = ParseResult.ArrayFormatter.formatErrorSync(error)
        .map((issue) => issue._tag === "Unexpected" ? { ...issue, message: "is not a known parameter" } : issue)
      const issues: Array<Issue> = mergeAlternatives(formatted)
        .slice(0, MAX_ISSUES)
        .map((issue) => ({
          path: ["data", ...issue.path.map((key) => typeof key === "number" ? key : String(key))],
          message: shorten(issue.message)
        }))
      return invalidAt(issues)
    })
  // Valid input takes the compiled path; whatever it is unsure of, and so every error, Effect's decoder.
  const compiled = compileDecoder(schema.ast)
  if (compiled === undefined) return decodeWithIssues
  return (data: unknown): Either.Either<I, ApiError<"INVALID_ARGUMENT">> => {
    const value = compiled(data)
    return value === UNDECIDED ? decodeWithIssues(data) : Either.right(value as I)
  }
}
