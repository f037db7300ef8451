/** `serve`'s timeouts and connection cap: slow or idle clients cannot keep others out. */
import { mkdtempSync, rmSync } from "node:fs"
import { get } from "node:http"
import { connect, type Socket } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { type RunningServer, serve } from "../src/Serve.js"

const dir = mkdtempSync(join(tmpdir(), "atrium-connections-"))
const sockets: Array<Socket> = []
let running: RunningServer

beforeAll(async () => {
  running = await serve({
    port: 0,
    host: "127.0.0.1",
    databaseUrl: `sqlite:${join(dir, "connections.db")}`,
    options: {},
    connections: { headersTimeoutMillis: 500, requestTimeoutMillis: 1000, maxConnections: 300 }
  }, { log: () => undefined })
})
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy()
})
afterAll(async () => {
  await running.close()
  rmSync(dir, { recursive: true, force: true })
})


/** A TCP connection to the server, once connected; what it receives is read (or its close would not be seen). */
const open = () =>
  new Promise<Socket>((resolve, reject) => {
    const url = new URL(running.url)
    const socket = connect(Number(url.port), url.hostname, () => resolve(socket))
    socket.resume()
    socket.on("error", reject)
    sockets.push(socket)
  })

const closed = (socket: Socket) => new Promise<void>((resolve) => socket.once("close", () => resolve()))

/** GET on a new connection (fetch might reuse a pooled one), with how long the answer took. */
const timedGet = (path: string) =>
  new Promise<{ status: number; ms: number }>((resolve, reject) => {
    const started = performance.now()
    get(`${running.url}${path}`, { agent: false }, (response) => {
      response.resume()
      response.on("end", () => resolve({ status: response.statusCode!, ms: performance.now() - started }))
    }).on("error", reject)
  })

describe("connections", () => {
  it("answers a normal client within 1 s while 200 connections send their headers a byte at a time", async () => {
    const slow = await Promise.all(Array.from({ length: 200 }, open))
    for (const socket of slow) socket.write("POST /v2/organizations/get HTTP/1.1\r\nHost: a")
    const { ms, status } = await timedGet("/healthz")
    expect(status).toBe(200)
    expect(ms).toBeLessThan(1000)
    // And the slow ones are closed once the headers timeout (500 ms, checked every second) passes.
    const started = performance.now()
    await Promise.all(slow.map(closed))
    expect(performance.now() - started).toBeLessThan(3000)
  })

  it("closes a request whose body does not arrive within the request timeout", async () => {
    const socket = await open()
    let answer = ""
    socket.on("data", (chunk) => void (answer += chunk.toString()))
    socket.write("POST /v2/organizations/get HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"data\":")
    await closed(socket)
    // Node answers 408 before closing; never a hang.
    expect(answer).toMatch(/^HTTP\/1\.1 408/)
  })

  it("closes idle keep-alive connections near the cap, so held connections do not keep a new client out", async () => {
    // 350 clients, one after another, each makes a request and keeps its connection (the cap is
    // 300): without eviction the 301st and every later one, the new client below included, would
    // be dropped at once.
    let closedByServer = 0
    for (let i = 0; i < 350; i++) {
      const socket = await open()
      socket.once("close", () => void closedByServer++)
      await new Promise<void>((resolve) => {
        socket.once("data", () => resolve())
        socket.once("close", () => resolve())
        socket.write("GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: keep-alive\r\n\r\n")
      })
    }
    const { ms, status } = await timedGet("/healthz")
    expect(status).toBe(200)
    expect(ms).toBeLessThan(1000)
    // Eviction starts at 270 open connections and closes every idle one.
    expect(closedByServer).toBeGreaterThanOrEqual(269)
  })

})
