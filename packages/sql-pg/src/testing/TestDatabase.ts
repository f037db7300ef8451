import { PgClient } from "@effect/sql-pg"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"

/** A fresh, empty PostgreSQL database, used by one test run only. */
export interface TestDatabase {
  /** Connection URL of the database. */
  readonly url: string
  /** Which PostgreSQL it is on, e.g. `local server 15.20` or `PGlite (embedded)`. */
  readonly server: string
  /** Drops the database (PGlite: stops it). Close every client of `url` first. */
  readonly drop: () => Promise<void>
}

const LOCAL_URL = "postgres://postgres@127.0.0.1:5432/postgres"

/** Runs `f` on a one-connection client of `url`, giving up when the server does not answer within 2 s. */
const onServer = <A>(url: string, f: (sql: PgClient.PgClient) => Effect.Effect<A, unknown>): Promise<A> =>
  Effect.runPromise(
    Effect.flatMap(PgClient.PgClient, f).pipe(
      Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1, connectTimeout: Duration.seconds(2) }))
    )
  )

type Source =
  | { readonly kind: "server"; readonly adminUrl: string; readonly description: string }
  | { readonly kind: "pglite"; readonly description: string }

const PGLITE: Source = { kind: "pglite", description: "PGlite (embedded)" }

/**
 * Where test databases come from: `ATRIUM_PG_URL`; else the local server when it
 * answers; else an embedded PGlite. `ATRIUM_PG_FORCE_PGLITE=1` skips the first two.
 */
const findSource = async (): Promise<Source> => {
  if (process.env.ATRIUM_PG_FORCE_PGLITE === "1") return PGLITE
  const given = process.env.ATRIUM_PG_URL
  const adminUrl = given || LOCAL_URL
  try {
    const rows = await onServer(adminUrl, (sql) => sql<{ server_version: string }>`SHOW server_version`)
    const version = rows[0]!.server_version.split(" ")[0]
    return { kind: "server", adminUrl, description: `${given ? "ATRIUM_PG_URL" : "local server"} ${version}` }
  } catch (error) {
    if (given) throw new Error(`ATRIUM_PG_URL does not answer: ${error instanceof Error ? error.message : String(error)}`)
    return PGLITE
  }
}

let source: Promise<Source> | undefined

/** Decided once per process, and said once, so the test output shows which PostgreSQL ran. */
const theSource = (): Promise<Source> =>
  source ??= findSource().then((found) => {
    console.log(`[atrium tests] PostgreSQL: ${found.description}`)
    return found
  })

let created = 0

/** A database on the server, named so that no two runs (or calls) share one. */
const serverDatabase = async (adminUrl: string, server: string): Promise<TestDatabase> => {
  const name = `atrium_test_${Date.now().toString(36)}_${process.pid}_${++created}_${Math.random().toString(36).slice(2, 8)}`
  // A linguistic default collation where the server has ICU (PostgreSQL 15+), as production
  // databases usually have: the tests then show that no order depends on the database's collation.
  await onServer(adminUrl, (sql) =>
    sql`CREATE DATABASE ${sql(name)} TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US'`.pipe(
      Effect.orElse(() => sql`CREATE DATABASE ${sql(name)}`)
    ))
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    server,
    drop: () => onServer(adminUrl, (sql) => sql`DROP DATABASE IF EXISTS ${sql(name)} WITH (FORCE)`).then(() => undefined)
  }
}

/**
 * An embedded PostgreSQL behind a socket server on an ephemeral port. PGlite is one
 * database in one session, so each call starts its own. The pool of a storage layer
 * opens up to 10 connections: the socket server accepts as many.
 */
const pgliteDatabase = async (server: string): Promise<TestDatabase> => {
  const { PGlite } = await import("@electric-sql/pglite")
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket")
  const db = await PGlite.create()
  const socketServer = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 10 })
  await socketServer.start()
  return {
    url: `postgres://postgres@${socketServer.getServerConn()}/postgres`,
    server,
    drop: async () => {
      await socketServer.stop()
      await db.close()
    }
  }
}

/**
 * A fresh, empty database for one test run: on `ATRIUM_PG_URL` (its user needs
 * CREATEDB), else on `postgres://postgres@127.0.0.1:5432/postgres` when it answers
 * within 2 s, else on an embedded PGlite. Call `drop()` when done.
 */
export const testDatabase = async (): Promise<TestDatabase> => {
  const found = await theSource()
  return found.kind === "server" ? serverDatabase(found.adminUrl, found.description) : pgliteDatabase(found.description)
}
