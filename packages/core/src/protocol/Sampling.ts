/**
 * Which requests are traced: OpenTelemetry's samplers by their `OTEL_TRACES_SAMPLER` names
 * (createAtrium's `traceSampling`; docs/observability.md). A request not sampled runs with the
 * tracer off, so neither its operation nor its statements make a span; at full load, tracing every
 * request cost about two thirds of the throughput (docs/benchmarks.md, "Tracing").
 */
import type * as Tracer from "effect/Tracer"

export const TRACE_SAMPLERS = [
  "always_on",
  "always_off",
  "traceidratio",
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio"
] as const
export type TraceSamplerName = typeof TRACE_SAMPLERS[number]

export interface TraceSampling {
  /** OpenTelemetry's default, `parentbased_always_on`: a caller's decision holds; without one, every request. */
  readonly sampler: TraceSamplerName
  /** For the `traceidratio` samplers: the share of traces kept, 0 to 1 (default 1, as OpenTelemetry's). */
  readonly ratio?: number
}

/** Decides for a request from its caller's span (`traceparent`), if any. */
export type Sampler = (parent: Tracer.ExternalSpan | undefined) => boolean

/**
 * A trace id's share as OpenTelemetry's TraceIdRatioBased reads it: its last 56 bits under the ratio,
 * so every service that samples the same trace at the same ratio decides alike.
 */
const ratioOf = (traceId: string) => parseInt(traceId.slice(-14), 16) / 2 ** 56

export const makeSampler = ({ ratio = 1, sampler }: TraceSampling): Sampler => {
  // A root request has no trace id yet (Effect makes it with the span): a random draw, the same odds.
  const byRatio = (parent: Tracer.ExternalSpan | undefined) => (parent === undefined ? Math.random() : ratioOf(parent.traceId)) < ratio
  const root: Sampler = sampler.endsWith("always_on") ? () => true : sampler.endsWith("always_off") ? () => false : byRatio
  return sampler.startsWith("parentbased_") ? (parent) => (parent === undefined ? root(parent) : parent.sampled) : root
}
