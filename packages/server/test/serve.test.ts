/** `serve()` as the `atrium serve` command runs it: real HTTP, SQLite, background jobs. */
import { createTestWorkspace, httpClient } from "@atrium/core/testing"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningServer, serve } from "../src/Serve.js"

const dir = mkdtempSync(join(tmpdir(), "atrium-serve-"))
let running: RunningServer
const lines: Array<string> = []

beforeAll(async () => {
  running = await serve(
    { port: 0, host: "127.0.0.1", databaseUrl: `sqlite:${join(dir, "serve.db")}`, options: { jobs: { pollIntervalMillis: 20 } } },
    { log: (line) => void lines.push(line) }
  )
})
afterAll(async () => {
  await running.close()
  rmSync(dir, { recursive: true, force: true })
})

describe("serve", () => {
  it("runs a user-data deletion to completion in the background", async () => {
    const client = httpClient(running.url)
    const creds = await createTestWorkspace(client)
    await client.post("/v2/activities/add", {
      organizationId: "o",
      documentId: "d",
      activities: [{ featureType: "comment", actionType: "comment.add", actionUser: { userId: "gone" } }]
    }, creds.headers)
    const started = await client.post("/v2/users/data/delete", { userIds: ["gone"] }, creds.headers)
    expect(started.status).toBe(202)
    const jobId = started.body.result.data.jobId
    let status: any
    for (let i = 0; i < 200; i++) {
      status = (await client.post("/v2/users/data/delete/status", { jobId }, creds.headers)).body.result.data
      if (status.isDeleteCompleted) break
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    expect(status).toMatchObject({ isDeleteCompleted: true, tasksLeft: 0 })
    const left = await client.post("/v2/activities/get", { organizationId: "o", userId: "gone" }, creds.headers)
    expect(left.body.result.data).toEqual([])
  })

  it("logs one line per request", async () => {
    const before = lines.length
    await fetch(`${running.url}/healthz`)
    await new Promise((resolve) => setTimeout(resolve, 10))
    expect(lines.slice(before)).toEqual([expect.stringMatching(/^\S+Z GET \/healthz 200 [\d.]+ms$/)])
  })
})
