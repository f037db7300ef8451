/**
 * `atrium serve` (the built command) with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a collector on
 * loopback that reads OTLP/HTTP JSON as a real collector would: each operation arrives as a server
 * span under the caller's traceparent, its SQL statements beneath it, with the service name and the
 * headers the environment gave; OTEL_TRACES_SAMPLER (parentbased_traceidratio at 0 here) leaves out
 * every request its caller did not sample, and every root request.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { killServerProcesses, type ServerProcess, startServerProcess } from "../../../test-support/ServerProcess.js"

const root = join(__dirname, "..", "..", "..")

interface OtlpSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  readonly kind: number
  readonly attributes: ReadonlyArray<{ readonly key: string; readonly value: Record<string, unknown> }>
  readonly status?: { readonly code?: number }
}
interface Export {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly serviceName: unknown
  readonly spans: ReadonlyArray<OtlpSpan>
}

/** An OTLP/HTTP collector that keeps what it receives. */
const collector = async () => {
  const received: Array<Export> = []
  const server: Server = createServer((req, res) => {
    let body = ""
    req.on("data", (chunk) => (body += chunk))
    req.on("end", () => {
      const payload = JSON.parse(body)
      for (const resourceSpans of payload.resourceSpans ?? []) {
        const serviceName = resourceSpans.resource?.attributes?.find((a: any) => a.key === "service.name")?.value?.stringValue
        received.push({
          path: req.url!,
          headers: req.headers,
          serviceName,
          spans: (resourceSpans.scopeSpans ?? []).flatMap((scope: any) => scope.spans ?? [])
        })
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  const url = await new Promise<string>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`))
  )
  return { url, received, spans: () => received.flatMap((e) => e.spans), close: () => new Promise((resolve) => server.close(resolve)) }
}

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value
  return value === undefined ? undefined : Object.values(value)[0]
}

describe("atrium serve with OTEL_EXPORTER_OTLP_ENDPOINT", () => {
  const dir = mkdtempSync(join(tmpdir(), "atrium-tracing-"))
  let otlp: Awaited<ReturnType<typeof collector>>
  let server: ServerProcess

  beforeAll(async () => {
    otlp = await collector()
    server = await startServerProcess([join(root, "packages/server/dist/cli.js"), "serve"], {
      env: {
        ...process.env,
        PORT: "0",
        DATABASE_URL: `sqlite:${join(dir, "atrium.db")}`,
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
        OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%20collector-key",
        OTEL_SERVICE_NAME: "atrium-e2e",
        OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
        OTEL_TRACES_SAMPLER_ARG: "0"
      }
    })
  }, 60_000)

  afterAll(async () => {
    await server?.stop()
    killServerProcesses()
    await otlp?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it("says where it traces to", () => {
    expect(server.output()).toMatch(new RegExp(`tracing to ${otlp.url}/v1/traces service="?atrium-e2e"? sampler="?parentbased_traceidratio"? ratio=0`))
  })

  it("sends each operation as a server span under the caller's trace, with its statements beneath it", async () => {
    const call = (path: string, data: unknown, headers: Record<string, string> = {}) =>
      fetch(`${server.url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ data }) })
    const created = (await (await call("/v2/workspace/create", { ownerEmail: "owner@acme.example" })).json()).result.data
    const [apiKey, entry] = Object.entries(created.apiKeyList)[0] as [string, { authToken: string }]
    const traceId = "0af7651916cd43dd8448eb211c80319c"
    const auth = { "x-service-api-key": apiKey, "x-service-auth-token": entry.authToken }
    // A caller that did not sample its trace: not traced either.
    expect((await call("/v2/organizations/get", {}, { ...auth, traceparent: `00-${traceId}-b7ad6b7169203331-00` })).status).toBe(200)
    const answer = await call("/v2/organizations/documents/get", { organizationId: "acme" }, {
      "x-service-api-key": apiKey,
      "x-service-auth-token": entry.authToken,
      traceparent: `00-${traceId}-b7ad6b7169203331-01`
    })
    expect(answer.status).toBe(200)

    // Spans are sent in batches every second.
    await expect.poll(() => otlp.spans().some((span) => span.name === "organizationsDocumentsGet"), { timeout: 15_000 }).toBe(true)
    const operation = otlp.spans().find((span) => span.name === "organizationsDocumentsGet")!
    expect(operation.traceId).toBe(traceId)
    expect(operation.parentSpanId).toBe("b7ad6b7169203331")
    expect(operation.kind).toBe(2) // SPAN_KIND_SERVER
    expect(attribute(operation, "atrium.path")).toBe("/v2/organizations/documents/get")
    // The credentials' lookup, then the documents' read.
    const statements = () => otlp.spans().filter((span) => span.parentSpanId === operation.spanId && span.name === "sql.execute")
    await expect.poll(() => statements().map((span) => String(attribute(span, "db.query.text"))), { timeout: 15_000 })
      .toContainEqual(expect.stringMatching(/FROM documents/))
    for (const statement of statements()) {
      expect(statement.traceId).toBe(traceId)
      expect(attribute(statement, "db.system.name")).toBe("sqlite")
    }

    expect(otlp.received.every((e) => e.path === "/v1/traces")).toBe(true)
    expect(otlp.received.every((e) => e.serviceName === "atrium-e2e")).toBe(true)
    expect(otlp.received.every((e) => e.headers["authorization"] === "Bearer collector-key")).toBe(true)
    // The ratio 0 keeps no root request, and the unsampled caller's request made no span.
    expect(otlp.spans().map((span) => span.name)).not.toContain("workspaceCreate")
    expect(otlp.spans().map((span) => span.name)).not.toContain("organizationsGet")
  }, 30_000)
})
