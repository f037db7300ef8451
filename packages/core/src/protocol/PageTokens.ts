import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { randomBytes } from "node:crypto"
import { canonicalJson, makePageTokenCodec } from "../crypto/PageToken.js"
import { ServerSecretsRepo } from "../ports/ServerSecretsRepo.js"
import { type ApiError, invalidArgument } from "./ApiError.js"

/**
 * Opaque page tokens: a cursor encrypted and bound to the API key, the
 * operation and the query's filters, so a token is only good for the query
 * that made it (docs/decisions.md, "Product rulings").
 */
export class PageTokens extends Context.Tag("@atrium/core/PageTokens")<PageTokens, {
  readonly encode: (scope: PageScope, cursor: unknown) => Effect.Effect<string>
  readonly decode: (scope: PageScope, token: string) => Effect.Effect<unknown, ApiError<"INVALID_ARGUMENT">>
  /**
   * One keyset page: the position `token` carries (none: the first page), `limit + 1` rows read
   * after it to learn whether more exist, and the token of the next page (undefined on the last),
   * handed to `present` for what the service returns (issue 22: the page, its rows as the domain's records).
   */
  readonly page: <Row, Cursor, Out, E = never>(options: PageOptions<Row, Cursor, Out, E>) => Effect.Effect<Out, E | ApiError<"INVALID_ARGUMENT">>
}>() {
  static readonly layer = Layer.effect(
    PageTokens,
    Effect.gen(function*() {
      const secrets = yield* ServerSecretsRepo
      const secret = yield* secrets.getOrCreate("page-token-key", randomBytes(32).toString("base64"))
      const codec = makePageTokenCodec(Buffer.from(secret, "base64"))
      const binding = (scope: PageScope) => `${scope.apiKey}\n${scope.operation}\n${canonicalJson(scope.filters)}`
      const encode = (scope: PageScope, cursor: unknown) =>
        Effect.map(Clock.currentTimeMillis, (now) => codec.encode(binding(scope), cursor, now))
      const decode = (scope: PageScope, token: string) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => {
          const cursor = codec.decode(binding(scope), token, now)
          return cursor === undefined
            ? Effect.fail(invalidArgument(`Invalid ${scope.tokenName ?? "pageToken"}: it is malformed, expired, or was made for another query.`))
            : Effect.succeed(cursor)
        })
      return {
        encode,
        decode,
        // Combinators rather than a generator, and the page presented in the same step as it is read:
        // every list operation runs this (docs/benchmarks.md).
        page: <Row, Cursor, Out, E>({ cursorOf, limit, present, read, scope, token }: PageOptions<Row, Cursor, Out, E>) => {
          const rows = token === undefined
            ? read(undefined, limit + 1)
            : Effect.flatMap(decode(scope, token), (after) => read(after as Cursor, limit + 1))
          return Effect.flatMap(rows, (rows): Effect.Effect<Out> => {
            const { hasMore, items } = pageOf(rows, limit)
            return hasMore
              ? Effect.map(encode(scope, cursorOf(items[items.length - 1]!)), (next) => present({ items, next }))
              : Effect.succeed(present({ items, next: undefined }))
          })
        }
      }
    })
  )
}

export interface PageOptions<Row, Cursor, Out, E> {
  readonly scope: PageScope
  readonly token: string | undefined
  readonly limit: number
  readonly read: (after: Cursor | undefined, limit: number) => Effect.Effect<ReadonlyArray<Row>, E>
  readonly cursorOf: (row: Row) => Cursor
  /** What the service returns for one page: the page, or the page with its rows mapped to the domain's records. */
  readonly present: (page: Page<Row>) => Out
}

export interface Page<Row> {
  readonly items: ReadonlyArray<Row>
  /** The next page's token; undefined on the last page. */
  readonly next: string | undefined
}

/** What a page token is bound to. */
export interface PageScope {
  readonly apiKey: string
  readonly operation: string
  readonly filters: unknown
  /** The request field that carried the token, for the error message. */
  readonly tokenName?: string
}

/** A keyset page: `limit + 1` rows were read to learn whether more exist. */
export const pageOf = <Row>(rows: ReadonlyArray<Row>, limit: number) => ({
  items: rows.length > limit ? rows.slice(0, limit) : rows,
  hasMore: rows.length > limit
})
