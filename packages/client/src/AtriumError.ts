import type { ErrorStatus } from "./Operations.generated.js"

/**
 * A call that did not succeed. `status` is the API's error status (`NOT_FOUND`, …), `httpStatus`
 * the HTTP status it came with. Two come from the client itself: `UNAVAILABLE` with `httpStatus`
 * 0 when no answer arrived (as gRPC clients report a dead connection), `CANCELLED` when the call's
 * signal aborted it; and `UNKNOWN` when the answer is not Atrium's envelope (a proxy's error page).
 */
export class AtriumError<S extends ErrorStatus = ErrorStatus> extends Error {
  override readonly name = "AtriumError"
  readonly status: S
  readonly httpStatus: number
  /** The operation that was called, e.g. `organizationsDocumentsGet`. */
  readonly operation: string
  /** Only where the spec shows a numeric `code` (users/data/delete/status). */
  readonly code?: number
  readonly details?: Readonly<Record<string, unknown>>
  /** RESOURCE_EXHAUSTED: seconds until a retry can succeed (the `Retry-After` header). */
  readonly retryAfterSeconds?: number

  constructor(fields: {
    readonly status: S
    readonly message: string
    readonly httpStatus: number
    readonly operation: string
    readonly code?: number | undefined
    readonly details?: Readonly<Record<string, unknown>> | undefined
    readonly retryAfterSeconds?: number | undefined
    readonly cause?: unknown
  }) {
    super(fields.message, fields.cause === undefined ? undefined : { cause: fields.cause })
    this.status = fields.status
    this.httpStatus = fields.httpStatus
    this.operation = fields.operation
    if (fields.code !== undefined) this.code = fields.code
    if (fields.details !== undefined) this.details = fields.details
    if (fields.retryAfterSeconds !== undefined) this.retryAfterSeconds = fields.retryAfterSeconds
  }
}
