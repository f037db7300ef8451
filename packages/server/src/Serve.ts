import { type AtriumHandler, createAtrium } from "@atrium/core"
import { examples } from "@atrium/core/codegen"
import { attachRealtime, type Log, makeLog, toNodeListener } from "@atrium/node-http"
import { randomUUID } from "node:crypto"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { CONNECTIONS_CHECKING_INTERVAL_MILLIS, defaultConnectionLimits, limitConnections } from "./Connections.js"
import type { ServerEnv } from "./Env.js"
import { SmtpMailer } from "./SmtpMailer.js"
import { storageFromUrl } from "./Storage.js"
import { tracingLayer } from "./Telemetry.js"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Runtime from "effect/Runtime"

export interface RunningServer {
  readonly atrium: AtriumHandler
  readonly server: Server
  readonly url: string
  readonly log: Log
  /** Stops accepting connections, finishes the requests under way, closes storage. */
  readonly close: () => Promise<void>
}

export interface ServeOptions {
  /** Where log lines go, one call each (default: stdout, batched per turn of the event loop). */
  readonly log?: (line: string) => void
}

/**
 * The id of a request, in its log line and its `x-request-id` answer header: the one a proxy
 * in front already gave it (when it looks like an id), or a new one.
 */
const requestIdOf = (req: IncomingMessage): string => {
  const given = req.headers["x-request-id"]
  return typeof given === "string" && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID()
}

/**
 * An error and its causes in one line, outermost first, each message once (an inner one the outer
 * already quotes is left out): "Failed to open SQLite database x: unable to open database file".
 * A failed Effect's FiberFailure is opened to the error inside, so the driver's words are not lost.
 */
export const causeChainMessage = (error: unknown): string => {
  const messages: Array<string> = []
  let current: unknown = Runtime.isFiberFailure(error) ? Cause.squash(error[Runtime.FiberFailureCauseId]) : error
  for (let depth = 0; current !== undefined && depth < 10; depth++) {
    const text = current instanceof AggregateError && current.message === ""
      ? current.errors.map((inner) => (inner instanceof Error ? inner.message : String(inner))).join("; ")
      : current instanceof Error ? current.message : String(current)
    if (text !== "" && !messages.some((outer) => outer.includes(text))) messages.push(text)
    current = current instanceof Error ? current.cause : undefined
  }
  return messages.length === 0 ? String(error) : messages.join(": ")
}

/** The SMTP URL without its password, for the log. */
const redactedSmtp = (url: string) => {
  const parsed = new URL(url)
  if (parsed.password !== "") parsed.password = "redacted"
  return parsed.toString()
}

const cannotOpen = (description: string, error: unknown) => new Error(`cannot open the database (${description}): ${causeChainMessage(error)}`)

/**
 * Pending migrations applied, and said so; then the storage open, or a clear error (never a
 * server that answers 503 forever).
 */
const opened = async (storage: ReturnType<typeof storageFromUrl>, env: ServerEnv, log: Log, background: boolean) => {
  const applied = await Effect.runPromise(storage.migrate).catch((error) => Promise.reject(cannotOpen(storage.description, error)))
  log.info(applied.length > 0 ? `migrations applied: ${applied.join(", ")}` : "database is up to date", { storage: storage.description })
  const tracing = env.tracing === undefined ? undefined : await tracingLayer(env.tracing)
  if (env.tracing) log.info(`tracing to ${env.tracing.url}`, { service: env.tracing.serviceName, sampler: env.tracing.sampling.sampler, ...(env.tracing.sampling.ratio !== undefined && { ratio: env.tracing.sampling.ratio }) })
  if (env.smtp === undefined) log.info("ATRIUM_SMTP_URL is not set: no email is sent (notifications are not mailed, login links go to the log)")
  else log.info(`mail goes through ${redactedSmtp(env.smtp.url)}`, { from: env.smtp.from })
  const atrium = createAtrium({
    storage: storage.migratedLayer,
    ...(env.smtp !== undefined && { mailer: SmtpMailer(env.smtp) }),
    options: env.options,
    runJobs: background,
    runDeliveries: background,
    logger: log.effectLogger,
    // The API reference page (GET /docs) shows them: a recorded request and answer per operation.
    openApiExamples: examples,
    ...(tracing && env.tracing && { tracing, traceSampling: env.tracing.sampling })
  })
  try {
    await atrium.ready()
  } catch (error) {
    await atrium.dispose().catch(() => undefined)
    throw cannotOpen(storage.description, error)
  }
  return atrium
}

