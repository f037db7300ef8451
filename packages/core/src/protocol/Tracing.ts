import * as Effect from "effect/Effect"
import * as Tracer from "effect/Tracer"
import type { ApiError } from "./ApiError.js"
import type { Sampler } from "./Sampling.js"

/** W3C trace context: `version-traceId-parentId-flags`, lowercase hex, ids not all zeros. */
const TRACEPARENT = /^[\da-f]{2}-([\da-f]{32})-([\da-f]{16})-([\da-f]{2})$/

/** The caller's span from a `traceparent` header, so Atrium's span joins the caller's trace; none if absent or malformed. */
export const parentFromTraceparent = (header: string | undefined): Tracer.ExternalSpan | undefined => {
  const match = header === undefined ? null : TRACEPARENT.exec(header.trim())
  if (match === null || /^0+$/.test(match[1]!) || /^0+$/.test(match[2]!)) return undefined
  return Tracer.externalSpan({ traceId: match[1]!, spanId: match[2]!, sampled: (parseInt(match[3]!, 16) & 1) === 1 })
}

/**
 * An operation's span: named by its operationId, a server span under the caller's trace when the
 * request carries one; a failure records the API's error status as `atrium.error.status`. A request
 * the sampler leaves out runs with the tracer off: no span for it or its statements.
 */
export const withOperationSpan = <A, R>(
  effect: Effect.Effect<A, ApiError, R>,
  name: string,
  path: string,
  traceparent: string | undefined,
  sampled: Sampler
): Effect.Effect<A, ApiError, R> => {
  const parent = parentFromTraceparent(traceparent)
  if (!sampled(parent)) return Effect.withTracerEnabled(effect, false)
  return Effect.withSpan(
    Effect.tapError(effect, (error) => Effect.annotateCurrentSpan("atrium.error.status", error.status)),
    name,
    {
      kind: "server",
      attributes: { "atrium.operation": name, "atrium.path": path },
      ...(parent ? { parent } : {})
    }
  )
}
