import type * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import type { ApiError } from "./ApiError.js"
import type { ErrorStatus } from "./ErrorStatus.js"

/** What an INTERNAL-with-details answer becomes under `strictStatuses`. */
export type StrictStatus = "ALREADY_EXISTS" | "NOT_FOUND"

/** The spec's three authentication modes. */
export type AuthMode = "apiKey" | "workspace" | "public"

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
export type CallerOf<A extends AuthMode> = A extends "apiKey" ? ApiKeyCaller
  : A extends "workspace" ? WorkspaceCaller
  : PublicCaller

/**
 * One row of the operation table. Routing, decoding, the envelope, the OpenAPI
 * document and the reference table are all derived from these rows.
 *
 * `R` is what running the operation needs: its service. The dispatcher looks the
 * service up once, when it is built, and hands it to `handler` on every request.
 */
export interface Operation<
  A extends AuthMode = AuthMode,
  I = any,
  O = any,
  E extends ErrorStatus = ErrorStatus,
  R = any
> {
  /** Stable name, e.g. `organizations.documents.get`. */
  readonly name: string
  /** Every path the operation answers on (`/v1/...`, `/v2/...`). */
  readonly paths: ReadonlyArray<string>
  readonly auth: A
  readonly summary: string
  /** Schema of the request's `data`. */
  readonly input: Schema.Schema<I, any, never>
  /** Schema of the response's `result`. */
  readonly output: Schema.Schema<O, any, never>
  /** Errors the handler can fail with (protocol errors are added for every operation). */
  readonly errors: ReadonlyArray<E>
  /** HTTP status of a success (default 200). */
  readonly successStatus?: number
  /**
   * Where the hosted service answers some items' failure as INTERNAL with details (a client's
   * input, not a defect): the status that answer takes under the `strictStatuses` option.
   */
  readonly strictStatus?: StrictStatus
  /**
   * The organization whose data the call reads or writes. The dispatcher
   * refuses the call with PERMISSION_DENIED while that organization is disabled.
   */
  readonly organization?: (input: I) => string | undefined
  /** The service that carries the operation out. */
  readonly service: Context.Tag<R, any>
  readonly handler: (service: any, input: I, caller: CallerOf<A>) => Effect.Effect<O, ApiError<E>>
}

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
}): Operation<A, I, O, E, Id> => ({ errors: [], ...operation }) as Operation<A, I, O, E, Id>

/** The services every operation of a table needs. */
export type OperationRequirements<T extends ReadonlyArray<Operation>> = T[number] extends Operation<any, any, any, any, infer R> ? R : never
