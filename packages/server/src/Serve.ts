import { type AtriumHandler, createAtrium } from "@atrium/core"
import { toNodeListener } from "@atrium/node-http"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
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

/** Starts Atrium on node:http with the storage `env.databaseUrl` names. */
export const serve = async (env: ServerEnv, { log = (line) => process.stdout.write(line + "\n") }: ServeOptions = {}): Promise<RunningServer> => {
  const storage = storageFromUrl(env.databaseUrl)
  const atrium = createAtrium({ storage: storage.layer, options: env.options, runJobs: true })
  await atrium.ready()
  const listener = toNodeListener(atrium, {
    onResponse: (request, response, ms) =>
      log(`${new Date().toISOString()} ${request.method} ${request.path} ${response.status} ${ms.toFixed(1)}ms`)
  })
  const server = createServer(listener)
  server.keepAliveTimeout = 65_000
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
        server.closeIdleConnections()
      })
      await atrium.dispose()
    }
  }
}
