/**
 * Webhook delivery as an operator runs it: `atrium serve` and `atrium worker` in their own
 * processes, receivers on loopback, deliveries verified with standardwebhooks; processes
 * killed with SIGKILL deliver after restart; two servers on one PostgreSQL database deliver
 * each message once.
 */
import { testDatabase } from "@atrium/sql-pg/testing"
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { type Receiver, startReceiver, verified } from "../../../test-support/receiver.js"
import { killServerProcesses, type ServerProcess, startServerProcess } from "../../../test-support/ServerProcess.js"

const cli = join(__dirname, "..", "dist", "cli.js")
const dir = mkdtempSync(join(tmpdir(), "atrium-webhooks-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
afterAll(killServerProcesses)

let receiver: Receiver
beforeAll(async () => {
  receiver = await startReceiver()
})
afterAll(() => receiver.close())
beforeEach(() => {
  receiver.answer = () => ({ status: 200 })
})

const BASE = "/v2/workspace/advancedwebhook"
let databases = 0
const sqliteUrl = () => `sqlite:${join(dir, `db${++databases}.db`)}`

const envFor = (databaseUrl: string, extra: Record<string, string> = {}) => ({
  ...process.env,
  DATABASE_URL: databaseUrl,
  PORT: "0",
  HOST: "127.0.0.1",
  ATRIUM_ALLOW_PRIVATE_NETWORKS: "1",
  ...extra
})

const serve = (databaseUrl: string, extra: Record<string, string> = {}) => startServerProcess([cli, "serve"], { env: envFor(databaseUrl, extra) })

interface Setup {
  readonly headers: Record<string, string>
  readonly secret: string
  readonly endpointId: string
}

const call = async (server: ServerProcess, path: string, data: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(server.url + path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ data })
  })
  const body = await response.json() as any
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`)
  return body.result.data
}

/** A workspace with advanced webhooks on and an endpoint at the receiver. */
const setUp = async (server: ServerProcess): Promise<Setup> => {
  const created = await call(server, "/v2/workspace/create", { ownerEmail: `owner${Math.random().toString(36).slice(2)}@example.com` })
  const [apiKey, entry] = Object.entries(created.apiKeyList)[0] as [string, { authToken: string }]
  const headers = { "x-service-api-key": apiKey, "x-service-auth-token": entry.authToken }
  await call(server, "/v2/workspace/advancedwebhookconfig/update", { isEnabled: true }, headers)
  const endpoint = await call(server, `${BASE}/endpoints/create`, { url: receiver.url }, headers)
  const { secret } = await call(server, `${BASE}/endpoints/secret/get`, { endpointId: endpoint.id }, headers)
  return { headers, secret, endpointId: endpoint.id }
}

const publish = (server: ServerProcess, setup: Setup, payload: Record<string, unknown> = {}) =>
  call(server, `${BASE}/messages/create`, { eventType: "order.paid", payload }, setup.headers).then((m) => m.messageId as string)

const receivedFor = (messageId: string) => receiver.received.filter((r) => r.headers["webhook-id"] === messageId)

const waitUntil = async (what: string, until: () => boolean, timeoutMillis = 10_000) => {
  const deadline = Date.now() + timeoutMillis
  while (!until()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

describe("atrium serve delivers webhooks", () => {
  it("delivers an activities/add to a new endpoint, verified, within a second", async () => {
    const server = await serve(sqliteUrl())
    try {
      const setup = await setUp(server)
      const started = Date.now()
      await call(server, "/v2/activities/add", {
        organizationId: "org",
        documentId: "doc",
        activities: [{ featureType: "comment", actionType: "add", actionUser: { userId: "u" } }]
      }, setup.headers)
      await waitUntil("the delivery", () => receiver.received.some((r) => r.body.includes('"event":"comment.add"')), 1000)
      const elapsed = Date.now() - started
      const delivery = receiver.received.find((r) => r.body.includes('"event":"comment.add"'))!
      expect(verified(setup.secret, delivery)).toMatchObject({ event: "comment.add", data: { actionUser: { userId: "u" } } })
      expect(elapsed).toBeLessThan(1000)
    } finally {
      expect(await server.stop()).toBe(0)
    }
  })

  it("killed with SIGKILL while an attempt is in flight, delivers it after restart", async () => {
    const database = sqliteUrl()
    const settings = { ATRIUM_WEBHOOK_LEASE_MS: "1000", ATRIUM_WEBHOOK_POLL_MS: "50" }
    const first = await serve(database, settings)
    const setup = await setUp(first)
    // The receiver holds the answer: the attempt is made but never recorded.
    receiver.answer = () => ({ status: 200, delayMillis: 5000 })
    const messageId = await publish(first, setup, { n: 1 })
    await waitUntil("the first attempt", () => receivedFor(messageId).length === 1)
    await first.stop("SIGKILL")
    receiver.answer = () => ({ status: 200 })
    const second = await serve(database, settings)
    try {
      await waitUntil("the delivery after restart", () => receivedFor(messageId).length === 2)
      expect(verified(setup.secret, receivedFor(messageId)[1]!)).toMatchObject({ webhookId: messageId, data: { n: 1 } })
    } finally {
      await second.stop()
    }
  })

  it("killed with SIGKILL with a retry pending, makes the retry after restart", async () => {
    const database = sqliteUrl()
    const settings = { ATRIUM_WEBHOOK_RETRY_SCHEDULE: "0,1", ATRIUM_WEBHOOK_POLL_MS: "50" }
    const first = await serve(database, settings)
    const setup = await setUp(first)
    receiver.answer = () => ({ status: 500 })
    const messageId = await publish(first, setup)
    await waitUntil("the first attempt", () => receivedFor(messageId).length === 1)
    // Give the failure time to be recorded (a batch commits right after the answer).
    await new Promise((resolve) => setTimeout(resolve, 200))
    await first.stop("SIGKILL")
    receiver.answer = () => ({ status: 200 })
    const second = await serve(database, settings)
    try {
      await waitUntil("the retry", () => receivedFor(messageId).length === 2)
      const attempts = (await call(second, `${BASE}/attempts/get`, { messageId }, setup.headers)).attempts
      expect(attempts.map((a: any) => [a.attemptNumber, a.status])).toEqual([[2, "success"], [1, "failed"]])
    } finally {
      await second.stop()
    }
  })

  it("stopped with SIGTERM, leaves a pending retry for `atrium worker --once`", async () => {
    const database = sqliteUrl()
    const settings = { ATRIUM_WEBHOOK_RETRY_SCHEDULE: "0,0.5" }
    const server = await serve(database, settings)
    const setup = await setUp(server)
    receiver.answer = () => ({ status: 503 })
    const messageId = await publish(server, setup)
    await waitUntil("the first attempt", () => receivedFor(messageId).length === 1)
    expect(await server.stop()).toBe(0)
    receiver.answer = () => ({ status: 200 })
    await new Promise((resolve) => setTimeout(resolve, 600))
    const once = await promisify(execFile)(process.execPath, [cli, "worker", "--once"], { env: envFor(database, settings), encoding: "utf8" })
    expect(once.stdout).toContain("atrium: 1 delivery attempt(s), 0 job task(s)")
    expect(receivedFor(messageId)).toHaveLength(2)
  })
})

describe("two servers on one PostgreSQL database", () => {
  it("deliver each message once between them", async () => {
    const db = await testDatabase()
    const settings = { ATRIUM_WEBHOOK_POLL_MS: "20", ATRIUM_WEBHOOK_CONCURRENCY: "8" }
    const a = await serve(db.url, settings)
    const b = await serve(db.url, settings)
    try {
      const setup = await setUp(a)
      receiver.answer = () => ({ status: 200, delayMillis: 5 })
      const ids = await Promise.all(Array.from({ length: 120 }, (_, n) => publish(n % 2 === 0 ? a : b, setup, { n })))
      await waitUntil("every delivery", () => ids.every((id) => receivedFor(id).length >= 1), 20_000)
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(ids.filter((id) => receivedFor(id).length !== 1)).toEqual([])
    } finally {
      await Promise.all([a.stop(), b.stop()])
      await db.drop()
    }
  })
})
