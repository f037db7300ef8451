import type { AtriumHandler } from "@atrium/core"
import { fetchSend, MemoryStorage, PARITY_MAX_BODY_BYTES, recordParity, testAtrium } from "@atrium/core/testing"
import { toNodeListener } from "@atrium/node-http"
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from "express"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { realtimeMountScenario } from "../../../test-support/RealtimeClient.js"
import { atrium, attachRealtime } from "../src/index.js"

const handler = testAtrium(MemoryStorage, { maxBodyBytes: PARITY_MAX_BODY_BYTES })
const servers: Array<Server> = []
const handlers: Array<AtriumHandler> = [handler]

const listen = async (server: Server) => {
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}
const serve = (app: Express) => listen(createServer(app))

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
  await Promise.all(handlers.map((h) => h.dispose()))
})

const hostErrorHandler: ErrorRequestHandler = (error, _req, res, _next) =>
  void res.status(error.status ?? 500).json({ hostError: error.message, type: error.type })

/** A host app: its own routes and error handler around Atrium at /collab, with `before` registered first. */
const hostApp = (mounted: AtriumHandler, ...before: Array<RequestHandler>) => {
  const app = express()
  for (const middleware of before) app.use(middleware)
  app.get("/hello", (_req, res) => void res.json({ host: true }))
  app.get("/boom", () => {
    throw new Error("host route failed")
  })
  app.use("/collab", atrium(mounted))
  app.use(hostErrorHandler)
  return app
}

const JSON_TYPE = { "content-type": "application/json" }
const createBody = (email: string) => JSON.stringify({ data: { ownerEmail: email } })
const oversized = { error: { status: "INVALID_ARGUMENT", message: `Request body is larger than ${PARITY_MAX_BODY_BYTES} bytes.` } }

let reference: Awaited<ReturnType<typeof recordParity>>
beforeAll(async () => {
  const nodeUrl = await listen(createServer(toNodeListener(handler, { basePath: "/collab" })))
  reference = await recordParity(fetchSend(`${nodeUrl}/collab`))
})

describe("the parity suite through Express", () => {
  it("answers every scenario byte for byte as node-http does", async () => {
    const url = await serve(hostApp(handler))
    expect(await recordParity(fetchSend(`${url}/collab`))).toEqual(reference)
  })

  it("does the same mounted deeper, in a Router", async () => {
    const app = express()
    const router = express.Router()
    router.use("/collab", atrium(handler))
    app.use("/api/v3", router)
    const url = await serve(app)
    expect(await recordParity(fetchSend(`${url}/api/v3/collab`))).toEqual(reference)
  })

  it("does the same behind express.json(), text(), raw() and urlencoded(), except for JSON the parser refuses or decoded", async () => {
    const limit = { limit: PARITY_MAX_BODY_BYTES * 4 }
    const url = await serve(hostApp(handler, express.json(limit), express.text(limit), express.raw(limit), express.urlencoded(limit)))
    // express.json() decodes bytes that are not UTF-8 into U+FFFD before Atrium sees them (docs/adapters/express.md).
    const { "error: bad JSON": badJson, "error: a body that is not UTF-8": _decoded, ...record } = await recordParity(fetchSend(`${url}/collab`))
    const { "error: bad JSON": _, "error: a body that is not UTF-8": _refused, ...expected } = reference
    expect(record).toEqual(expected)
    // express.json() answers bad JSON first, through the host's error handler.
    expect(badJson!.map((answer) => [answer.status, JSON.parse(answer.body).type])).toEqual([[400, "entity.parse.failed"], [400, "entity.parse.failed"]])
  })
})

