import { type AtriumHandler, MAX_FRAME_BYTES, normalizeBasePath, pathUnder } from "@atrium/core"
import { type IncomingMessage, type Server, STATUS_CODES } from "node:http"
import type { Duplex } from "node:stream"
import { WebSocketServer } from "ws"

export interface RealtimeOptions {
  /** The path prefix Atrium is mounted under, as given to `toNodeListener` (e.g. `/collab`). */
  readonly basePath?: string
  /** How often each socket is pinged; one that has not answered the previous ping by then is dropped. Default 10 s. */
  readonly pingIntervalMillis?: number
}

export interface AttachedRealtime {
  /** Sockets open now. */
  readonly connections: () => number
  /** Stops accepting upgrades and closes every socket (1001, going away). */
  readonly close: () => Promise<void>
}

/** Writes a refusal on the upgrade's socket as an HTTP answer, then ends it. */
const refuse = (socket: Duplex, response: { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: string }) => {
  const headers = { ...response.headers, "content-length": String(Buffer.byteLength(response.body)), connection: "close" }
  socket.end(
    `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? "Error"}\r\n` +
      Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("") + "\r\n" + response.body
  )
}

/**
 * Serves Atrium's realtime WebSocket (`GET <basePath>/v2/client/realtime?token=…`, docs/realtime.md)
 * on a `node:http` server, with `ws`: upgrades under `basePath` are Atrium's (authenticated before
 * the upgrade: a refused token gets its 401 as HTTP), others are left to the server's other
 * `upgrade` listeners. Each socket is pinged every 10 s and dropped when it stops answering (a lost
 * connection is noticed within 20 s); frames over 16 KB close it with 1009.
 */
export const attachRealtime = (server: Server, atrium: AtriumHandler, options: RealtimeOptions = {}): AttachedRealtime => {
  const base = normalizeBasePath(options.basePath)
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, clientTracking: true })
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = pathUnder(base, req.url ?? "/")
    if (path === undefined) return // another listener's
    socket.on("error", () => socket.destroy())
    void atrium.realtime.accept({ path, headers: req.headers, ip: req.socket.remoteAddress }).then((answer) => {
      if (!answer.accepted) return refuse(socket, answer.response)
      wss.handleUpgrade(req, socket, head, (ws) => {
        let alive = true
        ws.on("pong", () => void (alive = true))
        const connection = answer.connect({
          send: (text) => ws.send(text),
          close: (code, reason) => ws.close(code, reason),
          bufferedAmount: () => ws.bufferedAmount
        })
        const ping = setInterval(() => {
          if (!alive) return ws.terminate()
          alive = false
          ws.ping()
        }, options.pingIntervalMillis ?? 10_000)
        ws.on("message", (data, isBinary) => connection.receive(isBinary ? { binary: true } : data.toString()))
        ws.on("error", () => ws.terminate()) // a frame over maxPayload (ws closes with 1009), a broken socket
        ws.on("close", () => {
          clearInterval(ping)
          connection.closed()
        })
      })
    }, () => socket.destroy())
  }
  server.on("upgrade", onUpgrade)
  return {
    connections: () => wss.clients.size,
    close: () =>
      new Promise<void>((resolve) => {
        server.off("upgrade", onUpgrade)
        for (const ws of wss.clients) ws.close(1001, "Server going away.")
        wss.close(() => resolve())
      })
  }
}

