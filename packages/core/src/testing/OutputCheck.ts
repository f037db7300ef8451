/**
 * Every successful answer a test sees is checked against its operation's `output` schema, the
 * schema `docs/openapi.json` is generated from: a field the API answers and the schema doesn't
 * declare, a declared field missing, or a value of another type fails the test that got it.
 * The check lives in the test clients only; the request path pays nothing for it.
 */
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { operations } from "../operations.js"

type Check = (result: unknown) => Either.Either<unknown, ParseResult.ParseError>

let checks: Map<string, Check> | undefined

/** path → its operation's output check, built on first use. */
const checkFor = (path: string): Check | undefined => {
  checks ??= new Map(
    operations.flatMap((operation) => {
      const check = Schema.decodeUnknownEither(operation.output, { errors: "all", onExcessProperty: "error" })
      return operation.paths.map((path) => [path, check] as const)
    })
  )
  const bare = path.split("?", 1)[0]!.replace(/\/+$/, "")
  const exact = checks.get(bare)
  if (exact) return exact
  // Mounted under a prefix (`/collab/v2/...`): the operation path is the tail.
  for (const [operationPath, check] of checks) if (bare.endsWith(operationPath)) return check
  return undefined
}

/**
 * Why `body` (an answer's parsed JSON) does not match the output schema of the operation at
 * `path`, or undefined when it does, when it is not a success, or when `path` is no operation.
 */
export const outputMismatch = (path: string, status: number, body: unknown): string | undefined => {
  if (status < 200 || status > 299 || typeof body !== "object" || body === null || !("result" in body)) return undefined
  const check = checkFor(path)
  if (!check) return undefined
  const decoded = check(body.result)
  return Either.isLeft(decoded) ? ParseResult.TreeFormatter.formatErrorSync(decoded.left) : undefined
}

/** Throws, naming the path and the mismatch, when a success answer does not match its operation's output schema. */
export const assertOutputMatches = (path: string, status: number, body: unknown): void => {
  const mismatch = outputMismatch(path, status, body)
  if (mismatch !== undefined) {
    throw new Error(`The answer to ${path} (status ${status}) does not match the operation's output schema:\n${mismatch}`)
  }
}
