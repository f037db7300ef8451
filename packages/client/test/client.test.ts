/**
 * @atrium/client against a real Atrium behind node:http, on SQLite and on PostgreSQL: every
 * operation of the table called once through its method (the walkthrough `pnpm docs` records,
 * scripts/walkthrough.mjs), then the errors a caller meets, each as a typed AtriumError.
 */
import { operations } from "@atrium/core"
import { createServer, type Server } from "node:http"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import * as Schema from "effect/Schema"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { listen } from "../../../test-support/backends.js"
import { type HttpAtrium, serveAtrium } from "../../../test-support/HttpAtrium.js"
import { AtriumError, type AtriumClient, createAtriumClient, operationTable, orThrow } from "../src/index.js"

/** scripts/walkthrough.mjs's `replay`: every path once, in an order where each finds what it needs. */
type Replay = (walker: {
  readonly call: (path: string, data: unknown, ctx: Record<string, any>) => Promise<unknown>
  readonly settle: () => Promise<unknown>
}) => Promise<void>
const walkthroughFile = pathToFileURL(join(__dirname, "..", "..", "..", "scripts", "walkthrough.mjs")).href
const outputOf = new Map(operations.flatMap((operation) => operation.paths.map((path) => [path, operation.output as Schema.Schema<unknown, unknown>])))
const nameOf = new Map<string, string>(Object.entries(operationTable).map(([name, { path }]) => [path, name]))

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()))

for (const storage of ["sqlite", "postgres"] as const) {
  describe(`@atrium/client on ${storage}`, () => {
    let running: HttpAtrium
    beforeAll(async () => {
      running = await serveAtrium(storage)
    })
    afterAll(() => running?.stop())

    it("calls every operation through its method, each answering its result", async () => {
      const { replay } = (await import(walkthroughFile)) as { replay: Replay }
      const called = new Set<string>()
      await replay({
        settle: () => running.atrium.runDue(),
        call: async (path, data, ctx) => {
          const name = nameOf.get(path)
          expect(name, path).toBeDefined()
          // The credentials the walk has gathered so far, as a caller would pass them.
          const client = createAtriumClient({
            baseUrl: running.url,
            apiKey: ctx["apiKey"],
            authToken: ctx["authToken"],
            workspaceId: ctx["workspaceId"],
            workspaceAuthToken: ctx["workspaceAuthToken"],
            userToken: ctx["userToken"]
          })
          const call = client[name as keyof typeof operationTable] as (input: unknown) => Promise<any>
          const outcome = await call(data)
          expect(outcome.error, `${name}: ${outcome.error?.message}`).toBeUndefined()
          expect(outcome.response.ok).toBe(true)
          // The answer is what the operation's output schema (whence the client's types) describes.
          expect(() => Schema.decodeUnknownSync(outputOf.get(path)!)(outcome.result), name).not.toThrow()
          called.add(name!)
          return outcome.result
        }
      })
      expect([...called].sort()).toEqual(Object.keys(operationTable).sort())
    }, 120_000)
  })
}

