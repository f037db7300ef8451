import { type AtriumHandler, createAtrium } from "@atrium/core"
import { toNodeListener } from "@atrium/node-http"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { CONNECTIONS_CHECKING_INTERVAL_MILLIS, defaultConnectionLimits, limitConnections } from "./Connections.js"
import { docsPage } from "./DocsPage.js"
import type { ServerEnv } from "./Env.js"
import { storageFromUrl } from "./Storage.js"

export interface RunningServer {
  readonly atrium: AtriumHandler
  readonly server: Server
  readonly url: string
  /** Stops accepting connections, finishes the requests under way, closes storage. */
  readonly close: () => Promise<void>
}

export interface ServeOptions {
  /** Where the one-line-per-request log goes (default stdout). */
  readonly log?: (line: string) => void
}

/**
 * One line per request on stdout, written once per turn of the event loop:
 * under load that is one write for many requests rather than one each.
 */
const stdoutLines = () => {
  let pending: Array<string> = []
  const flush = () => {
    if (pending.length === 0) return
    const text = pending.join("\n") + "\n"
    pending = []
    process.stdout.write(text)
  }
  return {
    log: (line: string) => {
      if (pending.push(line) === 1) setImmediate(flush)
    },
    flush
  }
}

/** The deepest message of an error and its causes: what the driver said (connection refused, …). */
const rootMessage = (error: unknown): string => {
  let current = error
  while (current instanceof Error && current.cause !== undefined) current = current.cause
  const text = current instanceof Error ? current.message : String(current)
  return text === "" ? String(error) : text
}

/** Storage open and migrated, or a clear error (never a server that answers 503 forever). */
const openedOrFail = async (atrium: AtriumHandler, description: string) => {
  try {
    await atrium.ready()
  } catch (error) {
    await atrium.dispose().catch(() => undefined)
    throw new Error(`cannot open the database (${description}): ${rootMessage(error)}`)
  }
}

/** Starts Atrium on node:http with the storage `env.databaseUrl` names. */
export const serve = async (env: ServerEnv, options: ServeOptions = {}): Promise<RunningServer> => {
  const stdout = stdoutLines()
  const log = options.log ?? stdout.log
  const storage = storageFromUrl(env.databaseUrl, env)
  const atrium = createAtrium({ storage: storage.layer, options: env.options, runJobs: true, runDeliveries: true })
  await openedOrFail(atrium, storage.description)
  const requestLine = (method: string, path: string, status: number, ms: number) =>
    log(`${new Date().toISOString()} ${method} ${path} ${status} ${ms.toFixed(1)}ms`)
  const api = toNodeListener(atrium, {
    onResponse: (request, response, ms) => requestLine(request.method, request.path, response.status, ms)
  })
  const docs = docsPage()
  const server = createServer({ connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MILLIS }, (req, res) => {
    const started = performance.now()
    if (docs.handle(req, res)) requestLine(req.method ?? "GET", (req.url ?? "").split("?")[0]!, res.statusCode, performance.now() - started)
    else api(req, res)
  })
  limitConnections(server, { ...defaultConnectionLimits, ...env.connections })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(env.port, env.host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const url = `http://${env.host === "0.0.0.0" ? "127.0.0.1" : env.host}:${port}`
  log(`atrium listening on ${url} (${storage.description})`)
  return {
    atrium,
    server,
    url,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        // Connections idle now, and each one as its request under way is answered: a client's
        // keep-alive would otherwise hold the close for the keep-alive timeout.
        server.closeIdleConnections()
        const idle = setInterval(() => server.closeIdleConnections(), 50)
        server.once("close", () => clearInterval(idle))
      })
      await atrium.dispose()
      stdout.flush()
    }
  }
}

/**
 * `atrium worker`: webhook delivery and background jobs with no HTTP server. `once`: what is
 * due now, then the storage is closed (for a scheduler); otherwise until `close()`.
 */
export async function work(env: ServerEnv, options: { readonly once: true }): Promise<{ readonly deliveries: number; readonly jobTasks: number }>
export async function work(env: ServerEnv, options: { readonly once: false }): Promise<{ readonly close: () => Promise<void> }>
export async function work(env: ServerEnv, options: { readonly once: boolean }) {
  const storage = storageFromUrl(env.databaseUrl, env)
  if (options.once) {
    const atrium = createAtrium({ storage: storage.layer, options: env.options })
    try {
      await openedOrFail(atrium, storage.description)
      return await atrium.runDue()
    } finally {
      await atrium.dispose()
    }
  }
  const atrium = createAtrium({ storage: storage.layer, options: env.options, runJobs: true, runDeliveries: true })
  await openedOrFail(atrium, storage.description)
  process.stdout.write(`atrium worker running (${storage.description})\n`)
  return { close: () => atrium.dispose() }
}
