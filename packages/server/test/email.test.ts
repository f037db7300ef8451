/**
 * Notification email as an operator runs it (issue 26, docs/notifications.md "Email"): `atrium
 * serve` processes with ATRIUM_SMTP_URL pointing at a real SMTP server on loopback. A mention
 * on a fresh server becomes a readable email, after the workspace's delay and not before; two
 * servers on one PostgreSQL database send each email and each digest once; a server killed
 * after the change committed, or in the middle of sending, still has its email sent.
 */
import { testDatabase } from "@atrium/sql-pg/testing"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { killServerProcesses, type ServerProcess, startServerProcess } from "../../../test-support/ServerProcess.js"
import { type MailServer, startMailServer } from "../../../test-support/smtp.js"

const cli = join(__dirname, "..", "dist", "cli.js")
const dir = mkdtempSync(join(tmpdir(), "atrium-email-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
afterAll(killServerProcesses)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

let smtp: MailServer
beforeAll(async () => {
  smtp = await startMailServer()
})
afterAll(() => smtp.close())
beforeEach(() => {
  smtp.refuse = () => undefined
  smtp.hold = false
})

let databases = 0
const sqliteUrl = () => `sqlite:${join(dir, `db${++databases}.db`)}`
const serve = (databaseUrl: string, extra: Record<string, string> = {}) =>
  startServerProcess([cli, "serve"], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: "0", HOST: "127.0.0.1", ATRIUM_SMTP_URL: smtp.url, ATRIUM_EMAIL_FROM: "Atrium <atrium@test.example>", ATRIUM_EMAIL_POLL_MS: "100", ...extra }
  })

const call = async (server: ServerProcess, path: string, data: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(server.url + path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ data }) })
  const body = await response.json() as any
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`)
  return body.result.data
}

/** A workspace with ann and bob (with addresses unique to it) in "org"; its headers and bob's address. */
const setUp = async (server: ServerProcess) => {
  const tag = Math.random().toString(36).slice(2, 10)
  const created = await call(server, "/v2/workspace/create", { ownerEmail: `owner-${tag}@example.com` })
  const [apiKey, entry] = Object.entries(created.apiKeyList)[0] as [string, { authToken: string }]
  const headers = { "x-service-api-key": apiKey, "x-service-auth-token": entry.authToken }
  const bob = `bob-${tag}@example.com`
  await call(server, "/v2/users/add", { organizationId: "org", createOrganization: true, users: [{ userId: "ann", name: "Ann Lee", email: `ann-${tag}@example.com` }, { userId: "bob", name: "Bob Roe", email: bob }] }, headers)
  return { headers, bob }
}

/** ann mentions bob in a new thread on `documentId`. */
const mentionBob = (server: ServerProcess, headers: Record<string, string>, documentId = "doc", text = "Bob, can you check the numbers?") =>
  call(server, "/v2/commentannotations/add", {
    organizationId: "org",
    documentId,
    createDocument: true,
    commentAnnotations: [{ commentData: [{ commentText: text, from: { userId: "ann", name: "Ann Lee" }, taggedUserContacts: [{ userId: "bob", text: "@Bob" }], triggerNotification: true }] }]
  }, headers)

const mailsTo = (address: string) => smtp.mails.filter((mail) => mail.to.includes(address))
const waitForMails = async (address: string, count: number, timeoutMillis = 20_000) => {
  const deadline = Date.now() + timeoutMillis
  while (mailsTo(address).length < count) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMillis} ms for ${count} mail(s) to ${address}, got ${mailsTo(address).length}`)
    await sleep(25)
  }
  return mailsTo(address)
}

