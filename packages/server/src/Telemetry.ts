import type { TraceSampling } from "@atrium/core"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as Layer from "effect/Layer"

/** Where `serve` and `worker` send their traces (OTEL_EXPORTER_OTLP_* variables; docs/observability.md). */
export interface TracingSettings {
  /** The OTLP/HTTP traces URL, e.g. http://collector:4318/v1/traces. */
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly serviceName: string
  /** OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG: which requests are traced. */
  readonly sampling: TraceSampling
}

/**
 * The tracer Layer for `createAtrium({ tracing })`: @effect/opentelemetry's OTLP exporter (spans
 * batched and sent as OTLP/HTTP JSON through fetch; no OpenTelemetry SDK). Loaded only when
 * tracing is configured: an untraced server never evaluates it. `@effect/opentelemetry` is built
 * into the `atrium` command, and an optional peer of this package's library entry.
 */
export const tracingLayer = async (settings: TracingSettings): Promise<Layer.Layer<never>> => {
  const [OtlpTracer, OtlpSerialization] = await Promise.all([
    import("@effect/opentelemetry/OtlpTracer"),
    import("@effect/opentelemetry/OtlpSerialization")
  ]).catch((error: unknown) => {
    throw new Error(
      `tracing is configured (OTEL_EXPORTER_OTLP_ENDPOINT) but @effect/opentelemetry cannot be loaded: install it (npm install @effect/opentelemetry@^0.64.1). ${String(error)}`
    )
  })
  return OtlpTracer.layer({
    url: settings.url,
    headers: settings.headers,
    resource: { serviceName: settings.serviceName },
    exportInterval: "1 second"
  }).pipe(Layer.provide(Layer.merge(OtlpSerialization.layerJson, FetchHttpClient.layer)))
}