describe("@atrium/client errors and options", () => {
  let running: HttpAtrium
  let client: AtriumClient
  beforeAll(async () => {
    running = await serveAtrium("sqlite")
    const created = await orThrow(createAtriumClient({ baseUrl: running.url }).workspaceCreate({ ownerEmail: "owner@acme.example" }))
    const [apiKey, entry] = Object.entries(created.data.apiKeyList)[0]!
    client = createAtriumClient({
      baseUrl: running.url,
      apiKey,
      authToken: entry.authToken,
      workspaceId: created.data.id,
      workspaceAuthToken: created.data.authToken
    })
    await orThrow(client.organizationsAdd({ organizations: [{ organizationId: "acme" }] }))
  })
  afterAll(() => running?.stop())

  it("answers a missing resource as NOT_FOUND with its HTTP status and the server's message", async () => {
    const outcome = await client.organizationsFoldersGet({ organizationId: "acme", folderId: "nope" })
    expect(outcome.result).toBeUndefined()
    expect(outcome.error).toBeInstanceOf(AtriumError)
    expect(outcome.error).toMatchObject({ status: "NOT_FOUND", httpStatus: 404, operation: "organizationsFoldersGet" })
    expect(outcome.error!.message).toBe("Folder not found.")
    expect(outcome.response?.status).toBe(404)
  })

  it("answers wrong credentials as PERMISSION_DENIED", async () => {
    const outcome = await client.withOptions({ authToken: "not-the-token" }).organizationsGet({})
    expect(outcome.error).toMatchObject({ status: "PERMISSION_DENIED", httpStatus: 403 })
  })

  it("answers input the server refuses as INVALID_ARGUMENT, naming the field", async () => {
    const outcome = await client.organizationsGet({ pageSize: "ten" } as any)
    expect(outcome.error).toMatchObject({ status: "INVALID_ARGUMENT", httpStatus: 400 })
    expect(outcome.error!.message).toMatch(/pageSize/)
  })

  it("gives RESOURCE_EXHAUSTED its Retry-After in seconds", async () => {
    const anonymous = createAtriumClient({ baseUrl: running.url })
    let outcome
    for (let i = 0; i < 10 && outcome?.error?.status !== "RESOURCE_EXHAUSTED"; i++) {
      outcome = await anonymous.workspaceEmailSendLoginLink({ email: "owner@acme.example", continueUrl: "http://localhost/x" })
    }
    expect(outcome!.error).toMatchObject({ status: "RESOURCE_EXHAUSTED", httpStatus: 429 })
    expect(outcome!.error!.retryAfterSeconds).toBeGreaterThan(0)
    expect(outcome!.error!.retryAfterSeconds).toBe(Number(outcome!.response!.headers.get("retry-after")))
  })

  it("orThrow gives the result, or throws the AtriumError", async () => {
    const result = await orThrow(client.organizationsGet({ organizationIds: ["acme"] }))
    expect(result.data.map((organization) => organization.id)).toEqual(["acme"])
    await expect(orThrow(client.organizationsFoldersGet({ organizationId: "acme", folderId: "nope" }))).rejects.toMatchObject({
      name: "AtriumError",
      status: "NOT_FOUND"
    })
  })

  it("sends the credentials under the server's header prefix", async () => {
    const velt = await serveAtrium("sqlite", { options: { headerPrefix: "x-velt" } })
    try {
      const anonymous = createAtriumClient({ baseUrl: velt.url, headerPrefix: "x-velt" })
      const created = await orThrow(anonymous.workspaceCreate({ ownerEmail: "owner@acme.example" }))
      const workspace = { workspaceId: created.data.id, workspaceAuthToken: created.data.authToken }
      expect((await anonymous.withOptions(workspace).workspaceGet()).result?.data.id).toBe(created.data.id)
      const unprefixed = await createAtriumClient({ baseUrl: velt.url, ...workspace }).workspaceGet()
      expect(unprefixed.error?.status).toBe("PERMISSION_DENIED")
    } finally {
      await velt.stop()
    }
  })

  it("calls an Atrium mounted under a path, with or without a trailing slash on baseUrl", async () => {
    const mounted = await serveAtrium("sqlite", { basePath: "/collab" })
    try {
      for (const baseUrl of [`${mounted.url}/collab`, `${mounted.url}/collab/`]) {
        const outcome = await createAtriumClient({ baseUrl }).workspaceCreate({ ownerEmail: `o${baseUrl.length}@acme.example` })
        expect(outcome.error).toBeUndefined()
      }
      const outside = await createAtriumClient({ baseUrl: mounted.url }).workspaceCreate({ ownerEmail: "x@acme.example" })
      expect(outside.error).toMatchObject({ status: "NOT_FOUND", httpStatus: 404 })
    } finally {
      await mounted.stop()
    }
  })

  it("reports no answer as UNAVAILABLE with httpStatus 0, and says where it called", async () => {
    const server = createServer()
    const url = await listen(server)
    await close(server)
    const outcome = await createAtriumClient({ baseUrl: url }).workspaceCreate({ ownerEmail: "o@acme.example" })
    expect(outcome.error).toMatchObject({ status: "UNAVAILABLE", httpStatus: 0 })
    expect(outcome.error!.message).toContain(`${url}/v2/workspace/create`)
    expect(outcome.error!.message).toMatch(/ECONNREFUSED/)
  })

  it("reports an answer that is not Atrium's (a proxy's error page) as UNKNOWN with its status and an excerpt", async () => {
    const proxy = createServer((_, res) => res.writeHead(502, { "content-type": "text/html" }).end("<html>Bad gateway</html>"))
    const url = await listen(proxy)
    try {
      const outcome = await createAtriumClient({ baseUrl: url }).workspaceCreate({ ownerEmail: "o@acme.example" })
      expect(outcome.error).toMatchObject({ status: "UNKNOWN", httpStatus: 502 })
      expect(outcome.error!.message).toContain("<html>Bad gateway</html>")
    } finally {
      await close(proxy)
    }
  })

  it("reports a call its signal aborted as CANCELLED", async () => {
    const silent = createServer(() => {})
    const url = await listen(silent)
    try {
      const controller = new AbortController()
      const pending = createAtriumClient({ baseUrl: url }).workspaceCreate({ ownerEmail: "o@acme.example" }, { signal: controller.signal })
      setTimeout(() => controller.abort(), 50)
      expect((await pending).error).toMatchObject({ status: "CANCELLED", httpStatus: 0 })
    } finally {
      silent.closeAllConnections()
      await close(silent)
    }
  })

  it("uses the fetch it is given, with the options' and the call's headers", async () => {
    const seen: Array<{ url: string; headers: Headers; body: unknown }> = []
    const recording: typeof fetch = async (input, init) => {
      seen.push({ url: String(input), headers: new Headers(init?.headers), body: JSON.parse(String(init?.body)) })
      return fetch(input, init)
    }
    const traced = client.withOptions({ fetch: recording, headers: { "x-request-id": "from-options" } })
    const outcome = await traced.organizationsGet({ organizationIds: ["acme"] }, { headers: { "x-request-id": "from-call" } })
    expect(outcome.error).toBeUndefined()
    expect(seen).toHaveLength(1)
    expect(seen[0]!.url).toBe(`${running.url}/v2/organizations/get`)
    expect(seen[0]!.headers.get("x-request-id")).toBe("from-call")
    expect(seen[0]!.headers.get("x-service-api-key")).toBeTruthy()
    expect(seen[0]!.headers.get("x-service-workspace-id")).toBeNull()
    expect(seen[0]!.body).toEqual({ data: { organizationIds: ["acme"] } })
  })
})
