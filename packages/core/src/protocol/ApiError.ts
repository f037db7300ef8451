import * as Data from "effect/Data"
import type { ErrorStatus } from "./ErrorStatus.js"

/**
 * The one typed error of every operation. `S` narrows the statuses an
 * operation can fail with, so an operation's declared `errors` list is checked
 * against what its handler can really return.
 */
export class ApiError<S extends ErrorStatus = ErrorStatus> extends Data.TaggedError("ApiError")<{
  readonly status: S
  readonly message: string
  /** Only where the spec shows a numeric `code` (users/data/delete/status). */
  readonly code?: number
  readonly details?: Readonly<Record<string, unknown>>
  /** RESOURCE_EXHAUSTED: seconds until a retry can succeed, sent as `Retry-After`. */
  readonly retryAfterSeconds?: number
}> {}

const make = <S extends ErrorStatus>(status: S) =>
(message: string, details?: Readonly<Record<string, unknown>>): ApiError<S> =>
  new ApiError(details === undefined ? { status, message } : { status, message, details })

export const invalidArgument = make("INVALID_ARGUMENT")
export const notFound = make("NOT_FOUND")
export const failedPrecondition = make("FAILED_PRECONDITION")
export const permissionDenied = make("PERMISSION_DENIED")
export const resourceExhausted = make("RESOURCE_EXHAUSTED")
export const alreadyExists = make("ALREADY_EXISTS")
export const unauthenticated = make("UNAUTHENTICATED")
export const internal = make("INTERNAL")
export const unavailable = make("UNAVAILABLE")
