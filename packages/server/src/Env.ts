import { type AtriumOptionsInput, parseRetrySchedule } from "@atrium/core"

/** Settings of the ready-to-run server, read from the environment once, at start. */
export interface ServerEnv {
  readonly port: number
  readonly host: string
  readonly databaseUrl: string
  /** PostgreSQL only: the schema holding Atrium's tables (default: the connection's, normally `public`). */
  readonly pgSchema?: string
  readonly options: AtriumOptionsInput
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

export const readEnv = (env: NodeJS.ProcessEnv = process.env): ServerEnv => ({
  port: int("PORT", env.PORT, 8080),
  host: env.HOST ?? "0.0.0.0",
  databaseUrl: env.DATABASE_URL || DEFAULT_DATABASE_URL,
  ...(env.ATRIUM_PG_SCHEMA && { pgSchema: env.ATRIUM_PG_SCHEMA }),
  options: {
    ...(env.ATRIUM_HEADER_PREFIX && { headerPrefix: env.ATRIUM_HEADER_PREFIX }),
    ...(env.ATRIUM_CONSOLE_DOMAIN && { consoleDomain: env.ATRIUM_CONSOLE_DOMAIN }),
    ...(env.ATRIUM_MAX_BODY_BYTES && { maxBodyBytes: int("ATRIUM_MAX_BODY_BYTES", env.ATRIUM_MAX_BODY_BYTES, 1024 * 1024) }),
    ...(env.ATRIUM_ISSUER && { issuer: env.ATRIUM_ISSUER }),
    ...(yes("ATRIUM_ALLOW_PRIVATE_NETWORKS", env.ATRIUM_ALLOW_PRIVATE_NETWORKS) && { allowPrivateNetworks: true }),
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
