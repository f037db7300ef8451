import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as RuntimeFlags from "effect/RuntimeFlags"
import { HostPermissionResolver, type PermissionResolver } from "./access/PermissionProvider.js"
import { makeSecretBox, SecretBox } from "./crypto/SecretBox.js"
import { AtriumConfig, type AtriumOptions, type AtriumOptionsInput, resolveOptions } from "./Config.js"
import { operations } from "./operations.js"
import { docsDocuments } from "./protocol/DocsPage.js"
import { unavailable } from "./protocol/ApiError.js"
import { errorBody } from "./protocol/Envelope.js"
import { type AtriumRequest, type AtriumResponse, type DocumentHandler, makeDispatcher } from "./protocol/Dispatcher.js"
import { openApiDocument, type OperationExample } from "./protocol/OpenApi.js"
import { TraceSampler, TracingEnabled } from "./ports/TracingEnabled.js"
import { makeSampler, type TraceSampling } from "./protocol/Sampling.js"
import { Deliveries } from "./deliveries/Deliveries.js"
import { DeliveryWorker } from "./deliveries/DeliveryWorker.js"
import { Emails } from "./emails/Emails.js"
import { EmailWorker } from "./emails/EmailWorker.js"
import { JobRunner } from "./jobs/JobRunner.js"
import { Ids } from "./ports/Ids.js"
import { Mailer } from "./ports/Mailer.js"
import { StorageHealth } from "./ports/StorageHealth.js"
import { GuardedTransport } from "./ports/NodeTransport.js"
import type { WebhookTransport } from "./ports/WebhookTransport.js"
import { makeRealtimeAccept, type RealtimeAnswer, type RealtimeUpgrade } from "./realtime/RealtimeAccept.js"
import { Tokens } from "./tokens/Tokens.js"
import type { EventListener } from "./events/EventListener.js"
import { DomainServices } from "./Services.js"
import type { StorageServices } from "./Storage.js"

export interface AtriumLayerConfig<E = never, R = never> {
  /** The storage Layer: `MemoryStorage`, `SqliteStorage.layer(...)`, or your own. */
  readonly storage: Layer.Layer<StorageServices, E, R>
  readonly options?: AtriumOptionsInput
  /** Outgoing mail (default: written to the log). */
  readonly mailer?: Layer.Layer<Mailer>
  /** Id generation (default: random). */
  readonly ids?: Layer.Layer<Ids>
  /**
   * Outgoing HTTP for webhooks and the permission provider (default: node:http(s) behind the
   * address guard, lifted by the `allowPrivateNetworks` option).
   */
  readonly transport?: Layer.Layer<WebhookTransport>
  /**
   * Run background jobs (user-data deletion, document migration) in this
   * process for as long as it lives. Off by default: hosts without long-lived
   * processes call `JobRunner.runDue` from a scheduler instead.
   */
  readonly runJobs?: boolean
  /**
   * Deliver webhooks and send notification emails in this process for as long as it lives
   * (background workers). Off by default: hosts without long-lived processes call `runDue()`
   * from a scheduler instead.
   */
  readonly runDeliveries?: boolean
  /**
   * Where Atrium's log lines go (jobs, webhook attempts, failures): a Layer that replaces Effect's
   * logger or sets its minimum level, e.g. `Logger.minimumLogLevel(LogLevel.Warning)`. Default:
   * Effect's logger, on the console, from Info up.
   */
  readonly logger?: Layer.Layer<never>
  /**
   * The recorded request and answer of each path, shown as the examples of `GET /openapi.json`:
   * `examples` from `@atrium/core/codegen` (as `atrium serve` passes them). Without them the
   * document has none, and the handler's bundle carries no example data.
   */
  readonly openApiExamples?: Readonly<Record<string, OperationExample>>
  /**
   * Trace with this Layer's tracer, e.g. `NodeSdk.layer(…)` or `OtlpTracer.layer(…)` from
   * `@effect/opentelemetry`: a span per operation (named by its operationId, under the caller's
   * `traceparent`) and, on the SQL storages, per statement. Without it nothing is traced and
   * nothing is paid for it (docs/observability.md).
   */
  readonly tracing?: Layer.Layer<never>
  /**
   * Which requests `tracing` traces (OpenTelemetry's sampler names, as `OTEL_TRACES_SAMPLER` gives
   * them). Default `parentbased_always_on`: the caller's `traceparent` decides, and without one every
   * request is traced. A request left out makes no span at all.
   */
  readonly traceSampling?: TraceSampling
  /**
   * Your own listeners of domain events, told of every change after Atrium's own (the webhook
   * outbox): in the change's transaction, and once it committed (docs/architecture.md, "Domain events").
   */
  readonly listeners?: ReadonlyArray<EventListener>
  /**
   * Decide access in process instead of calling each key's permission provider URL (the embedded
   * case: your backend would call itself): the queries a provider would get, your results
   * (docs/access.md). Answers are kept and failures deny, as with a URL.
   */
  readonly permissionResolver?: PermissionResolver
}

