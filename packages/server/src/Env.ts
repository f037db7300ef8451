import { type AtriumOptionsInput, MIN_ENCRYPTION_KEY_LENGTH, parseRetrySchedule } from "@atrium/core"
import type { ConnectionLimits } from "./Connections.js"
import { defaultLogSettings, LOG_FORMATS, LOG_LEVELS, type LogSettings } from "./Log.js"

/** Settings of the ready-to-run server, read from the environment once, at start. */
export interface ServerEnv {
  readonly port: number
  readonly host: string
  readonly databaseUrl: string
  /** PostgreSQL only: the schema holding Atrium's tables (default: the connection's, normally `public`). */
  readonly pgSchema?: string
  readonly options: AtriumOptionsInput
  /** Timeouts and the connection cap of `serve` (defaults: `defaultConnectionLimits`). */
  readonly connections?: Partial<ConnectionLimits>
  /** LOG_LEVEL and LOG_FORMAT (default info, text). */
  readonly log?: LogSettings
}

export const DEFAULT_DATABASE_URL = "sqlite:.data/atrium.db"

/** Every variable the server reads, with what it does: `atrium --help` prints it, the README's table lists the same. */
export const ENVIRONMENT_VARIABLES: ReadonlyArray<{ readonly name: string; readonly about: string }> = [
  { name: "PORT", about: "port to listen on (default 8080)" },
  { name: "HOST", about: "address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)" },
  { name: "DATABASE_URL", about: "sqlite:<path> (default sqlite:.data/atrium.db), or postgres://user:pass@host:port/db" },
  { name: "ATRIUM_PG_SCHEMA", about: "PostgreSQL schema for Atrium's tables (default public; created if missing)" },
  { name: "LOG_LEVEL", about: "debug, info (default), warn or error" },
  { name: "LOG_FORMAT", about: "text (default) or json: one JSON object per line" },
  { name: "ATRIUM_CONSOLE_DOMAIN", about: "domain a login link may continue to (besides localhost)" },
  { name: "ATRIUM_HEADER_PREFIX", about: "credential header prefix (default x-service; x-velt for hosted-service clients)" },
  { name: "ATRIUM_MAX_BODY_BYTES", about: "largest request body (default 1048576)" },
  { name: "ATRIUM_ISSUER", about: "iss claim of issued tokens (default atrium)" },
  { name: "ATRIUM_ALLOW_PRIVATE_NETWORKS", about: "1: let webhooks and the permission provider call loopback and private addresses (tests, local development)" },
  { name: "ATRIUM_WEBHOOK_RETRY_SCHEDULE", about: "seconds before each delivery attempt (default 0,5,300,1800,7200,18000,36000,36000)" },
  { name: "ATRIUM_WEBHOOK_POLL_MS", about: "how often an idle worker looks for due deliveries (default 500)" },
  { name: "ATRIUM_WEBHOOK_CONCURRENCY", about: "delivery attempts in flight per server (default 64)" },
  { name: "ATRIUM_WEBHOOK_LEASE_MS", about: "how long a server holds a claimed delivery before another may take it over (default 60000; longer than an attempt's 15 s timeout)" },
  { name: "ATRIUM_JOBS_POLL_MS", about: "how often an idle server looks for background work (default 1000)" },
  { name: "ATRIUM_JOBS_LEASE_MS", about: "how long a server holds a job before another may take it over (default 30000)" },
  { name: "ATRIUM_HEADERS_TIMEOUT_MS", about: "a request's headers must arrive within this (default 10000)" },
  { name: "ATRIUM_REQUEST_TIMEOUT_MS", about: "a whole request must arrive within this (default 30000)" },
  { name: "ATRIUM_KEEP_ALIVE_TIMEOUT_MS", about: "idle keep-alive connections close after this (default 65000)" },
  { name: "ATRIUM_MAX_CONNECTIONS", about: "open connections at most (default 10000; keep it under ulimit -n)" },
  { name: "ATRIUM_ENCRYPTION_KEY", about: "encrypts the stored secrets that are read back (webhook signing secrets, the token signing key, the page-token key, the permission provider's token); at least 32 characters (openssl rand -base64 32); keep it: without it they cannot be read" },
  { name: "ATRIUM_PUBLIC_WORKSPACE_CREATE", about: "0: refuse workspace/create over HTTP (default 1: anyone who reaches the server may create a workspace); atrium workspace create still works" },
  { name: "ATRIUM_STRICT_STATUSES", about: "1: answer domains/add, domains/delete and v2 documents/add's partial failures 409/404 instead of the hosted service's 500 INTERNAL" },
  { name: "ATRIUM_RATE_LIMIT_PER_KEY", about: "requests per second per API key, across every server on the database (default: no limit); over it: 429 RESOURCE_EXHAUSTED with Retry-After" }
]

