/**
 * @atrium/browser against a real Atrium behind node:http, on SQLite and on PostgreSQL: every
 * operation of the client API called through its method during the walkthrough `pnpm docs` records
 * (scripts/walkthrough.mjs; the other paths through @atrium/client, as the host's backend), each
 * answer what the operation's output schema describes; then the errors and options a caller meets.
 */
import { createAtriumClient, operationTable as serverOperationTable } from "@atrium/client"
import { operations } from "@atrium/core"
import * as Schema from "effect/Schema"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { serveAtrium } from "../../../test-support/HttpAtrium.js"
import { createClient, operationTable, orThrow } from "../src/index.js"
import { type Host, startHost } from "./host.js"

/** scripts/walkthrough.mjs's `replay`: every path once, in an order where each finds what it needs. */
type Replay = (walker: {
  readonly call: (path: string, data: unknown, ctx: Record<string, any>) => Promise<unknown>
  readonly settle: () => Promise<unknown>
}) => Promise<void>
const walkthroughFile = pathToFileURL(join(__dirname, "..", "..", "..", "scripts", "walkthrough.mjs")).href
const outputOf = new Map(operations.flatMap((operation) => operation.paths.map((path) => [path, operation.output as Schema.Schema<unknown, unknown>])))
const methodOf = new Map<string, string>(Object.entries(operationTable).map(([name, { path }]) => [path, name]))
const serverMethodOf = new Map<string, string>(Object.entries(serverOperationTable).map(([name, { path }]) => [path, name]))

describe("@atrium/browser's operations", () => {
  it("are the operation table's user-token operations, every one", () => {
    const userPaths = operations.filter((operation) => operation.auth === "user").flatMap((operation) => operation.paths)
    expect([...methodOf.keys()].sort()).toEqual(userPaths.sort())
    expect(methodOf.get("/v2/client/session/get")).toBe("sessionGet")
  })
})

for (const storage of ["sqlite", "postgres"] as const) {
  describe(`@atrium/browser on ${storage}`, () => {
    it("calls every client operation through its method, each answering its result", async () => {
      const running = await serveAtrium(storage)
      try {
        const { replay } = (await import(walkthroughFile)) as { replay: Replay }
        let userToken: string | undefined
        const atrium = createClient({ baseUrl: running.url, getToken: () => userToken! })
        const called = new Set<string>()
        await replay({
          settle: () => running.atrium.runDue(),
          call: async (path, data, ctx) => {
            const method = methodOf.get(path)
            if (method === undefined) {
              // The host's backend, with the API key the walk gathered.
              const backend = createAtriumClient({ baseUrl: running.url, ...ctx })
              return orThrow((backend[serverMethodOf.get(path) as keyof typeof backend] as (input: unknown) => Promise<any>)(data))
            }
            userToken = ctx["userToken"]
            const outcome = await (atrium[method as keyof typeof atrium] as (input: unknown) => Promise<any>)(data)
            expect(outcome.error, `${method}: ${outcome.error?.message}`).toBeUndefined()
            expect(() => Schema.decodeUnknownSync(outputOf.get(path)!)(outcome.result), method).not.toThrow()
            called.add(method)
            return outcome.result
          }
        })
        expect([...called].sort()).toEqual(Object.keys(operationTable).sort())
      } finally {
        await running.stop()
      }
    }, 120_000)
  })
}

describe("@atrium/browser errors and options", () => {
  let host: Host
  beforeAll(async () => {
    host = await startHost()
  })
  afterAll(() => host?.stop())

  it("answers input Atrium refuses as an INVALID_ARGUMENT error value naming the field; orThrow throws it", async () => {
    const ann = await host.token("ann")
    const atrium = createClient({ baseUrl: host.url, getToken: () => ann })
    const outcome = await atrium.accessGet({ organizationId: "acme", documentIds: [] })
    expect(outcome.result).toBeUndefined()
    expect(outcome.error).toMatchObject({ name: "AtriumError", status: "INVALID_ARGUMENT", httpStatus: 400, operation: "accessGet" })
    expect(outcome.error!.message).toMatch(/documentIds/)
    await expect(orThrow(atrium.accessGet({ organizationId: "acme", documentIds: [] }))).rejects.toMatchObject({ status: "INVALID_ARGUMENT" })
    expect((await orThrow(atrium.sessionGet())).data.user.userId).toBe("ann")
  })

  it("calls an Atrium mounted under a path, with or without a trailing slash on baseUrl", async () => {
    const mounted = await serveAtrium("memory", { basePath: "/collab" })
    try {
      // No workspace there: the token is refused, which shows the call reached the mounted Atrium.
      for (const baseUrl of [`${mounted.url}/collab`, `${mounted.url}/collab/`, new URL(`${mounted.url}/collab`)]) {
        const outcome = await createClient({ baseUrl, getToken: () => "not-a-token" }).sessionGet()
        expect(outcome.error).toMatchObject({ status: "UNAUTHENTICATED", httpStatus: 401 })
      }
      const outside = await createClient({ baseUrl: mounted.url, getToken: () => "not-a-token" }).sessionGet()
      expect(outside.error).toMatchObject({ status: "NOT_FOUND", httpStatus: 404 })
    } finally {
      await mounted.stop()
    }
  })

  it("uses the fetch it is given, with the options' and the call's headers", async () => {
    const ann = await host.token("ann")
    const seen: Array<{ url: string; headers: Headers; body: unknown }> = []
    const recording: typeof fetch = async (input, init) => {
      seen.push({ url: String(input), headers: new Headers(init?.headers), body: JSON.parse(String(init?.body)) })
      return fetch(input, init)
    }
    const atrium = createClient({ baseUrl: host.url, getToken: async () => ann, fetch: recording, headers: { "x-request-id": "from-options" } })
    const outcome = await atrium.presenceGet({ organizationId: "acme", documentId: "spec-42" }, { headers: { "x-request-id": "from-call" } })
    expect(outcome.result?.data.map((entry) => entry.userId)).toEqual(["ann", "bo"])
    expect(seen).toHaveLength(1)
    expect(seen[0]!.url).toBe(`${host.url}/v2/client/presence/get`)
    expect(seen[0]!.headers.get("authorization")).toBe(`Bearer ${ann}`)
    expect(seen[0]!.headers.get("content-type")).toBe("application/json")
    expect(seen[0]!.headers.get("x-request-id")).toBe("from-call")
    expect(seen[0]!.body).toEqual({ data: { organizationId: "acme", documentId: "spec-42" } })
  })

  it("reports a call its signal aborted as CANCELLED", async () => {
    const ann = await host.token("ann")
    const controller = new AbortController()
    controller.abort()
    const outcome = await createClient({ baseUrl: host.url, getToken: () => ann }).sessionGet({}, { signal: controller.signal })
    expect(outcome.error).toMatchObject({ status: "CANCELLED", httpStatus: 0, operation: "sessionGet" })
  })
})
