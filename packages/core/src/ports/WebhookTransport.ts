import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

export interface OutgoingRequest {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly timeoutMillis: number
}

export interface IncomingResponse {
  readonly status: number
  readonly body: string
}

export class TransportError extends Data.TaggedError("TransportError")<{ readonly reason: "timeout" | "network"; readonly message: string }> {}

/** Outgoing HTTP port for webhook deliveries and permission-provider calls. */
export class WebhookTransport extends Context.Tag("@atrium/core/WebhookTransport")<WebhookTransport, {
  readonly post: (request: OutgoingRequest) => Effect.Effect<IncomingResponse, TransportError>
}>() {
  /** `fetch` with no redirects followed and a hard timeout. */
  static readonly Fetch = Layer.succeed(WebhookTransport, {
    post: (request) =>
      Effect.tryPromise({
        try: async (signal) => {
          const response = await fetch(request.url, {
            method: "POST",
            headers: request.headers,
            body: request.body,
            redirect: "manual",
            signal: AbortSignal.any([signal, AbortSignal.timeout(request.timeoutMillis)])
          })
          const text = await response.text()
          return { status: response.status, body: text.slice(0, 20_000) }
        },
        catch: (cause) =>
          new TransportError(
            cause instanceof Error && cause.name === "TimeoutError"
              ? { reason: "timeout", message: `no answer within ${request.timeoutMillis} ms` }
              : { reason: "network", message: cause instanceof Error ? cause.message : String(cause) }
          )
      })
  })
}