const int = (name: string, value: string | undefined, fallback: number, least = 0) => {
  if (value === undefined || value === "") return fallback
  const parsed = Number(value)
  if (!Number.isSafeInteger(parsed) || parsed < least) {
    throw new Error(`${name} must be ${least === 0 ? "a non-negative" : "a positive"} integer, got "${value}"`)
  }
  return parsed
}

const isSet = (value: string | undefined) => value !== undefined && value !== ""

/** A yes/no setting: `1` or `true` is yes; unset, `0` or `false` is no; anything else is refused. */
const yes = (name: string, value: string | undefined) => {
  if (value === undefined || value === "" || value === "0" || value.toLowerCase() === "false") return false
  if (value === "1" || value.toLowerCase() === "true") return true
  throw new Error(`${name} must be 1, true, 0 or false, got "${value}"`)
}

const retrySchedule = (value: string) => {
  const parsed = parseRetrySchedule(value)
  if (typeof parsed === "string") throw new Error(`ATRIUM_WEBHOOK_RETRY_SCHEDULE ${parsed}`)
  return parsed
}

/** Refused at start, naming the variable, rather than when the first secret is stored. */
const encryptionKey = (value: string) => {
  if (value.length < MIN_ENCRYPTION_KEY_LENGTH) {
    throw new Error(`ATRIUM_ENCRYPTION_KEY must be at least ${MIN_ENCRYPTION_KEY_LENGTH} characters (openssl rand -base64 32), got ${value.length}`)
  }
  return value
}

/** One of `choices`, or the default when unset; anything else is refused, naming the variable. */
const oneOf = <A extends string>(name: string, value: string | undefined, choices: ReadonlyArray<A>, fallback: A): A => {
  if (value === undefined || value === "") return fallback
  const found = choices.find((choice) => choice === value.toLowerCase())
  if (found === undefined) throw new Error(`${name} must be one of ${choices.join(", ")}, got "${value}"`)
  return found
}

