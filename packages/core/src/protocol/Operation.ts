import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type * as Schema from "effect/Schema"
import type { ApiError } from "./ApiError.js"
import { makeDecoder } from "./Decode.js"
import type { ErrorStatus } from "./ErrorStatus.js"
import type { TokenResource, TokenUser } from "../tokens/Jwt.js"

/** What an INTERNAL-with-details answer becomes under `strictStatuses`. */
export type StrictStatus = "ALREADY_EXISTS" | "NOT_FOUND"

/** The server API's three authentication modes, and the client API's: a user's token (client-api.md). */
export type AuthMode = "apiKey" | "workspace" | "public" | "user"

/** Who is calling: every record an API-key operation touches belongs to `apiKey`. */
export interface ApiKeyCaller {
  readonly mode: "apiKey"
  readonly apiKey: string
  readonly workspaceId: string
  readonly ip: string
}
export interface WorkspaceCaller {
  readonly mode: "workspace"
  readonly workspaceId: string
  readonly ip: string
}
export interface PublicCaller {
  readonly mode: "public"
  readonly ip: string
}
/** A user calling with the token `generate_token` issued: acts inside the token's API key, as the token's user. */
export interface UserCaller {
  readonly mode: "user"
  readonly apiKey: string
  readonly userId: string
  readonly user: TokenUser
  /** The token's `permissions.resources`: grants the access rule counts (the same array for every call with this token). */
  readonly tokenResources: ReadonlyArray<TokenResource>
  /** When the token expires, epoch ms. */
  readonly expiresAt: number
  readonly ip: string
}
export type CallerOf<A extends AuthMode> = A extends "apiKey" ? ApiKeyCaller
  : A extends "workspace" ? WorkspaceCaller
  : A extends "user" ? UserCaller
  : PublicCaller

/** An operation's request, decoded and accepted: the organization it touches, and how to answer it for a caller. */
export interface Accepted<A extends AuthMode> {
  readonly organizationId: string | undefined
  readonly run: (caller: CallerOf<A>) => Effect.Effect<unknown, ApiError>
}

/**
 * One row of the operation table, as `defineOperation` makes it. Routing, decoding, the
 * envelope, the OpenAPI document and the reference table are all derived from these rows.
 * The row's own input, output and service types are checked where it is declared, and
 * stay inside `bind`; what the table shows of them is the schemas.
 *
 * `R` is what running the operation needs: its service. The dispatcher binds each row
 * once, when it is built, and runs the bound row on every request.
 */
export interface OperationOf<A extends AuthMode, R> {
  /** Stable name, e.g. `organizations.documents.get`. */
  readonly name: string
  /** Every path the operation answers on (`/v1/...`, `/v2/...`). */
  readonly paths: ReadonlyArray<string>
  readonly auth: A
  readonly summary: string
  /** Schema of the request's `data`. */
  readonly input: Schema.Schema.AnyNoContext
  /** Schema of the response's `result`. */
  readonly output: Schema.Schema.AnyNoContext
  /** Errors the handler can fail with (protocol errors are added for every operation). */
  readonly errors: ReadonlyArray<ErrorStatus>
  /** HTTP status of a success (default 200). */
  readonly successStatus?: number
  /**
   * Where the hosted service answers some items' failure as INTERNAL with details (a client's
   * input, not a defect): the status that answer takes under the `strictStatuses` option.
   */
  readonly strictStatus?: StrictStatus
  /**
   * The organization whose data the call reads or writes (of the decoded input, whose type
   * the row hides). The dispatcher refuses the call with PERMISSION_DENIED while that
   * organization is disabled.
   */
  readonly organization?: (input: never) => string | undefined
  /**
   * The operation on its service, taken from `context` once: decodes a request's `data` (an
   * INVALID_ARGUMENT naming the field when it is not the input) and accepts it.
   */
  readonly bind: (context: Context.Context<R>) => (data: unknown) => Either.Either<Accepted<A>, ApiError<"INVALID_ARGUMENT">>
}

/** Any row of the table: one per authentication mode, so that `auth` tells which caller `run` takes. */
export type Operation<R = unknown> = { readonly [A in AuthMode]: OperationOf<A, R> }[AuthMode]

/** Declares an operation; the type parameters check the handler against its service, the schemas and the error list. */
export const defineOperation = <
  const A extends AuthMode,
  I,
  IE,
  O,
  OE,
  Id,
  S,
  const E extends ErrorStatus = never
>(operation: {
  readonly name: string
  readonly paths: ReadonlyArray<string>
  readonly auth: A
  readonly summary: string
  readonly input: Schema.Schema<I, IE, never>
  readonly output: Schema.Schema<O, OE, never>
  readonly errors?: ReadonlyArray<E>
  readonly successStatus?: number
  readonly strictStatus?: StrictStatus
  readonly organization?: (input: I) => string | undefined
  readonly service: Context.Tag<Id, S>
  readonly handler: (service: S, input: I, caller: CallerOf<A>) => Effect.Effect<O, ApiError<E>>
}): OperationOf<A, Id> => {
  const { handler, organization } = operation
  return {
    errors: [],
    ...operation,
    bind: (context) => {
      const service = Context.get(context, operation.service)
      const decode = makeDecoder(operation.input)
      return (data) =>
        Either.map(decode(data), (input) => ({
          organizationId: organization?.(input),
          run: (caller) => handler(service, input, caller)
        }))
    }
  }
}

/** Errors any operation can answer, beside those its handler declares. */
export const protocolErrors = (operation: Operation): ReadonlyArray<ErrorStatus> =>
  operation.auth === "public" ? ["INVALID_ARGUMENT", "INTERNAL"]
    : operation.auth === "user" ? ["INVALID_ARGUMENT", "UNAUTHENTICATED", "PERMISSION_DENIED", "INTERNAL"]
    : ["INVALID_ARGUMENT", "PERMISSION_DENIED", "INTERNAL"]

/**
 * Every error status the operation can answer: the protocol's, its handler's, its strict status
 * and, for an organization's data, PERMISSION_DENIED while that organization is disabled. What
 * the OpenAPI document, the reference and the client's types list.
 */
export const errorsOf = (operation: Operation): ReadonlyArray<ErrorStatus> =>
  Array.from(new Set([
    ...protocolErrors(operation),
    ...operation.errors,
    ...(operation.strictStatus ? [operation.strictStatus] : []),
    ...(operation.organization ? ["PERMISSION_DENIED" as const] : [])
  ]))