/** Every service of Atrium as one Layer: for hosts that call the services directly, and for tests that swap ports. */
export const atriumLayer = <E, R>(config: AtriumLayerConfig<E, R>) => {
  const options = AtriumConfig.layer(config.options)
  // The repositories seal and open the secrets they store with it (crypto/SecretBox.ts).
  const secretBox = Layer.sync(SecretBox, () => makeSecretBox(resolveOptions(config.options).encryptionKey))
  const ports = Layer.mergeAll(
    config.storage.pipe(Layer.provide(secretBox)),
    options,
    config.mailer ?? Mailer.Log,
    config.ids ?? Ids.Random,
    config.transport ?? GuardedTransport.pipe(Layer.provide(options)),
    config.permissionResolver === undefined ? Layer.empty : Layer.succeed(HostPermissionResolver, config.permissionResolver)
  )
  const services = DomainServices(config.listeners).pipe(Layer.provideMerge(ports))
  const background = [
    ...(config.runJobs === true ? [JobRunner.background()] : []),
    ...(config.runDeliveries === true ? [DeliveryWorker(), EmailWorker()] : [])
  ]
  const all = background.length === 0 ? services : Layer.mergeAll(...(background as [typeof background[number]])).pipe(Layer.provideMerge(services))
  // Beneath everything, so the storage sees it when it decides how to run statements.
  if (config.tracing === undefined) return all
  const sampling = config.traceSampling === undefined ? Layer.empty : Layer.succeed(TraceSampler, makeSampler(config.traceSampling))
  return all.pipe(Layer.provideMerge(Layer.mergeAll(config.tracing, Layer.succeed(TracingEnabled, true), sampling)))
}

export type AtriumServices = Layer.Layer.Success<ReturnType<typeof atriumLayer<never, never>>>

export interface AtriumHandler {
  /** Answers one request; never rejects. */
  readonly handle: (request: AtriumRequest) => Promise<AtriumResponse>
  /** The same, for runtimes that speak WHATWG `Request`/`Response`. */
  readonly fetch: (request: Request) => Promise<Response>
  /**
   * Resolves once storage is open and migrated; rejects with the cause when it cannot be (requests
   * are then answered 503 UNAVAILABLE). Optional: the first request waits for it too.
   */
  readonly ready: () => Promise<void>
  readonly dispose: () => Promise<void>
  /**
   * Makes every webhook attempt, job task and email that is due now, and resolves with how many:
   * for serverless hosts and cron, which have no background worker (call it every minute or so).
   */
  readonly runDue: () => Promise<{ readonly deliveries: number; readonly jobTasks: number; readonly emails: number }>
  readonly options: AtriumOptions
  /**
   * Realtime (docs/realtime.md): a transport (node-http's `attachRealtime`) asks `accept` for
   * each WebSocket upgrade, then connects the socket or answers the refusal over HTTP.
   */
  readonly realtime: { readonly accept: (request: RealtimeUpgrade) => Promise<RealtimeAnswer> }
  /** The runtime the operations run on: run any service method of `@atrium/core` with it. */
  readonly runtime: ManagedRuntime.ManagedRuntime<AtriumServices, unknown>
}

/**
 * Builds Atrium once: building the runtime (storage opened and migrated, ports,
 * services) starts at once, in the background; a request that arrives before it
 * is done waits for it (as `ready()` does), then every request runs on it.
 */
