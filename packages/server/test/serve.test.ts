/** `serve()` as the `atrium serve` command runs it: real HTTP, SQLite, background jobs. */
import { createTestWorkspace, httpClient } from "@atrium/core/testing"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startReceiver } from "../../../test-support/receiver.js"
import { type RunningServer, serve } from "../src/Serve.js"

const dir = mkdtempSync(join(tmpdir(), "atrium-serve-"))
let running: RunningServer
const lines: Array<string> = []

beforeAll(async () => {
  running = await serve(
    { port: 0, host: "127.0.0.1", databaseUrl: `sqlite:${join(dir, "serve.db")}`, options: { jobs: { pollIntervalMillis: 20 }, webhooks: { pollIntervalMillis: 20 }, allowPrivateNetworks: true } },
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
    expect(lines.slice(before)).toEqual([expect.stringMatching(/^\S+Z INFO  GET \/healthz 200 [\d.]+ms requestId=[0-9a-f-]{36}$/)])
  })

  it("logs each webhook attempt: delivered, or failed with what comes next", async () => {
    const receiver = await startReceiver()
    try {
      const client = httpClient(running.url)
      const creds = await createTestWorkspace(client)
      await client.post("/v2/workspace/advancedwebhookconfig/update", { isEnabled: true }, creds.headers)
      const endpoint = await client.post("/v2/workspace/advancedwebhook/endpoints/create", { url: receiver.url }, creds.headers)
      const endpointId = endpoint.body.result.data.id
      const created = await client.post("/v2/workspace/advancedwebhook/messages/create", { eventType: "invoice.paid", payload: { n: 1 } }, creds.headers)
      const messageId = created.body.result.data.messageId
      await receiver.waitFor(1)
      const delivered = new RegExp(`^\\S+Z INFO  Webhook ${messageId} delivered to ${endpointId} \\(attempt 1, HTTP 200, \\d+ ms\\)\\. .*messageId=${messageId}`)
      await expect.poll(() => lines.some((line) => delivered.test(line)), { timeout: 5_000 }).toBe(true)

      receiver.answer = () => ({ status: 503 })
      const failing = await client.post("/v2/workspace/advancedwebhook/messages/create", { eventType: "invoice.paid", payload: { n: 2 } }, creds.headers)
      const failedId = failing.body.result.data.messageId
      await receiver.waitFor(2)
      const failed = new RegExp(`^\\S+Z WARN  Webhook ${failedId} to ${endpointId} failed \\(attempt 1, HTTP 503, \\d+ ms\\); next attempt at \\S+Z\\. `)
      await expect.poll(() => lines.some((line) => failed.test(line)), { timeout: 5_000 }).toBe(true)
    } finally {
      await receiver.close()
    }
  })
})
