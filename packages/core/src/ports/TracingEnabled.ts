import * as Context from "effect/Context"
import { makeSampler, type Sampler } from "../protocol/Sampling.js"

/**
 * Whether Atrium traces: set by `createAtrium({ tracing })`. Off, the request path opens no span and
 * the SQL storages run statements directly (no @effect/sql span); on, every operation gets a span
 * and every statement takes @effect/sql's spanned path. Read once, when the dispatcher and the
 * storage are built, so an untraced request pays nothing for it.
 */
export class TracingEnabled extends Context.Reference<TracingEnabled>()("@atrium/core/TracingEnabled", {
  defaultValue: () => false
}) {}

/**
 * Which requests are traced when Atrium traces (protocol/Sampling.ts): set by
 * `createAtrium({ traceSampling })`; by default OpenTelemetry's, `parentbased_always_on`.
 */
export class TraceSampler extends Context.Reference<TraceSampler>()("@atrium/core/TraceSampler", {
  defaultValue: (): Sampler => makeSampler({ sampler: "parentbased_always_on" })
}) {}