export const createAtrium = <E, R>(config: AtriumLayerConfig<E, R> & { readonly storage: Layer.Layer<StorageServices, E, never> }): AtriumHandler => {
  const options = resolveOptions(config.options)
  // Without Effect's fiber metrics: five metric updates for every fiber, so every request, and
  // Atrium reports none of them (docs/benchmarks.md).
  // The logger is provided beneath everything: storage's start (migrations) logs through it too.
  const runtime = ManagedRuntime.make(
    Layer.merge(atriumLayer(config), RuntimeFlags.disableRuntimeMetrics).pipe(Layer.provide(config.logger ?? Layer.empty))
  ) as ManagedRuntime.ManagedRuntime<AtriumServices, unknown>
  // Built on first request for it, not at start: cold starts (Lambda) should not pay for it.
  let openApi: string | undefined
  const documents: Record<string, DocumentHandler<AtriumServices>> = {
    ...docsDocuments,
    "/openapi.json": Effect.sync(() => ({
      status: 200,
      body: openApi ??= JSON.stringify(openApiDocument(operations, {
        headerPrefix: options.headerPrefix,
        ...(config.openApiExamples && { examples: config.openApiExamples })
      }))
    })),
    "/.well-known/jwks.json": Effect.map(Tokens.jwks, (keys) => ({ status: 200, body: JSON.stringify(keys) })),
    "/healthz": Effect.flatMap(StorageHealth, (health) => health.ping).pipe(
      Effect.timeout("2 seconds"),
      Effect.match({
        onFailure: () => ({ status: 503, body: JSON.stringify({ status: "unavailable" }) }),
        onSuccess: () => ({ status: 200, body: JSON.stringify({ status: "ok" }) })
      })
    )
  }

  let dispatch: ((request: AtriumRequest) => Promise<AtriumResponse>) | undefined
  let acceptRealtime: ((request: RealtimeUpgrade) => Promise<RealtimeAnswer>) | undefined
  let startFailure: { readonly cause: unknown } | undefined
  const starting = runtime.runtime().then(
    (rt) => {
      dispatch = makeDispatcher<AtriumServices>({ operations, documents, options, runtime: rt })
      acceptRealtime = makeRealtimeAccept(rt)
      return dispatch
    },
    (error) => {
      startFailure = { cause: error }
      console.error("Atrium could not start:", error)
      const body = errorBody(unavailable("Storage is unavailable."))
      return async (): Promise<AtriumResponse> => ({ status: 503, headers: { "content-type": "application/json; charset=utf-8" }, body })
    }
  )

  const handle = (request: AtriumRequest) => dispatch !== undefined ? dispatch(request) : starting.then((d) => d(request))

  return {
    handle,
    fetch: async (request) => {
      const url = new URL(request.url)
      const headers: Record<string, string> = {}
      request.headers.forEach((value, key) => (headers[key] = value))
      const body = request.method === "GET" || request.method === "HEAD" ? undefined : new Uint8Array(await request.arrayBuffer())
      const response = await handle({ method: request.method, path: url.pathname, headers, body })
      // A preflight's 204 has no body: a Response refuses even an empty one with that status.
      return new Response(response.status === 204 ? null : response.body, { status: response.status, headers: response.headers })
    },
    ready: () =>
      starting.then(() => {
        if (startFailure !== undefined) throw startFailure.cause
      }),
    realtime: {
      accept: (request) =>
        starting.then(async (respond) =>
          acceptRealtime !== undefined ? acceptRealtime(request) : { accepted: false, response: await respond({ method: "GET", path: request.path, headers: {}, body: undefined }) }
        )
    },
    dispose: () => runtime.dispose(),
    runDue: () =>
      runtime.runPromise(Effect.gen(function*() {
        const owner = `due_${Date.now().toString(36)}`
        const deliveries = yield* Deliveries.runDue({ owner })
        const jobTasks = yield* JobRunner.runDue(owner)
        const emails = yield* Effect.flatMap(Emails, (emails) => emails.runDue(owner))
        return { deliveries, jobTasks, emails }
      })),
    options,
    runtime
  }
}
