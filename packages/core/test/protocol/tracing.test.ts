/**
 * `createAtrium({ tracing })` with OpenTelemetry's own SDK as the oracle: `NodeSdk.layer` from
 * @effect/opentelemetry over an in-memory exporter, on SQLite and on PostgreSQL. Every operation
 * is a server span named by its operationId, under the caller's `traceparent`; its statements are
 * spans beneath it; a failure carries the API's status.
 */
import * as NodeSdk from "@effect/opentelemetry/NodeSdk"
import { SpanKind, SpanStatusCode } from "@opentelemetry/api"
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { PgStorage } from "@atrium/sql-pg"
import { testDatabase } from "@atrium/sql-pg/testing"
import { SqliteStorage } from "@atrium/sql-sqlite"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type AtriumHandler, createAtrium } from "../../src/Atrium.js"
import { directStatementsWanted } from "../../src/sql/DirectStatements.js"
import { TracingEnabled } from "../../src/ports/TracingEnabled.js"
import { parentFromTraceparent } from "../../src/protocol/Tracing.js"
import { makeSampler, type TraceSampling } from "../../src/protocol/Sampling.js"
import { CapturedMail } from "../../src/ports/Mailer.js"
import { Ids } from "../../src/ports/Ids.js"

const post = (atrium: AtriumHandler, path: string, data: unknown, headers: Record<string, string> = {}) =>
  atrium.handle({ method: "POST", path, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ data }), ip: "127.0.0.1" })

const traceId = "4bf92f3577b34da6a3ce929d0e0e4736"
const callerSpanId = "00f067aa0ba902b7"

const storages = [
  {
    name: "sqlite",
    open: async () => {
      const dir = mkdtempSync(join(tmpdir(), "atrium-tracing-"))
      return { layer: SqliteStorage.layer({ filename: join(dir, "atrium.db") }), drop: async () => rmSync(dir, { recursive: true, force: true }) }
    }
  },
  {
    name: "postgres",
    open: async () => {
      const db = await testDatabase()
      return { layer: PgStorage.layer({ url: db.url }), drop: db.drop }
    }
  }
]

for (const storage of storages) {
  describe(`tracing on ${storage.name}`, () => {
    const exporter = new InMemorySpanExporter()
    let atrium: AtriumHandler
    let drop: () => Promise<void>
    let credentials: Record<string, string>

    beforeAll(async () => {
      const opened = await storage.open()
      drop = opened.drop
      atrium = createAtrium({
        storage: opened.layer,
        ids: Ids.Sequential,
        mailer: CapturedMail.layer,
        tracing: NodeSdk.layer(() => ({ resource: { serviceName: "atrium-test" }, spanProcessor: new SimpleSpanProcessor(exporter) }))
      })
      const created = JSON.parse((await post(atrium, "/v2/workspace/create", { ownerEmail: "owner@acme.example" })).body).result.data
      const [apiKey, entry] = Object.entries(created.apiKeyList)[0] as [string, { authToken: string }]
      credentials = { "x-service-api-key": apiKey, "x-service-auth-token": entry.authToken }
      await post(atrium, "/v2/organizations/add", { organizations: [{ organizationId: "acme" }] }, credentials)
    })
    afterAll(async () => {
      await atrium?.dispose()
      await drop?.()
    })

    const spansOf = (name: string) => exporter.getFinishedSpans().filter((span) => span.name === name)
    const descendantsOf = (root: ReadableSpan) => {
      const all = exporter.getFinishedSpans()
      const found: Array<ReadableSpan> = []
      const walk = (id: string) => {
        for (const span of all) {
          if (span.parentSpanContext?.spanId === id) {
            found.push(span)
            walk(span.spanContext().spanId)
          }
        }
      }
      walk(root.spanContext().spanId)
      return found
    }

    it("gives each operation a server span under the caller's trace, with its statements beneath it", async () => {
      exporter.reset()
      const answer = await post(atrium, "/v2/organizations/documents/get", { organizationId: "acme" }, {
        ...credentials,
        traceparent: `00-${traceId}-${callerSpanId}-01`
      })
      expect(answer.status).toBe(200)
      const [span] = spansOf("organizationsDocumentsGet")
      expect(span).toBeDefined()
      expect(span!.kind).toBe(SpanKind.SERVER)
      expect(span!.attributes).toMatchObject({ "atrium.operation": "organizationsDocumentsGet", "atrium.path": "/v2/organizations/documents/get" })
      expect(span!.spanContext().traceId).toBe(traceId)
      expect(span!.parentSpanContext?.spanId).toBe(callerSpanId)
      expect(span!.resource.attributes["service.name"]).toBe("atrium-test")
      const statements = descendantsOf(span!).filter((child) => child.name === "sql.execute")
      expect(statements.length).toBeGreaterThan(0)
      expect(statements.every((statement) => statement.spanContext().traceId === traceId)).toBe(true)
    })

    it("starts a new trace when the request has no (or a malformed) traceparent", async () => {
      exporter.reset()
      await post(atrium, "/v2/organizations/get", {}, { ...credentials, traceparent: "00-not-a-trace-01" })
      const [span] = spansOf("organizationsGet")
      expect(span!.parentSpanContext).toBeUndefined()
      expect(span!.spanContext().traceId).not.toBe(traceId)
    })

    it("marks a failed operation with the API's status", async () => {
      exporter.reset()
      const answer = await post(atrium, "/v2/organizations/folders/get", { organizationId: "acme", folderId: "nope" }, credentials)
      expect(answer.status).toBe(404)
      const [span] = spansOf("organizationsFoldersGet")
      expect(span!.attributes["atrium.error.status"]).toBe("NOT_FOUND")
      expect(span!.status.code).toBe(SpanStatusCode.ERROR)
    })
  })
}

