import { type AtriumHandler, createAtrium } from "@atrium/core"
import { createTestWorkspace, directClient, testAtrium } from "@atrium/core/testing"
import { PgStorage } from "@atrium/sql-pg"
import { testDatabase } from "@atrium/sql-pg/testing"
import { SqliteStorage } from "@atrium/sql-sqlite"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { forEachBackend } from "../../../../test-support/backends.js"

const PATH = "/v2/organizations/documents/get"
const DAY = 24 * 60 * 60 * 1000
// A day's window: a test would have to straddle midnight UTC for its window to restart.
const perApiKey = { limit: 5, windowMillis: DAY }
const EXHAUSTED = { error: { status: "RESOURCE_EXHAUSTED", message: "Rate limit exceeded for this endpoint. Try again later." } }

forEachBackend("per-API-key rate limit", (ctx) => {
  it("answers RESOURCE_EXHAUSTED with Retry-After past the key's limit; other keys and failed logins are not counted", async () => {
    const { client, workspace } = ctx()
    const creds = await workspace()
    const other = await workspace()
    // Calls that fail authentication do not use the key's budget (nobody can spend another's).
    for (let i = 0; i < 7; i++) {
      expect((await client.post(PATH, { organizationId: "o" }, { ...creds.headers, "x-service-auth-token": "wrong" })).status).toBe(403)
    }
    for (let i = 0; i < perApiKey.limit; i++) {
      expect((await client.post(PATH, { organizationId: "o" }, creds.headers)).status).toBe(200)
    }
    const over = await client.post(PATH, { organizationId: "o" }, creds.headers)
    expect(over.status).toBe(429)
    expect(over.body).toEqual(EXHAUSTED)
    const retryAfter = Number(over.headers["retry-after"])
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= DAY / 1000).toBe(true)
    // Writes are refused too, and nothing is written.
    const write = await client.post("/v2/organizations/add", { organizations: [{ organizationId: "late" }] }, creds.headers)
    expect(write.status).toBe(429)
    expect((await client.post(PATH, { organizationId: "o" }, other.headers)).status).toBe(200)
  })
}, { options: { rateLimits: { perApiKey } } })

describe("per-API-key rate limit across servers on one database", () => {
  const cleanups: Array<() => Promise<void> | void> = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })

  const twoServers = async (storage: () => Parameters<typeof testAtrium>[0]) => {
    const first = testAtrium(storage(), { rateLimits: { perApiKey } })
    const second: AtriumHandler = createAtrium({ storage: storage(), options: { rateLimits: { perApiKey } } })
    cleanups.push(() => first.dispose(), () => second.dispose())
    await first.ready()
    await second.ready()
    return [directClient(first), directClient(second)] as const
  }

  const holdsAcross = async (storage: () => Parameters<typeof testAtrium>[0]) => {
    const [a, b] = await twoServers(storage)
    const creds = await createTestWorkspace(a)
    const statuses: Array<number> = []
    for (let i = 0; i < perApiKey.limit + 2; i++) {
      statuses.push((await (i % 2 === 0 ? a : b).post(PATH, { organizationId: "o" }, creds.headers)).status)
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429])
  }

  it("SQLite: two Atriums on one file share each key's count", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atrium-rate-"))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    await holdsAcross(() => SqliteStorage.layer({ filename: join(dir, "atrium.db") }))
  })

  it("PostgreSQL: two Atriums on one database share each key's count", async () => {
    const db = await testDatabase()
    cleanups.push(() => db.drop())
    await holdsAcross(() => PgStorage.layer({ url: db.url }))
  })
})
