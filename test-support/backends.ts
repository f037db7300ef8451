/**
 * The backends every operation test runs against: in-memory storage called in
 * process, SQLite called in process, SQLite behind a real node:http server, and
 * PostgreSQL called in process (a fresh database from `@atrium/sql-pg/testing`).
 * Each `start()` gives a fresh, empty store.
 */
import { type AtriumHandler, type AtriumOptionsInput, createAtrium } from "@atrium/core"
import { createTestWorkspace, directClient, httpClient, MemoryStorage, testAtrium, type TestClient, type TestCredentials } from "@atrium/core/testing"
import { InProcessChangeFeed } from "@atrium/core/sql"
import { toNodeListener } from "@atrium/node-http"
import { PgStorage } from "@atrium/sql-pg"
import { type TestDatabase, testDatabase } from "@atrium/sql-pg/testing"
import { SqliteStorage } from "@atrium/sql-sqlite"
import * as Layer from "effect/Layer"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { afterAll, beforeAll, describe } from "vitest"

export interface Started {
  readonly atrium: AtriumHandler
  readonly client: TestClient
  /** A new workspace with one API key: its headers. */
  readonly workspace: (ownerEmail?: string) => Promise<TestCredentials>
  readonly stop: () => Promise<void>
}

export interface StartOptions {
  readonly options?: AtriumOptionsInput
  /** The mail port's Layer (e.g. one that captures mail); the default logs it. */
  readonly mailer?: Parameters<typeof testAtrium>[2]
  /** Listeners of domain events besides Atrium's own. */
  readonly listeners?: NonNullable<Parameters<typeof testAtrium>[3]>["listeners"]
  /** Run the delivery worker in the background (default: deliveries wait for `runDue`). */
  readonly runDeliveries?: boolean
}

export interface Backend {
  readonly name: string
  readonly start: (options?: StartOptions) => Promise<Started>
}

const sqliteFile = () => {
  const dir = mkdtempSync(join(tmpdir(), "atrium-test-"))
  return { filename: join(dir, "atrium.db"), cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

const started = async (atrium: AtriumHandler, client: TestClient, stop: () => Promise<void>): Promise<Started> => {
  await atrium.ready()
  return { atrium, client, workspace: (email) => createTestWorkspace(client, email), stop }
}

/**
 * Listens on a free loopback port. Idle connections are kept a minute, not node's 5 s: the test's
 * fetch and the server share one event loop, and a test that holds it (a storage comparison under
 * a loaded CI machine) can send its next request on a connection whose 5 s ran out meanwhile. The
 * server then closes it under the request (ECONNRESET on read) before fetch's own idle timer,
 * which runs up to a second late, has dropped it.
 */
export const listen = (server: Server): Promise<string> => {
  server.keepAliveTimeout = 60_000
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)))
}

/** `atrium` behind a real node:http server on loopback; `cleanup` runs once the server and Atrium are closed. */
const startedOverHttp = async (atrium: AtriumHandler, cleanup: () => unknown): Promise<Started> => {
  const server = createServer(toNodeListener(atrium))
  const url = await listen(server)
  return started(atrium, httpClient(url), async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()))
    await atrium.dispose()
    await cleanup()
  })
}

/**
 * PostgreSQL storage on the test database. PGlite serves every connection from one session, so a
 * notification never reaches the feed's LISTEN connection: there the in-process feed stands in
 * (one server per database; the PostgreSQL feed's own tests need a real server).
 */
export const pgStorage = (db: TestDatabase) =>
  db.server.startsWith("PGlite") ? Layer.merge(PgStorage.layer({ url: db.url }), InProcessChangeFeed) : PgStorage.layer({ url: db.url })

/**
 * `ATRIUM_TEST_BACKENDS=memory,sqlite` (what `pnpm test:quick` sets): only the backends named run,
 * for the edit-test loop. Unset: every one (`pnpm test`, CI).
 */
const chosenBackends = process.env["ATRIUM_TEST_BACKENDS"]?.split(",").map((name) => name.trim()).filter((name) => name !== "")

const chosen = (list: ReadonlyArray<Backend>) =>
  chosenBackends === undefined ? list : list.filter((backend) => chosenBackends.includes(backend.name))

