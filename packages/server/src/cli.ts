#!/usr/bin/env node
/** The `atrium` command: serve, worker, migrate, workspace create. */
import * as Schema from "effect/Schema"
import { Email } from "@atrium/core"
import { createWorkspace, migrate, printMigrations } from "./Commands.js"
import { readEnv } from "./Env.js"
import { serve, work } from "./Serve.js"
import { storageFromUrl } from "./Storage.js"

const USAGE = `Usage:
  atrium serve                                         start the server (PORT, DATABASE_URL); it delivers webhooks
                                                       and runs background jobs too
  atrium worker [--once]                               deliver webhooks and run background jobs without serving
                                                       HTTP; --once: what is due now, then exit (for schedulers)
  atrium migrate                                       apply pending database migrations
  atrium migrate --print [--dialect sqlite|pg]         print the SQL of every migration, applying nothing
                                                       (dialect: DATABASE_URL's by default)
  atrium workspace create --email <email> [--name <name>]
                                                       create a workspace; prints one JSON object

Environment:
  PORT                      port to listen on (default 8080)
  HOST                      address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)
  DATABASE_URL              sqlite:<path> (default sqlite:.data/atrium.db), or postgres://user:pass@host:port/db
  ATRIUM_PG_SCHEMA          PostgreSQL schema for Atrium's tables (default public; created if missing)
  ATRIUM_CONSOLE_DOMAIN     domain a login link may continue to (besides localhost)
  ATRIUM_HEADER_PREFIX      credential header prefix (default x-service; x-velt for hosted-service clients)
  ATRIUM_MAX_BODY_BYTES     largest request body (default 1048576)
  ATRIUM_ISSUER             iss claim of issued tokens (default atrium)
  ATRIUM_ALLOW_PRIVATE_NETWORKS=1      let webhooks and the permission provider call loopback and private
                                       addresses (1 or true; for tests and local development)
  ATRIUM_WEBHOOK_RETRY_SCHEDULE        seconds before each delivery attempt (default 0,5,300,1800,7200,18000,36000,36000)
  ATRIUM_WEBHOOK_POLL_MS    how often an idle worker looks for due deliveries (default 500)
  ATRIUM_WEBHOOK_CONCURRENCY  delivery attempts in flight per server (default 64)
  ATRIUM_WEBHOOK_LEASE_MS   how long a server holds a claimed delivery before another may take it over
                            (default 60000; longer than an attempt's 15 s timeout)
  ATRIUM_JOBS_POLL_MS       how often an idle server looks for background work (default 1000)
  ATRIUM_JOBS_LEASE_MS      how long a server holds a job before another may take it over (default 30000)
  ATRIUM_HEADERS_TIMEOUT_MS a request's headers must arrive within this (default 10000)
  ATRIUM_REQUEST_TIMEOUT_MS a whole request must arrive within this (default 30000)
  ATRIUM_KEEP_ALIVE_TIMEOUT_MS  idle keep-alive connections close after this (default 65000)
  ATRIUM_MAX_CONNECTIONS    open connections at most (default 10000; keep it under ulimit -n)
  ATRIUM_ENCRYPTION_KEY     encrypts the secrets stored to be read back (webhook signing secrets, the token
                            signing key, the page-token key, the permission provider's token); at least 32
                            characters (openssl rand -base64 32); keep it: without it they cannot be read
  ATRIUM_STRICT_STATUSES=1  answer domains/add, domains/delete and v2 documents/add's partial failures
                            409/404 instead of the hosted service's 500 INTERNAL
  ATRIUM_RATE_LIMIT_PER_KEY requests per second per API key, across every server on the database
                            (default: no limit); over it: 429 RESOURCE_EXHAUSTED with Retry-After
`

const flag = (args: ReadonlyArray<string>, name: string): string | undefined => {
  const i = args.indexOf(`--${name}`)
  if (i === -1) return undefined
  const value = args[i + 1]
  if (value === undefined || value.startsWith("--")) throw new Error(`--${name} needs a value`)
  return value
}

const fail = (message: string): never => {
  process.stderr.write(`atrium: ${message}\n`)
  process.exit(1)
}

const main = async (args: ReadonlyArray<string>) => {
  const [command, sub] = args
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    process.stdout.write(USAGE)
    return
  }
  const env = readEnv()
  switch (command) {
    case "serve": {
      const running = await serve(env)
      const stop = (signal: string) => {
        process.stdout.write(`atrium: ${signal}, shutting down\n`)
        running.close().then(() => process.exit(0), (error) => fail(String(error)))
      }
      process.once("SIGTERM", () => stop("SIGTERM"))
      process.once("SIGINT", () => stop("SIGINT"))
      return
    }
    case "worker": {
      if (args.includes("--once")) {
        const done = await work(env, { once: true })
        process.stdout.write(`atrium: ${done.deliveries} delivery attempt(s), ${done.jobTasks} job task(s)\n`)
        return
      }
      const running = await work(env, { once: false })
      const stop = (signal: string) => {
        process.stdout.write(`atrium: ${signal}, stopping the worker\n`)
        running.close().then(() => process.exit(0), (error) => fail(String(error)))
      }
      process.once("SIGTERM", () => stop("SIGTERM"))
      process.once("SIGINT", () => stop("SIGINT"))
      return
    }
    case "migrate": {
      if (args.includes("--print")) {
        const dialect = flag(args, "dialect") ?? (storageFromUrl(env.databaseUrl, env).kind === "postgres" ? "pg" : "sqlite")
        if (dialect !== "sqlite" && dialect !== "pg") return fail(`--dialect must be sqlite or pg, not "${dialect}"`)
        process.stdout.write(await printMigrations(dialect))
        return
      }
      const applied = await migrate(env)
      process.stdout.write(applied.length === 0 ? "atrium: database is up to date\n" : `atrium: applied ${applied.join(", ")}\n`)
      return
    }
    case "workspace": {
      if (sub !== "create") return fail(`unknown command "workspace ${sub ?? ""}"\n${USAGE}`)
      const ownerEmail = flag(args, "email") ?? fail("workspace create needs --email <email>")
      if (!Schema.is(Email)(ownerEmail)) return fail(`"${ownerEmail}" is not a valid email address`)
      const name = flag(args, "name")
      const created = await createWorkspace(env, { ownerEmail, ...(name !== undefined && { name }) })
      process.stdout.write(JSON.stringify(created) + "\n")
      return
    }
    default:
      return fail(`unknown command "${command}"\n${USAGE}`)
  }
}

main(process.argv.slice(2)).catch((error) => fail(error instanceof Error ? error.message : String(error)))
