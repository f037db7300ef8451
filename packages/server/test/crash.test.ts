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
  /** Organizations of any key whose id starts with `prefix`, read from the database. */
  readonly count: (prefix: string) => Promise<number>
  readonly close: () => Promise<void>
}

const sqlite = (): Storage => {
  const dir = mkdtempSync(join(tmpdir(), "atrium-crash-"))
  const file = join(dir, "atrium.db")
  return {
    name: "SQLite",
    url: async () => `sqlite:${file}`,
    count: async (prefix) => {
      const db = new Database(file, { readonly: true })
      try {
        return (db.prepare("SELECT COUNT(*) AS n FROM organizations WHERE id LIKE ?").get(`${prefix}%`) as { n: number }).n
      } finally {
        db.close()
      }
    },
    close: async () => rmSync(dir, { recursive: true, force: true })
  }
}

const postgres = (): Storage => {
  let db: Awaited<ReturnType<typeof testDatabase>> | undefined
  return {
    name: "PostgreSQL",
    url: async () => (db ??= await testDatabase()).url,
    count: async (prefix) => {
      const client = new pg.Client({ connectionString: db!.url })
      await client.connect()
      try {
        return Number((await client.query("SELECT COUNT(*) AS n FROM organizations WHERE id LIKE $1", [`${prefix}%`])).rows[0].n)
      } finally {
        await client.end()
      }
    },
    close: async () => db?.drop()
  }
}

const BATCH = 3000
const batch = (prefix: string) => ({
  data: { organizations: Array.from({ length: BATCH }, (_, i) => ({ organizationId: `${prefix}${i}`, organizationName: `Organization ${i}` })) }
})

for (const make of [sqlite, postgres]) {
  const storage = make()
  describe(`crash safety on ${storage.name}`, () => {
    afterAll(() => storage.close())

    const start = async () =>
      startServerProcess([cli, "serve"], { env: { ...process.env, DATABASE_URL: await storage.url(), PORT: "0", HOST: "127.0.0.1" } })

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
