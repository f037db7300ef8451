/**
 * A fresh Atrium on the storage named, behind a real node:http server on loopback, as the typed
 * clients' tests call it: optionally under a mount path, and with `routes` that answer the requests
 * they know (a test page, a host's token endpoint) before Atrium sees them.
 */
import type { AtriumHandler, AtriumOptionsInput } from "@atrium/core"
import { CapturedMail, MemoryStorage, testAtrium } from "@atrium/core/testing"
import { attachRealtime, toNodeListener } from "@atrium/node-http"
import { PgStorage } from "@atrium/sql-pg"
import { testDatabase } from "@atrium/sql-pg/testing"
import { SqliteStorage } from "@atrium/sql-sqlite"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { listen } from "./backends.js"

export interface HttpAtrium {
  readonly url: string
  readonly atrium: AtriumHandler
  readonly stop: () => Promise<void>
  /**
   * Stops listening and cuts every open connection, HTTP and WebSocket, without a close frame (as a
   * crash or a lost network would): clients see their sockets drop and their reconnects refused
   * until `resume` listens again on the same port.
   */
  readonly interrupt: () => Promise<{ readonly resume: () => Promise<void> }>
}

export const serveAtrium = async (
  /** A storage by name (a fresh one), or a storage Layer the caller owns (two servers on one database). */
  storage: "memory" | "sqlite" | "postgres" | Parameters<typeof testAtrium>[0],
  { basePath, options = {}, realtime = false, routes }: {
    readonly options?: AtriumOptionsInput
    readonly basePath?: string
    /** Serve the realtime WebSocket too (node-http's attachRealtime). */
    readonly realtime?: boolean
    readonly routes?: (req: IncomingMessage, res: ServerResponse) => boolean
  } = {}
): Promise<HttpAtrium> => {
  const dir = storage === "sqlite" ? mkdtempSync(join(tmpdir(), "atrium-http-")) : undefined
  const db = storage === "postgres" ? await testDatabase() : undefined
  const atrium = testAtrium(
    typeof storage !== "string" ? storage : db ? PgStorage.layer({ url: db.url }) : dir ? SqliteStorage.layer({ filename: join(dir, "atrium.db") }) : MemoryStorage,
    options,
    CapturedMail.layer // keeps the sign-in mails out of the test output
  )
  await atrium.ready()
  const api = toNodeListener(atrium, basePath === undefined ? {} : { basePath })
  const server = createServer((req, res) => {
    if (routes?.(req, res) !== true) api(req, res)
  })
  const sockets = realtime ? attachRealtime(server, atrium, basePath === undefined ? {} : { basePath }) : undefined
  const connections = new Set<Socket>()
  server.on("connection", (socket) => {
    connections.add(socket)
    socket.on("close", () => connections.delete(socket))
  })
  const url = await listen(server)
  return {
    url,
    atrium,
    interrupt: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      connections.forEach((socket) => socket.destroy())
      await closed
      return { resume: () => new Promise<void>((resolve) => server.listen(Number(new URL(url).port), "127.0.0.1", () => resolve())) }
    },
    stop: async () => {
      await sockets?.close()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await atrium.dispose()
      await db?.drop()
      if (dir) rmSync(dir, { recursive: true, force: true })
    }
  }
}
