import { type AtriumOptionsInput, MIN_ENCRYPTION_KEY_LENGTH, parseRetrySchedule } from "@atrium/core"
import type { ConnectionLimits } from "./Connections.js"

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
}

export const DEFAULT_DATABASE_URL = "sqlite:.data/atrium.db"

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

export const readEnv = (env: NodeJS.ProcessEnv = process.env): ServerEnv => ({
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
