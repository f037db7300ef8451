/** The README's embedding examples, as a host application would write them. */
import { atriumLayer, createAtrium, Documents, Ids } from "@atrium/core"
import { createTestWorkspace, httpClient, MemoryStorage } from "@atrium/core/testing"
import { toNodeListener } from "@atrium/node-http"
import { SqliteStorage } from "@atrium/sql-sqlite"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { listen } from "../../../test-support/backends.js"

describe("embedding", () => {
  it("mounts on node:http under a base path, beside the host's own routes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atrium-embed-"))
    const atrium = createAtrium({ storage: SqliteStorage.layer({ filename: join(dir, "atrium.db") }) })
    const collab = toNodeListener(atrium, { basePath: "/collab" })
    const server = createServer((req, res) => (req.url === "/own" ? res.end("own route") : collab(req, res)))
    const url = await listen(server)
    try {
      expect(await (await fetch(`${url}/own`)).text()).toBe("own route")
      const client = httpClient(`${url}/collab`)
      const creds = await createTestWorkspace(client)
      const answer = await client.post("/v2/organizations/documents/get", { organizationId: "o" }, creds.headers)
      expect(answer.body.result.data).toEqual([])
      const outside = await httpClient(url).post("/v2/organizations/documents/get", { organizationId: "o" }, creds.headers)
      expect(outside.body.error).toEqual({ status: "NOT_FOUND", message: "No operation at /v2/organizations/documents/get." })
    } finally {
      await new Promise((resolve) => server.close(resolve))
      await atrium.dispose()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("calls a service directly, with ports swapped for the test", async () => {
    let n = 0
    const countingIds = Layer.succeed(Ids, { make: (prefix) => Effect.sync(() => `${prefix ?? "id"}-custom-${++n}`) })
    const program = Effect.gen(function*() {
      const added = yield* Documents.addV1("atr_key", { organizationId: "org-1", documents: [{ documentId: "d1", documentName: "One" }] })
      const page = yield* Documents.get("atr_key", { organizationId: "org-1" })
      return { added, page }
    })
    const { added, page } = await Effect.runPromise(
      program.pipe(Effect.provide(atriumLayer({ storage: MemoryStorage, ids: countingIds })))
    )
    expect(added.d1).toEqual({ success: true, id: "id-custom-1", message: "Added Successfully" })
    expect(page.items).toEqual([{ documentName: "One", disabled: false, accessType: "public", id: "d1" }])
  })
})
