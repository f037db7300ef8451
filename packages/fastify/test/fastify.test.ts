import type { AtriumHandler } from "@atrium/core"
import { fetchSend, MemoryStorage, PARITY_MAX_BODY_BYTES, recordParity, testAtrium } from "@atrium/core/testing"
import { toNodeListener } from "@atrium/node-http"
import Fastify, { type FastifyError, type FastifyInstance, type FastifyServerOptions } from "fastify"
import { createServer, request as httpRequest } from "node:http"
import type { AddressInfo } from "node:net"
import { createGunzip, gzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { realtimeMountScenario } from "../../../test-support/RealtimeClient.js"
import { atriumPlugin, attachRealtime } from "../src/index.js"

const handler = testAtrium(MemoryStorage, { maxBodyBytes: PARITY_MAX_BODY_BYTES })
const handlers: Array<AtriumHandler> = [handler]
const apps: Array<FastifyInstance> = []
const referenceServer = createServer(toNodeListener(handler, { basePath: "/collab" }))

afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()))
  await new Promise((resolve) => referenceServer.close(resolve))
  await Promise.all(handlers.map((h) => h.dispose()))
})

/** A host app with its own JSON route, text/csv parser, hook and error handler, and Atrium under /collab. */
const hostApp = (mounted: AtriumHandler = handler, options: FastifyServerOptions = {}) => {
  const app = Fastify(options)
  apps.push(app)
  app.addContentTypeParser("text/csv", { parseAs: "string" }, (_request, body, done) => done(null, String(body).split(",")))
  app.setErrorHandler((error: FastifyError, _request, reply) => reply.code(error.statusCode ?? 500).send({ hostError: error.message, code: error.code }))
  app.addHook("onSend", async (_request, reply) => void reply.header("x-host-hook", "ran"))
  app.post("/echo", async (request) => ({ echoed: request.body }))
  app.get("/boom", async () => {
    throw new Error("host route failed")
  })
  app.register(atriumPlugin, { atrium: mounted, prefix: "/collab" })
  return app
}
const listen = (app: FastifyInstance) => app.listen({ port: 0, host: "127.0.0.1" })

const JSON_TYPE = { "content-type": "application/json" }
const createBody = (email: string) => JSON.stringify({ data: { ownerEmail: email } })
const envelope = (message: string) => ({ error: { status: "INVALID_ARGUMENT", message } })
const oversized = envelope(`Request body is larger than ${PARITY_MAX_BODY_BYTES} bytes.`)

let reference: Awaited<ReturnType<typeof recordParity>>
beforeAll(async () => {
  await new Promise<void>((resolve) => referenceServer.listen(0, "127.0.0.1", resolve))
  reference = await recordParity(fetchSend(`http://127.0.0.1:${(referenceServer.address() as AddressInfo).port}/collab`))
})

describe("the parity suite through Fastify", () => {
  it("answers every scenario byte for byte as node-http does", async () => {
    const url = await listen(hostApp())
    expect(await recordParity(fetchSend(`${url}/collab`))).toEqual(reference)
  })

  it("does the same inside a prefixed parent plugin", async () => {
    const app = Fastify()
    apps.push(app)
    app.register(async (api) => void api.register(atriumPlugin, { atrium: handler, prefix: "/collab" }), { prefix: "/api/v3" })
    const url = await listen(app)
    expect(await recordParity(fetchSend(`${url}/api/v3/collab`))).toEqual(reference)
  })

  it("with a trailing slash in the prefix, Fastify leaves the bare mount point to the host", async () => {
    const app = Fastify()
    apps.push(app)
    app.register(atriumPlugin, { atrium: handler, prefix: "/collab/" })
    const url = await listen(app)
    expect(await (await fetch(`${url}/collab/healthz`)).json()).toEqual({ status: "ok" })
    expect((await (await fetch(`${url}/collab/`)).json()).name).toBe("Atrium") // Atrium's own GET /: where its reference is
    expect((await (await fetch(`${url}/collab`)).json()).message).toBe("Route GET:/collab not found")
  })
})