describe("Express hosts", () => {
  it("keeps the host's routes, 404 and error handler", async () => {
    const url = await serve(hostApp(handler))
    expect(await (await fetch(`${url}/hello`)).json()).toEqual({ host: true })
    const boom = await fetch(`${url}/boom`)
    expect([boom.status, await boom.json()]).toEqual([500, { hostError: "host route failed" }])
    // Outside the mount path Express never calls Atrium: its own 404 page answers.
    const elsewhere = await fetch(`${url}/collabx/v2/workspace/get`, { method: "POST" })
    expect(elsewhere.status).toBe(404)
    expect(elsewhere.headers.get("content-type")).toContain("text/html")
  })

  it("leaves parsers registered after it to the host's routes", async () => {
    const app = express()
    app.use("/collab", atrium(handler))
    app.use(express.json())
    app.post("/echo", (req, res) => void res.json({ echoed: req.body }))
    const url = await serve(app)
    const echo = await fetch(`${url}/echo`, { method: "POST", headers: JSON_TYPE, body: JSON.stringify({ a: 1 }) })
    expect(await echo.json()).toEqual({ echoed: { a: 1 } })
    const created = await fetch(`${url}/collab/v2/workspace/create`, { method: "POST", headers: JSON_TYPE, body: createBody("after@example.com") })
    expect(created.status).toBe(200)
  })

  it("refuses an oversized body with Atrium's envelope behind a parser with a larger limit, even one that would shrink when re-serialized", async () => {
    const url = await serve(hostApp(handler, express.json({ limit: "1mb" })))
    for (const body of [createBody("x".repeat(PARITY_MAX_BODY_BYTES) + "@example.com"), createBody("padded@example.com") + " ".repeat(PARITY_MAX_BODY_BYTES)]) {
      const answer = await fetch(`${url}/collab/v2/workspace/create`, { method: "POST", headers: JSON_TYPE, body })
      expect([answer.status, await answer.json()]).toEqual([400, oversized])
    }
  })

  it("measures a streamed (chunked) body a parser already read by its re-serialized JSON", async () => {
    const url = await serve(hostApp(handler, express.json({ limit: "1mb" })))
    const body = createBody("chunked@example.com") + " ".repeat(PARITY_MAX_BODY_BYTES)
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(body))
        controller.close()
      }
    })
    const answer = await fetch(`${url}/collab/v2/workspace/create`, { method: "POST", headers: JSON_TYPE, body: stream, duplex: "half" } as RequestInit)
    // No content-length: only the re-serialized body (without the padding) is known, and it is under the limit.
    expect(answer.status).toBe(200)
  })

  it("with express.json()'s default 100 kB limit first, the parser refuses larger bodies; mounted before the parser, Atrium does", async () => {
    const big = createBody("y".repeat(150_000) + "@example.com")
    const behind = await serve(hostApp(handler, express.json()))
    const refusedByParser = await fetch(`${behind}/collab/v2/workspace/create`, { method: "POST", headers: JSON_TYPE, body: big })
    expect([refusedByParser.status, (await refusedByParser.json()).type]).toEqual([413, "entity.too.large"])

    const app = express()
    app.use("/collab", atrium(handler))
    app.use(express.json())
    app.use(hostErrorHandler)
    const before = await serve(app)
    const refusedByAtrium = await fetch(`${before}/collab/v2/workspace/create`, { method: "POST", headers: JSON_TYPE, body: big })
    expect([refusedByAtrium.status, await refusedByAtrium.json()]).toEqual([400, oversized])
  })

  it("passes the client address Express computes (req.ip, which honours the host's trust proxy setting)", async () => {
    const limited = testAtrium(MemoryStorage, { rateLimits: { workspaceCreatePerIp: { limit: 1, windowMillis: 60_000 } } })
    handlers.push(limited)
    const app = express()
    app.set("trust proxy", true)
    app.use("/collab", atrium(limited))
    const url = await serve(app)
    const create = (ip: string, email: string) =>
      fetch(`${url}/collab/v2/workspace/create`, { method: "POST", headers: { ...JSON_TYPE, "x-forwarded-for": ip }, body: createBody(email) })
    expect((await create("203.0.113.1", "a@example.com")).status).toBe(200)
    expect((await create("203.0.113.2", "b@example.com")).status).toBe(200)
    expect((await create("203.0.113.1", "c@example.com")).status).toBe(429)
  })
})

describe("realtime beside Express", () => {
  it("serves the WebSocket under the mount path on the app's server: attachRealtime(server, atrium, { basePath })", async () => {
    const mounted = testAtrium(MemoryStorage)
    handlers.push(mounted)
    const server = createServer(hostApp(mounted))
    const realtime = attachRealtime(server, mounted, { basePath: "/collab" })
    const url = await listen(server)
    try {
      await realtimeMountScenario(`${url}/collab`, expect)
    } finally {
      await realtime.close()
    }
  })
})
