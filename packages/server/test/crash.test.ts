/**
 * Crash safety of `atrium serve`, as an operator meets it: processes killed with SIGKILL in the
 * middle of a large batch write leave all of it or none; every acknowledged write is there after
 * a restart; SIGTERM lets the requests under way finish, then the process exits 0. On SQLite and
 * PostgreSQL, counted in the database itself.
 */
import { createTestWorkspace, httpClient, type TestCredentials } from "@atrium/core/testing"
import { testDatabase } from "@atrium/sql-pg/testing"
import { mkdtempSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"
import { killServerProcesses, startServerProcess } from "../../../test-support/ServerProcess.js"

const cli = join(__dirname, "..", "dist", "cli.js")
// better-sqlite3 has no types in this package: the little of it read here.
const Database: new (file: string, options: { readonly: boolean }) => {
  prepare: (sql: string) => { get: (...params: Array<unknown>) => unknown }
  close: () => void
} = createRequire(import.meta.url)("better-sqlite3")
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
afterAll(killServerProcesses)

interface Storage {
  readonly name: string
  readonly url: () => Promise<string>
  /** The first column of the first row of `statement` (placeholders `?`), read from the database. */
  readonly scalar: (statement: string, ...params: Array<unknown>) => Promise<number>
  /** Organizations of any key whose id starts with `prefix`. */
  readonly count: (prefix: string) => Promise<number>
  readonly close: () => Promise<void>
}

const countOf = (scalar: Storage["scalar"]) => (prefix: string) => scalar("SELECT COUNT(*) AS n FROM organizations WHERE id LIKE ?", `${prefix}%`)

const sqlite = (): Storage => {
  const dir = mkdtempSync(join(tmpdir(), "atrium-crash-"))
  const file = join(dir, "atrium.db")
  const scalar = async (statement: string, ...params: Array<unknown>) => {
    const db = new Database(file, { readonly: true })
    try {
      return Number(Object.values(db.prepare(statement).get(...params) as Record<string, unknown>)[0])
    } finally {
      db.close()
    }
  }
  return {
    name: "SQLite",
    url: async () => `sqlite:${file}`,
    scalar,
    count: countOf(scalar),
    close: async () => rmSync(dir, { recursive: true, force: true })
  }
}

const postgres = (): Storage => {
  let db: Awaited<ReturnType<typeof testDatabase>> | undefined
  const scalar = async (statement: string, ...params: Array<unknown>) => {
    const client = new pg.Client({ connectionString: db!.url })
    await client.connect()
    try {
      let i = 0
      const row = (await client.query(statement.replace(/\?/g, () => `$${++i}`), params)).rows[0]
      return Number(Object.values(row)[0])
    } finally {
      await client.end()
    }
  }
  return {
    name: "PostgreSQL",
    url: async () => (db ??= await testDatabase()).url,
    scalar,
    count: countOf(scalar),
    close: async () => db?.drop()
  }
}

/** The most organizations/add takes (docs/protocol.md, "Limits"): the longest batch there is to kill. */
const BATCH = 100
const batch = (prefix: string) => ({
  data: { organizations: Array.from({ length: BATCH }, (_, i) => ({ organizationId: `${prefix}${i}`, organizationName: `Organization ${i}` })) }
})

for (const make of [sqlite, postgres]) {
  const storage = make()
  describe(`crash safety on ${storage.name}`, () => {
    afterAll(() => storage.close())

    const start = async (env: NodeJS.ProcessEnv = {}) =>
      startServerProcess([cli, "serve"], { env: { ...process.env, DATABASE_URL: await storage.url(), PORT: "0", HOST: "127.0.0.1", ...env } })

    const post = (url: string, creds: TestCredentials, path: string, body: unknown) =>
      fetch(url + path, { method: "POST", headers: { "content-type": "application/json", ...creds.headers }, body: JSON.stringify(body) })

    it(`a batch of ${BATCH} organizations killed at any moment is all there or not there after a restart`, async () => {
      let server = await start()
      const creds = await createTestWorkspace(httpClient(server.url))
      const outcomes: Array<{ delay: number; answered: boolean; count: number }> = []
      for (const delay of [0, 10, 25, 50, 100, 200, 400]) {
        const prefix = `kill${delay}-`
        let answered = false
        const request = post(server.url, creds, "/v2/organizations/add", batch(prefix)).then((r) => void (answered = r.status === 200), () => undefined)
        await sleep(delay)
        await server.stop("SIGKILL")
        await request
        outcomes.push({ delay, answered, count: await storage.count(prefix) })
        server = await start()
      }
      await server.stop()
      for (const outcome of outcomes) expect([0, BATCH]).toContain(outcome.count)
      // An answered batch is all there.
      for (const outcome of outcomes.filter((o) => o.answered)) expect(outcome.count).toBe(BATCH)
      // At least one kill landed before the answer (else this test would show nothing).
      expect(outcomes.some((o) => !o.answered)).toBe(true)
    }, 60_000)

    it("a user-data deletion killed mid-job finishes after a restart, with exact counts", async () => {
      // Jobs polled every 20 ms and leased for 1 s: the restarted server takes the job over soon.
      const env = { ATRIUM_JOBS_POLL_MS: "20", ATRIUM_JOBS_LEASE_MS: "1000" }
      let server = await start(env)
      const creds = await createTestWorkspace(httpClient(server.url))
      const organizations = Array.from({ length: 60 }, (_, i) => `job-org-${i}`)
      const call = async (path: string, data: unknown) => {
        const answer = await post(server.url, creds, path, { data })
        expect(answer.status, path).toBeLessThan(300)
        return (await answer.json()).result
      }
      for (const organizationId of organizations) {
        await call("/v2/users/add", { organizationId, users: [{ userId: "victim" }, { userId: "keeper" }] })
        await call("/v2/activities/add", {
          organizationId,
          documentId: "doc",
          activities: ["victim", "keeper"].flatMap((userId) => [1, 2].map(() => ({ featureType: "comment", actionType: "added", actionUser: { userId } })))
        })
      }
      const activitiesOf = (userId: string) => storage.scalar("SELECT COUNT(*) AS n FROM activities WHERE api_key = ? AND user_id = ?", creds.apiKey, userId)
      expect(await activitiesOf("victim")).toBe(120)
      const { jobId } = (await call("/v2/users/data/delete", { userIds: ["victim"], organizationIds: organizations })).data
      // Killed once some of its tasks are committed and not all.
      const total = await storage.scalar("SELECT tasks_total AS n FROM jobs WHERE id = ?", jobId)
      let done = 0
      for (let i = 0; i < 2000 && done === 0; i++) done = await storage.scalar("SELECT tasks_done AS n FROM jobs WHERE id = ?", jobId)
      await server.stop("SIGKILL")
      const doneAtKill = await storage.scalar("SELECT tasks_done AS n FROM jobs WHERE id = ?", jobId)
      expect(doneAtKill).toBeGreaterThan(0)
      expect(doneAtKill).toBeLessThan(total)

      server = await start(env)
      let status: any
      for (let i = 0; i < 400; i++) {
        status = (await call("/v2/users/data/delete/status", { jobId })).data
        if (status.isDeleteCompleted) break
        await sleep(25)
      }
      await server.stop()
      expect(status).toMatchObject({ isDeleteCompleted: true, tasksLeft: 0 })
      expect(await storage.scalar("SELECT tasks_done AS n FROM jobs WHERE id = ?", jobId)).toBe(total)
      expect(await activitiesOf("victim")).toBe(0)
      expect(await activitiesOf("keeper")).toBe(120)
    }, 60_000)

    it("every acknowledged write is there after SIGKILL right after its answer", async () => {
      const server = await start()
      const creds = await createTestWorkspace(httpClient(server.url))
      for (let i = 0; i < 50; i++) {
        const answer = await post(server.url, creds, "/v2/organizations/add", { data: { organizations: [{ organizationId: `acked-${i}` }] } })
        expect(answer.status).toBe(200)
      }
      await server.stop("SIGKILL")
      expect(await storage.count("acked-")).toBe(50)
    }, 30_000)

    it("SIGTERM lets a batch under way finish and answer, then exits 0", async () => {
      const server = await start()
      const creds = await createTestWorkspace(httpClient(server.url))
      const request = post(server.url, creds, "/v2/organizations/add", batch("term-"))
      await sleep(20)
      const started = performance.now()
      const exit = server.stop("SIGTERM")
      const answer = await request
      expect(answer.status).toBe(200)
      expect(await exit).toBe(0)
      expect(performance.now() - started).toBeLessThan(10_000)
      expect(await storage.count("term-")).toBe(BATCH)
    }, 30_000)
  })
}
