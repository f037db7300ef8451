import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"

export interface OutgoingRequest {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly timeoutMillis: number
  /** The most of the answer kept (default 4 KiB, what an attempt records); a permission provider's answer needs more. */
  readonly maxResponseBytes?: number
}

export interface IncomingResponse {
  readonly status: number
  /** The first `maxResponseBytes` of the answer. */
  readonly body: string
  /** The `Retry-After` header, when the answer had one. */
  readonly retryAfter?: string
}

/** No HTTP answer came: the address was refused by the guard, the call timed out, or the network failed. */
export class TransportError extends Data.TaggedError("TransportError")<{
  readonly reason: "refused" | "timeout" | "network"
  readonly message: string
}> {}

/** Outgoing HTTP port for webhook deliveries and permission-provider calls. */
export class WebhookTransport extends Context.Tag("@atrium/core/WebhookTransport")<WebhookTransport, {
  readonly post: (request: OutgoingRequest) => Effect.Effect<IncomingResponse, TransportError>
}>() {}