describe("trace sampling (OTEL_TRACES_SAMPLER's samplers)", () => {
  const opened: Array<{ atrium: AtriumHandler; drop: () => Promise<void> }> = []
  afterAll(async () => {
    for (const { atrium, drop } of opened) {
      await atrium.dispose()
      await drop()
    }
  })

  /** An Atrium on SQLite tracing into its own in-memory exporter with `traceSampling`, and its credentials. */
  const tracedWith = async (traceSampling?: TraceSampling) => {
    const storage = await storages[0]!.open()
    const exporter = new InMemorySpanExporter()
    const atrium = createAtrium({
      storage: storage.layer,
      mailer: CapturedMail.layer,
      tracing: NodeSdk.layer(() => ({ resource: { serviceName: "atrium-test" }, spanProcessor: new SimpleSpanProcessor(exporter) })),
      ...(traceSampling && { traceSampling })
    })
    opened.push({ atrium, drop: storage.drop })
    const created = JSON.parse((await post(atrium, "/v2/workspace/create", { ownerEmail: "owner@acme.example" })).body).result.data
    const [apiKey, entry] = Object.entries(created.apiKeyList)[0] as [string, { authToken: string }]
    const headers = { "x-service-api-key": apiKey, "x-service-auth-token": entry.authToken }
    /** The names of every span one organizations/get made (none when it was not sampled). */
    const spansOfCall = async (traceparent?: string) => {
      exporter.reset()
      const answer = await post(atrium, "/v2/organizations/get", {}, { ...headers, ...(traceparent && { traceparent }) })
      expect(answer.status).toBe(200)
      return exporter.getFinishedSpans().map((span) => span.name).sort()
    }
    return spansOfCall
  }
  const sampledParent = `00-${traceId}-${callerSpanId}-01`
  const unsampledParent = `00-${traceId}-${callerSpanId}-00`
  // A trace id's last 56 bits read as a share (OpenTelemetry's TraceIdRatioBased): 0 and almost 1.
  const lowTrace = `00-4bf92f3577b34da6a300000000000000-${callerSpanId}-01`
  const highTrace = `00-4bf92f3577b34da6a3ffffffffffffff-${callerSpanId}-00`

  it("by default follows the caller's decision, and traces a request without one", async () => {
    const spansOfCall = await tracedWith()
    expect(await spansOfCall(sampledParent)).toEqual(expect.arrayContaining(["organizationsGet", "sql.execute"]))
    expect(await spansOfCall()).toContain("organizationsGet")
    // Not sampled by its caller: no span at all, the statements' included.
    expect(await spansOfCall(unsampledParent)).toEqual([])
  })

  it("always_off traces nothing, whatever the caller; always_on everything", async () => {
    const off = await tracedWith({ sampler: "always_off" })
    expect(await off(sampledParent)).toEqual([])
    expect(await off()).toEqual([])
    const on = await tracedWith({ sampler: "always_on" })
    expect(await on(unsampledParent)).toContain("organizationsGet")
  })

  it("traceidratio keeps a trace by its id, and parentbased_traceidratio only where there is no caller's decision", async () => {
    const ratio = await tracedWith({ sampler: "traceidratio", ratio: 0.5 })
    expect(await ratio(lowTrace)).toContain("organizationsGet")
    expect(await ratio(highTrace.replace(/-00$/, "-01"))).toEqual([])
    const parentBased = await tracedWith({ sampler: "parentbased_traceidratio", ratio: 0 })
    expect(await parentBased()).toEqual([])
    expect(await parentBased(sampledParent)).toContain("organizationsGet")
    expect(await parentBased(unsampledParent)).toEqual([])
  })

  it("draws root requests at the ratio", () => {
    const sampler = makeSampler({ sampler: "traceidratio", ratio: 0.25 })
    let kept = 0
    for (let i = 0; i < 20_000; i++) if (sampler(undefined)) kept++
    expect(kept / 20_000).toBeGreaterThan(0.22)
    expect(kept / 20_000).toBeLessThan(0.28)
  })
})

describe("without tracing", () => {
  it("the SQL storages run statements directly unless told otherwise; with tracing, through @effect/sql's spans", () => {
    const wanted = (option: boolean | undefined, tracing: boolean) =>
      Effect.runSync(directStatementsWanted(option).pipe(Effect.provide(Layer.succeed(TracingEnabled, tracing))))
    expect(Effect.runSync(directStatementsWanted(undefined))).toBe(true)
    expect(wanted(undefined, true)).toBe(false)
    expect(wanted(true, true)).toBe(true)
    expect(wanted(false, false)).toBe(false)
  })

  it("reads only well-formed traceparent headers", () => {
    expect(parentFromTraceparent(`00-${traceId}-${callerSpanId}-01`)).toMatchObject({ traceId, spanId: callerSpanId, sampled: true })
    expect(parentFromTraceparent(`00-${traceId}-${callerSpanId}-00`)).toMatchObject({ sampled: false })
    for (const bad of [undefined, "", "00-xyz", `00-${"0".repeat(32)}-${callerSpanId}-01`, `00-${traceId}-${"0".repeat(16)}-01`, `00-${traceId.toUpperCase()}-${callerSpanId}-01`]) {
      expect(parentFromTraceparent(bad), String(bad)).toBeUndefined()
    }
  })
})