const everyBackend: ReadonlyArray<Backend> = [
  {
    name: "memory",
    start: async ({ listeners, mailer, options, runDeliveries } = {}) => {
      const atrium = testAtrium(MemoryStorage, options, mailer, { listeners, runDeliveries })
      return started(atrium, directClient(atrium), () => atrium.dispose())
    }
  },
  {
    name: "sqlite",
    start: async ({ listeners, mailer, options, runDeliveries } = {}) => {
      const db = sqliteFile()
      const atrium = testAtrium(SqliteStorage.layer({ filename: db.filename }), options, mailer, { listeners, runDeliveries })
      return started(atrium, directClient(atrium), async () => {
        await atrium.dispose()
        db.cleanup()
      })
    }
  },
  {
    name: "sqlite over node-http",
    start: async ({ listeners, mailer, options, runDeliveries } = {}) => {
      const db = sqliteFile()
      return startedOverHttp(testAtrium(SqliteStorage.layer({ filename: db.filename }), options, mailer, { listeners, runDeliveries }), db.cleanup)
    }
  },
  {
    name: "postgres",
    start: async ({ listeners, mailer, options, runDeliveries } = {}) => {
      const db = await testDatabase()
      const atrium = testAtrium(pgStorage(db), options, mailer, { listeners, runDeliveries })
      return started(atrium, directClient(atrium), async () => {
        await atrium.dispose()
        await db.drop()
      })
    }
  }
]

/** The backends that run now: every one, or those ATRIUM_TEST_BACKENDS names. */
export const backends: ReadonlyArray<Backend> = chosen(everyBackend)

/** One backend by name, whatever ATRIUM_TEST_BACKENDS says: for a test about that setup itself. */
export const backendNamed = (name: string): Backend => {
  const found = everyBackend.find((backend) => backend.name === name)
  if (found === undefined) throw new Error(`no backend named ${name}`)
  return found
}

/** PostgreSQL behind a real node:http server: for the suites that must cover HTTP on every storage (fuzzing). */
export const postgresOverHttp: Backend = {
  name: "postgres over node-http",
  start: async ({ listeners, mailer, options, runDeliveries } = {}) => {
    const db = await testDatabase()
    return startedOverHttp(testAtrium(pgStorage(db), options, mailer, { listeners, runDeliveries }), db.drop)
  }
}

export interface TwoServers {
  readonly one: Started
  readonly two: Started
  /**
   * Closes both servers, then answers how many deadlocks PostgreSQL broke in the database while
   * they ran (each connection reports its own as it closes, so they are counted once none is
   * left; none on PGlite, one session).
   */
  readonly deadlocks: () => Promise<number>
  /** Closes both servers (unless `deadlocks` did) and drops the database. */
  readonly stop: () => Promise<void>
}

/**
 * Two servers on one fresh PostgreSQL database, each behind its own node:http server: the first
 * as every backend starts one (sequential ids), the second as another process would be (random
 * ids, so the two never make the same one).
 */
export const twoPostgresServersOverHttp = async (): Promise<TwoServers> => {
  const db = await testDatabase()
  const one = await startedOverHttp(testAtrium(PgStorage.layer({ url: db.url })), () => undefined)
  const two = await startedOverHttp(createAtrium({ storage: PgStorage.layer({ url: db.url }), options: { allowPrivateNetworks: true } }), () => undefined)
  let closed: Promise<unknown> | undefined
  const close = () => closed ??= Promise.all([one.stop(), two.stop()])
  return {
    one,
    two,
    deadlocks: async () => {
      await close()
      if (db.server.startsWith("PGlite")) return 0
      const client = new pg.Client({ connectionString: db.url })
      await client.connect()
      try {
        // The servers' connections (application_name "atrium") exit after reporting their statistics.
        for (let wait = 0; wait < 250; wait++) {
          const left = await client.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'atrium'")
          if (left.rows[0].n === 0) break
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
        const counted = await client.query("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()")
        return Number(counted.rows[0].deadlocks)
      } finally {
        await client.end()
      }
    },
    stop: async () => {
      await close()
      await db.drop()
    }
  }
}

/**
 * Runs `suite` once per backend, with a started backend shared by the suite's
 * tests (each test makes its own workspace, so tests never see each other's data).
 */
export const forEachBackend = (
  title: string,
  suite: (ctx: () => Started) => void,
  options?: StartOptions,
  extra: ReadonlyArray<Backend> = []
) => {
  for (const backend of [...backends, ...chosen(extra)]) {
    describe(`${title} [${backend.name}]`, () => {
      let current: Started | undefined
      beforeAll(async () => {
        current = await backend.start(options)
      })
      afterAll(() => current?.stop())
      suite(() => current!)
    })
  }
}
