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

/**
 * A decoder for an operation's `data`: a schema violation is INVALID_ARGUMENT,
 * whose message names the first offending field and whose `details.issues`
 * lists every problem (docs/decisions.md, "Product rulings").
 */
export const makeDecoder = <I, IE>(schema: Schema.Schema<I, IE, never>) => {
  const decode = Schema.decodeUnknownEither(schema, { errors: "all", onExcessProperty: "error" })
  const decodeWithIssues = (data: unknown): Either.Either<I, ApiError<"INVALID_ARGUMENT">> =>
    Either.mapLeft(decode(data), (error) => {
      const issues: Array<Issue> = ParseResult.ArrayFormatter.formatErrorSync(error)
        .slice(0, MAX_ISSUES)
        .map((issue) => ({
          path: ["data", ...issue.path.map((key) => typeof key === "number" ? key : String(key))],
          message: shorten(issue._tag === "Unexpected" ? "is not a known parameter" : issue.message)
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