/** Why the port could not be had, naming PORT and HOST. */
const cannotListen = (env: ServerEnv, error: unknown) => {
  const code = (error as { readonly code?: unknown }).code
  const why = code === "EADDRINUSE" ? "the port is in use: stop what holds it or set PORT to another"
    : code === "EACCES" ? "permission denied: ports below 1024 need privileges; set PORT to 1024 or above"
    : code === "EADDRNOTAVAIL" ? "this machine has no such address: set HOST to one of its addresses, or 0.0.0.0"
    : causeChainMessage(error)
  return new Error(`cannot listen on ${env.host}:${env.port}: ${why}`)
}

/** Starts Atrium on node:http with the storage `env.databaseUrl` names. */
export const serve = async (env: ServerEnv, options: ServeOptions = {}): Promise<RunningServer> => {
  const log = makeLog(env.log, options.log)
  const storage = storageFromUrl(env.databaseUrl, env)
  // The port is taken first: a busy one is said before any database is created or migrated.
  // Requests that come while the database opens wait for it.
  type Answer = (req: IncomingMessage, res: ServerResponse) => void
  let answer: Answer | undefined
  let answerReady!: (ready: Answer) => void
  let startFailed!: (error: unknown) => void
  const answering = new Promise<Answer>((resolve, reject) => {
    answerReady = resolve
    startFailed = reject
  })
  answering.catch(() => undefined) // a start that fails closes the server: nobody else waits
  const server = createServer({ connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MILLIS }, (req, res) => {
    if (answer !== undefined) return answer(req, res)
    answering.then((ready) => ready(req, res), () => res.destroy())
  })
  limitConnections(server, { ...defaultConnectionLimits, ...env.connections })
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error) => reject(cannotListen(env, error)))
    server.listen(env.port, env.host, () => resolve())
  })
  let atrium: AtriumHandler
  try {
    atrium = await opened(storage, env, log, true)
  } catch (error) {
    startFailed(error)
    await new Promise<void>((resolve) => server.close(() => resolve()))
    throw error
  }
  const api = toNodeListener(atrium, {
    onResponse: (request, response, ms) =>
      log.request({ method: request.method, path: request.path, status: response.status, durationMs: ms, requestId: String(request.headers["x-request-id"] ?? "") })
  })
  answer = (req: IncomingMessage, res: ServerResponse) => {
    const requestId = requestIdOf(req)
    // The adapter hands the request's headers to onResponse: the id rides along with them.
    req.headers["x-request-id"] = requestId
    res.setHeader("x-request-id", requestId)
    api(req, res)
  }
  answerReady(answer)
  // The realtime WebSocket (docs/realtime.md); its token rides in the query, which no log line writes (the request log is of HTTP answers).
  const realtime = attachRealtime(server, atrium)
  const { address, family, port } = server.address() as AddressInfo
  const url = `http://${env.host === "0.0.0.0" ? "127.0.0.1" : env.host}:${port}`
  // What the socket is bound to, beside where to open it: 0.0.0.0 (every interface) is not an address a browser reaches.
  const bound = family === "IPv6" ? `[${address}]:${port}` : `${address}:${port}`
  log.info(`atrium listening on ${url}`, { bound, storage: storage.description, docs: `${url}/docs` })
  return {
    atrium,
    server,
    url,
    log,
    close: async () => {
      await realtime.close()
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        // Connections idle now, and each one as its request under way is answered: a client's
        // keep-alive would otherwise hold the close for the keep-alive timeout.
        server.closeIdleConnections()
        const idle = setInterval(() => server.closeIdleConnections(), 50)
        server.once("close", () => clearInterval(idle))
      })
      await atrium.dispose()
      log.flush()
    }
  }
}

/**
 * `atrium worker`: webhook delivery, email and background jobs with no HTTP server. `once`: what is
 * due now, then the storage is closed (for a scheduler); otherwise until `close()`.
 */
export async function work(env: ServerEnv, options: { readonly once: true }): Promise<{ readonly deliveries: number; readonly jobTasks: number; readonly emails: number }>
export async function work(env: ServerEnv, options: { readonly once: false }): Promise<{ readonly close: () => Promise<void>; readonly log: Log }>
export async function work(env: ServerEnv, options: { readonly once: boolean }) {
  const log = makeLog(env.log)
  const storage = storageFromUrl(env.databaseUrl, env)
  const atrium = await opened(storage, env, log, !options.once)
  if (options.once) {
    try {
      return await atrium.runDue()
    } finally {
      await atrium.dispose()
      log.flush()
    }
  }
  log.info(`atrium worker running (${storage.description})`, { storage: storage.description })
  return { close: () => atrium.dispose().finally(log.flush), log }
}
