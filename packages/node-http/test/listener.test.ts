import { MemoryStorage, testAtrium } from "@atrium/core/testing"
import { createServer, request as httpRequest } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { toNodeListener } from "../src/index.js"

const atrium = testAtrium(MemoryStorage, { maxBodyBytes: 1024 })
let base = ""
const server = createServer(toNodeListener(atrium, { basePath: "/api/" }))

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  await atrium.dispose()
})

/** Sends a chunked body (no content-length) of `size` bytes in 100-byte pieces. */
const chunked = (size: number) =>
  new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
    const req = httpRequest(`${base}/api/v2/workspace/create`, { method: "POST", headers: { "content-type": "application/json", "transfer-encoding": "chunked" } }, (res) => {
      let body = ""
      res.on("data", (c) => (body += c))
      res.on("end", () => resolve({ status: res.statusCode!, body, connection: res.headers.connection }))
    })
    req.on("error", reject)
    const payload = JSON.stringify({ data: { ownerEmail: "x".repeat(size) + "@example.com" } })
    for (let i = 0; i < payload.length; i += 100) req.write(payload.slice(i, i + 100))
    req.end()
  })

describe("toNodeListener", () => {
  it("refuses a streamed body over the limit without reading all of it, and closes the connection", async () => {
    const answer = await chunked(5000)
    expect(answer.status).toBe(400)
    expect(JSON.parse(answer.body)).toEqual({ error: { status: "INVALID_ARGUMENT", message: "Request body is larger than 1024 bytes." } })
    expect(answer.connection).toBe("close")
  })

  it("reads a streamed body under the limit", async () => {
    const answer = await chunked(20)
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body).result.status).toBe("success")
  })

  it("refuses a declared content-length over the limit before reading", async () => {
    const response = await fetch(`${base}/api/v2/workspace/create`, { method: "POST", headers: { "content-type": "application/json" }, body: "x".repeat(2000) })
    expect(response.status).toBe(400)
    expect((await response.json()).error.message).toBe("Request body is larger than 1024 bytes.")
  })

  it("strips the base path (with or without trailing slash) and keeps the query string out of routing", async () => {
    const ok = await fetch(`${base}/api/healthz?probe=1`)
    expect(ok.status).toBe(200)
    const outside = await fetch(`${base}/apix/healthz`)
    expect(outside.status).toBe(404)
    expect(await outside.json()).toEqual({ error: { status: "NOT_FOUND", message: "No operation at /apix/healthz." } })
  })

  it("hands requests outside the base path to next() when mounted as middleware", async () => {
    const listener = toNodeListener(atrium, { basePath: "/api" })
    const calls: Array<string> = []
    const host = createServer((req, res) => listener(req, res, () => {
      calls.push(req.url!)
      res.end("host")
    }))
    await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve))
    const url = `http://127.0.0.1:${(host.address() as AddressInfo).port}`
    expect(await (await fetch(`${url}/elsewhere`)).text()).toBe("host")
    expect((await fetch(`${url}/api/healthz`)).status).toBe(200)
    expect(calls).toEqual(["/elsewhere"])
    await new Promise((resolve) => host.close(resolve))
  })

  it("serves the API reference under the mount path: the page, Redoc's script from the package, and where both are", async () => {
    const page = await fetch(`${base}/api/docs`)
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'")
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'")
    const html = await page.text()
    // Relative: under /api/ the browser asks /api/openapi.json and /api/docs/redoc.standalone.js.
    expect(html).toContain('<redoc spec-url="openapi.json"')
    expect(html).toContain('<script src="docs/redoc.standalone.js">')
    expect((await fetch(`${base}/api/openapi.json`)).status).toBe(200)

    const script = await fetch(`${base}/api/docs/redoc.standalone.js`)
    expect(script.status).toBe(200)
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8")
    const source = await script.text()
    expect(source.length).toBeGreaterThan(500_000)
    // The one outside request Redoc makes is replaced at build (scripts/docs-assets.mjs).
    expect(source).not.toContain("cdn.redoc.ly")

    expect(await (await fetch(`${base}/api/`)).json()).toEqual({
      name: "Atrium",
      docs: "docs",
      openapi: "openapi.json",
      about: "Atrium's server API: its reference is at /docs, its OpenAPI description at /openapi.json."
    })
    const head = await fetch(`${base}/api/docs`, { method: "HEAD" })
    expect([head.status, await head.text()]).toEqual([200, ""])
    const posted = await fetch(`${base}/api/docs`, { method: "POST", body: "{}" })
    expect([posted.status, await posted.json()]).toEqual([404, { error: { status: "NOT_FOUND", message: "No operation at /docs." } }])
  })
})