describe("Fastify hosts", () => {
  it("keeps the host's content-type parsers, error handler and hooks outside the plugin", async () => {
    const url = await listen(hostApp())
    const echo = async (headers: Record<string, string>, body: string) => {
      const response = await fetch(`${url}/echo`, { method: "POST", headers, body })
      return [response.status, await response.json()]
    }
    expect(await echo(JSON_TYPE, "{\"a\":1}")).toEqual([200, { echoed: { a: 1 } }])
    expect(await echo({ "content-type": "text/csv" }, "a,b")).toEqual([200, { echoed: ["a", "b"] }])
    // Fastify's own JSON parser still refuses bad JSON on host routes, through the host's error handler.
    expect(await echo(JSON_TYPE, "{bad")).toEqual([400, { hostError: expect.any(String), code: "FST_ERR_CTP_INVALID_JSON_BODY" }])
    const boom = await fetch(`${url}/boom`)
    expect([boom.status, await boom.json()]).toEqual([500, { hostError: "host route failed" }])
    // The host's onSend hook also runs for Atrium's answers.
    const created = await fetch(`${url}/collab/v2/workspace/create`, { method: "POST", headers: JSON_TYPE, body: createBody("hooks@example.com") })
    expect([created.status, created.headers.get("x-host-hook")]).toEqual([200, "ran"])
  })

  it("leaves errors of the host's own hooks to the host's error handler, also under the prefix", async () => {
    const app = hostApp()
    app.addHook("onRequest", async (request) => {
      if (request.headers["x-deny"] !== undefined) throw Object.assign(new Error("denied by host"), { statusCode: 401 })
    })
    const url = await listen(app)
    const denied = await fetch(`${url}/collab/v2/workspace/create`, { method: "POST", headers: { ...JSON_TYPE, "x-deny": "1" }, body: createBody("deny@example.com") })
    expect([denied.status, await denied.json()]).toEqual([401, { hostError: "denied by host" }])
  })

  it("reads the body a host preParsing hook hands over (here: gunzipped)", async () => {
    const app = hostApp()
    app.addHook("preParsing", async (request, _reply, payload) => request.headers["content-encoding"] === "gzip" ? payload.pipe(createGunzip()) : payload)
    const url = await listen(app)
    const body = gzipSync(createBody("gzip@example.com"))
    const created = await fetch(`${url}/collab/v2/workspace/create`, { method: "POST", headers: { ...JSON_TYPE, "content-encoding": "gzip" }, body })
    expect([created.status, (await created.json()).result.data.owner.email]).toEqual([200, "gzip@example.com"])
  })

  it("refuses oversized bodies with Atrium's envelope, never Fastify's 413, whatever the host's bodyLimit", async () => {
    const url = await listen(hostApp(handler, { bodyLimit: 1000 }))
    const post = (body: string) => fetch(`${url}/collab/v2/workspace/create`, { method: "POST", headers: JSON_TYPE, body })
    // Over Fastify's own limit and over Atrium's: Atrium answers.
    const big = await post(createBody("x".repeat(10_000) + "@example.com"))
    expect([big.status, await big.json()]).toEqual([400, oversized])
    // Over the host's bodyLimit but under Atrium's: Atrium's limit governs under the prefix.
    const medium = await post(createBody("m".repeat(2000) + "@example.com"))
    expect(medium.status).toBe(400)
    expect((await medium.json()).error.message).toContain("data.ownerEmail")
  })

  it("refuses a streamed (chunked) body over the limit without reading it all, and closes the connection", async () => {
    const url = new URL(await listen(hostApp()))
    const answer = await new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
      const req = httpRequest({ host: url.hostname, port: url.port, path: "/collab/v2/workspace/create", method: "POST", headers: { ...JSON_TYPE, "transfer-encoding": "chunked" } }, (res) => {
        let body = ""
        res.on("data", (chunk) => (body += chunk))
        res.on("end", () => resolve({ status: res.statusCode!, body, connection: res.headers.connection }))
      })
      req.on("error", reject)
      const payload = createBody("z".repeat(PARITY_MAX_BODY_BYTES * 2) + "@example.com")
      for (let i = 0; i < payload.length; i += 512) req.write(payload.slice(i, i + 512))
      req.end()
    })
    expect([answer.status, JSON.parse(answer.body), answer.connection]).toEqual([400, oversized, "close"])
  })

  it("answers a Content-Type Fastify finds malformed as node-http does, never with Fastify's 415", async () => {
    const url = await listen(hostApp())
    const nodeUrl = `http://127.0.0.1:${(referenceServer.address() as AddressInfo).port}`
    const send = async (base: string, path: string, contentType: string) => {
      const answer = await fetch(`${base}/collab${path}`, { method: "POST", headers: { "content-type": contentType }, body: JSON.stringify({ data: {} }) })
      return [answer.status, await answer.text()]
    }
    for (const contentType of ["json", "application/", "application/json; charset", "application/json; =x"]) {
      for (const path of ["/v2/workspace/get", "/v2/nope"]) {
        expect([contentType, path, ...await send(url, path, contentType)]).toEqual([contentType, path, ...await send(nodeUrl, path, contentType)])
      }
    }
    expect(await send(url, "/v2/workspace/get", "json")).toEqual([400, JSON.stringify(envelope("Content-Type must be application/json."))])
    // Fastify refuses QUERY without a Content-Type before any handler: Atrium still answers.
    const query = await fetch(`${url}/collab/v2/workspace/get`, { method: "QUERY", body: "{}" })
    expect([query.status, await query.json()]).toEqual([400, envelope("Method QUERY is not allowed: every operation is a POST.")])
  })

  it("mounted without a prefix, answers every path the host has no route for", async () => {
    const app = Fastify()
    apps.push(app)
    app.get("/hello", async () => ({ host: true }))
    app.register(atriumPlugin, { atrium: handler })
    const url = await listen(app)
    expect(await (await fetch(`${url}/hello`)).json()).toEqual({ host: true })
    expect((await fetch(`${url}/healthz`)).status).toBe(200)
    expect(await (await fetch(`${url}/elsewhere`)).json()).toEqual({ error: { status: "NOT_FOUND", message: "No operation at /elsewhere." } })
  })

  it("passes the client address Fastify computes (request.ip, which honours trustProxy)", async () => {
    const limited = testAtrium(MemoryStorage, { rateLimits: { workspaceCreatePerIp: { limit: 1, windowMillis: 60_000 } } })
    handlers.push(limited)
    const url = await listen(hostApp(limited, { trustProxy: true }))
    const create = (ip: string, email: string) =>
      fetch(`${url}/collab/v2/workspace/create`, { method: "POST", headers: { ...JSON_TYPE, "x-forwarded-for": ip }, body: createBody(email) })
    expect((await create("203.0.113.1", "a@example.com")).status).toBe(200)
    expect((await create("203.0.113.2", "b@example.com")).status).toBe(200)
    expect((await create("203.0.113.1", "c@example.com")).status).toBe(429)
  })
})

describe("realtime beside Fastify", () => {
  it("serves the WebSocket under the plugin's prefix on fastify.server: attachRealtime(app.server, atrium, { basePath })", async () => {
    const mounted = testAtrium(MemoryStorage)
    handlers.push(mounted)
    const app = hostApp(mounted)
    const realtime = attachRealtime(app.server, mounted, { basePath: "/collab" })
    const url = await listen(app)
    try {
      await realtimeMountScenario(`${url}/collab`, expect)
    } finally {
      await realtime.close()
    }
  })
})
