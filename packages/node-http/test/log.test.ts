/**
 * makeLog for an embedded host (issue 27): the same lines as `atrium serve`, a request's method,
 * path, status, duration and id as JSON fields, and Atrium's own Effect logs in the same format.
 */
import { createAtrium } from "@atrium/core"
import { MemoryStorage } from "@atrium/core/testing"
import * as Effect from "effect/Effect"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { expect, it } from "vitest"
import { makeLog, toNodeListener } from "../src/index.js"

it("gives an embedded Atrium the server's JSON lines: requests with their fields, Effect logs beside them", async () => {
  const lines: Array<string> = []
  const log = makeLog({ level: "info", format: "json" }, (line) => lines.push(line))
  const atrium = createAtrium({ storage: MemoryStorage, logger: log.effectLogger })
  const server = createServer(toNodeListener(atrium, { basePath: "/collab", onResponse: log.onResponse }))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/collab`
    const answer = await fetch(`${url}/v2/organizations/get`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-request-id": "edge-42" },
      body: JSON.stringify({ data: {} })
    })
    expect(answer.status).toBe(403)
    await atrium.runtime.runPromise(Effect.logWarning("from Atrium's own code").pipe(Effect.annotateLogs({ jobId: "job_1" })))
    const parsed = lines.map((line) => JSON.parse(line))
    expect(parsed).toContainEqual({
      time: expect.stringMatching(/Z$/),
      level: "info",
      msg: "POST /v2/organizations/get 403",
      method: "POST",
      path: "/v2/organizations/get",
      status: 403,
      durationMs: expect.any(Number),
      requestId: "edge-42"
    })
    expect(parsed).toContainEqual({ time: expect.any(String), level: "warn", msg: "from Atrium's own code", jobId: "job_1" })
  } finally {
    await new Promise((resolve) => server.close(resolve))
    await atrium.dispose()
  }
})