export const readEnv = (env: NodeJS.ProcessEnv = process.env): ServerEnv => ({
  log: {
    level: oneOf("LOG_LEVEL", env.LOG_LEVEL, LOG_LEVELS, defaultLogSettings.level),
    format: oneOf("LOG_FORMAT", env.LOG_FORMAT, LOG_FORMATS, defaultLogSettings.format)
  },
  port: int("PORT", env.PORT, 8080),
  // Only this machine, unless HOST opens it wider (HOST=0.0.0.0 in a container).
  host: env.HOST || "127.0.0.1",
  databaseUrl: env.DATABASE_URL || DEFAULT_DATABASE_URL,
  ...(env.ATRIUM_PG_SCHEMA && { pgSchema: env.ATRIUM_PG_SCHEMA }),
  connections: {
    ...(env.ATRIUM_HEADERS_TIMEOUT_MS && { headersTimeoutMillis: int("ATRIUM_HEADERS_TIMEOUT_MS", env.ATRIUM_HEADERS_TIMEOUT_MS, 0, 1) }),
    ...(env.ATRIUM_REQUEST_TIMEOUT_MS && { requestTimeoutMillis: int("ATRIUM_REQUEST_TIMEOUT_MS", env.ATRIUM_REQUEST_TIMEOUT_MS, 0, 1) }),
    ...(env.ATRIUM_KEEP_ALIVE_TIMEOUT_MS && { keepAliveTimeoutMillis: int("ATRIUM_KEEP_ALIVE_TIMEOUT_MS", env.ATRIUM_KEEP_ALIVE_TIMEOUT_MS, 0, 1) }),
    ...(env.ATRIUM_MAX_CONNECTIONS && { maxConnections: int("ATRIUM_MAX_CONNECTIONS", env.ATRIUM_MAX_CONNECTIONS, 0, 1) })
  },
  options: {
    ...(env.ATRIUM_HEADER_PREFIX && { headerPrefix: env.ATRIUM_HEADER_PREFIX }),
    ...(env.ATRIUM_CONSOLE_DOMAIN && { consoleDomain: env.ATRIUM_CONSOLE_DOMAIN }),
    ...(env.ATRIUM_MAX_BODY_BYTES && { maxBodyBytes: int("ATRIUM_MAX_BODY_BYTES", env.ATRIUM_MAX_BODY_BYTES, 1024 * 1024) }),
    ...(env.ATRIUM_ISSUER && { issuer: env.ATRIUM_ISSUER }),
    ...(yes("ATRIUM_ALLOW_PRIVATE_NETWORKS", env.ATRIUM_ALLOW_PRIVATE_NETWORKS) && { allowPrivateNetworks: true }),
    ...(yes("ATRIUM_STRICT_STATUSES", env.ATRIUM_STRICT_STATUSES) && { strictStatuses: true }),
    ...(isSet(env.ATRIUM_PUBLIC_WORKSPACE_CREATE) && { publicWorkspaceCreate: yes("ATRIUM_PUBLIC_WORKSPACE_CREATE", env.ATRIUM_PUBLIC_WORKSPACE_CREATE) }),
    ...(env.ATRIUM_ENCRYPTION_KEY && { encryptionKey: encryptionKey(env.ATRIUM_ENCRYPTION_KEY) }),
    ...(env.ATRIUM_RATE_LIMIT_PER_KEY && {
      // Requests per second per API key, counted in storage so it holds across servers.
      rateLimits: { perApiKey: { limit: int("ATRIUM_RATE_LIMIT_PER_KEY", env.ATRIUM_RATE_LIMIT_PER_KEY, 0, 1), windowMillis: 1000 } }
    }),
    jobs: {
      ...(env.ATRIUM_JOBS_POLL_MS && { pollIntervalMillis: int("ATRIUM_JOBS_POLL_MS", env.ATRIUM_JOBS_POLL_MS, 1000, 1) }),
      ...(env.ATRIUM_JOBS_LEASE_MS && { leaseMillis: int("ATRIUM_JOBS_LEASE_MS", env.ATRIUM_JOBS_LEASE_MS, 30_000, 1) })
    },
    webhooks: {
      ...(env.ATRIUM_WEBHOOK_RETRY_SCHEDULE && { retrySchedule: retrySchedule(env.ATRIUM_WEBHOOK_RETRY_SCHEDULE) }),
      ...(env.ATRIUM_WEBHOOK_POLL_MS && { pollIntervalMillis: int("ATRIUM_WEBHOOK_POLL_MS", env.ATRIUM_WEBHOOK_POLL_MS, 500, 1) }),
      ...(env.ATRIUM_WEBHOOK_LEASE_MS && { leaseMillis: int("ATRIUM_WEBHOOK_LEASE_MS", env.ATRIUM_WEBHOOK_LEASE_MS, 60_000, 1) }),
      ...(env.ATRIUM_WEBHOOK_CONCURRENCY && { concurrency: int("ATRIUM_WEBHOOK_CONCURRENCY", env.ATRIUM_WEBHOOK_CONCURRENCY, 32, 1) })
    }
  }
})