describe("atrium serve mails notifications through ATRIUM_SMTP_URL", () => {
  it("a mention on a fresh server becomes a readable email, after the workspace's delay and not before", async () => {
    const server = await serve(sqliteUrl())
    try {
      expect(server.output()).toContain(`mail goes through ${smtp.url}`)
      const { bob, headers } = await setUp(server)
      await call(server, "/v2/workspace/notificationconfig/update", { useNotificationService: true, notificationServiceConfig: { delayConfig: { isEnabled: true, delaySeconds: 10 } } }, headers)
      const started = Date.now()
      await mentionBob(server, headers)
      await sleep(8000)
      expect(mailsTo(bob)).toEqual([])
      const [mail] = await waitForMails(bob, 1)
      expect(Date.now() - started).toBeGreaterThanOrEqual(10_000)
      expect(mail!.parsed.from?.value).toEqual([{ name: "Atrium", address: "atrium@test.example" }])
      expect(mail!.subject).toBe("Ann Lee started a comment thread (doc)")
      expect(mail!.text).toContain("Bob, can you check the numbers?")
      expect(mail!.html).toContain("<strong>Ann Lee started a comment thread</strong>")
    } finally {
      expect(await server.stop()).toBe(0)
    }
  })

  it("without ATRIUM_SMTP_URL, says at start that nothing is mailed", async () => {
    const server = await serve(sqliteUrl(), { ATRIUM_SMTP_URL: "" })
    try {
      expect(server.output()).toContain("ATRIUM_SMTP_URL is not set: no email is sent")
    } finally {
      await server.stop()
    }
  })

  it("killed after the change committed, before composing: the next server sends the email", async () => {
    const database = sqliteUrl()
    // This one never gets round to it: it looks once an hour.
    const first = await serve(database, { ATRIUM_EMAIL_POLL_MS: "3600000" })
    const { bob, headers } = await setUp(first)
    // Its first look happens at start; wait past it, then write.
    await sleep(300)
    await mentionBob(first, headers)
    await sleep(300)
    expect(mailsTo(bob)).toEqual([])
    await first.stop("SIGKILL")
    const second = await serve(database)
    try {
      expect((await waitForMails(bob, 1)).map((mail) => mail.subject)).toEqual(["Ann Lee started a comment thread (doc)"])
    } finally {
      await second.stop()
    }
  })

  it("killed while the SMTP server holds its email: another server sends it once the lease ran out", async () => {
    const database = sqliteUrl()
    const lease = { ATRIUM_EMAIL_LEASE_MS: "1500" }
    const first = await serve(database, lease)
    const { bob, headers } = await setUp(first)
    smtp.hold = true
    const heldBefore = smtp.mails.length
    await mentionBob(first, headers)
    // Wait until the first server is sending (its data reached the SMTP server, which never answers).
    await sleep(1000)
    await first.stop("SIGKILL")
    smtp.hold = false
    expect(smtp.mails.length).toBe(heldBefore)
    const second = await serve(database, lease)
    try {
      const mails = await waitForMails(bob, 1)
      expect(mails.map((mail) => mail.subject)).toEqual(["Ann Lee started a comment thread (doc)"])
      await sleep(1000)
      expect(mailsTo(bob)).toHaveLength(1)
    } finally {
      await second.stop()
    }
  })
})

describe("two servers on one PostgreSQL database", () => {
  it("send each email and each digest once", async () => {
    const db = await testDatabase()
    const first = await serve(db.url)
    const second = await serve(db.url)
    try {
      const { bob, headers } = await setUp(first)
      // Singles: 20 mentions, half through each server.
      await Promise.all(Array.from({ length: 20 }, (_, i) => mentionBob(i % 2 === 0 ? first : second, headers, "doc", `single ${i}`)))
      const singles = await waitForMails(bob, 20)
      await sleep(1500)
      expect(mailsTo(bob)).toHaveLength(20)
      expect(new Set(singles.map((mail) => mail.text.match(/single \d+/)![0])).size).toBe(20)
      // Digests: per document, closing after 10 s; 3 documents, 10 mentions each, through both servers.
      await call(second, "/v2/workspace/notificationconfig/update", {
        useNotificationService: true,
        notificationServiceConfig: { batchConfig: { document: { isEnabled: true, batchWindowSeconds: 10, maxActivities: 50 } } }
      }, headers)
      await Promise.all(Array.from({ length: 30 }, (_, i) => mentionBob(i % 2 === 0 ? first : second, headers, `doc-${i % 3}`, `batched ${i}`)))
      const all = await waitForMails(bob, 23)
      await sleep(2000)
      const digests = mailsTo(bob).slice(20)
      expect(digests.map((mail) => mail.subject).sort()).toEqual(["10 new notifications in doc-0", "10 new notifications in doc-1", "10 new notifications in doc-2"])
      expect(all.length).toBe(23)
      expect(digests.flatMap((mail) => mail.text.match(/batched \d+/g)!).sort()).toEqual(Array.from({ length: 30 }, (_, i) => `batched ${i}`).sort())
    } finally {
      await first.stop()
      await second.stop()
      await db.drop()
    }
  }, 60_000)
})
