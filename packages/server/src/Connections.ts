import type { Server } from "node:http"
import type { Socket } from "node:net"

/** How long clients may take, and how many connections the server holds (docs/protocol.md, "Connections"). */
export interface ConnectionLimits {
  /** A request's headers must arrive within this (slow-header clients are closed). */
  readonly headersTimeoutMillis: number
  /** A whole request, body included, must arrive within this. */
  readonly requestTimeoutMillis: number
  /** An idle keep-alive connection is closed after this; above a load balancer's idle timeout (60 s on AWS). */
  readonly keepAliveTimeoutMillis: number
  /** Open connections at most; keep it under the process's file limit (`ulimit -n`) so the server can always accept. */
  readonly maxConnections: number
}

export const defaultConnectionLimits: ConnectionLimits = {
  headersTimeoutMillis: 10_000,
  requestTimeoutMillis: 30_000,
  keepAliveTimeoutMillis: 65_000,
  maxConnections: 10_000
}

/** How often expired headers and requests are looked for: the timeouts above hold within this. */
export const CONNECTIONS_CHECKING_INTERVAL_MILLIS = 1000

/**
 * Applies the limits to `server`. Past 90 % of `maxConnections` every idle keep-alive connection is
 * closed, so connections held open without a request cannot crowd out new clients; connections
 * in the middle of a request are left to the header and request timeouts.
 */
export const limitConnections = (server: Server, limits: ConnectionLimits) => {
  if (limits.headersTimeoutMillis > limits.requestTimeoutMillis) {
    throw new Error(`The headers timeout (${limits.headersTimeoutMillis} ms) must not be longer than the request timeout (${limits.requestTimeoutMillis} ms)`)
  }
  server.headersTimeout = limits.headersTimeoutMillis
  server.requestTimeout = limits.requestTimeoutMillis
  server.keepAliveTimeout = limits.keepAliveTimeoutMillis
  server.maxConnections = limits.maxConnections
  const pressure = Math.max(1, Math.floor(limits.maxConnections * 0.9))
  let open = 0
  server.on("connection", (socket: Socket) => {
    open++
    socket.once("close", () => void open--)
    if (open >= pressure) server.closeIdleConnections()
  })
}
