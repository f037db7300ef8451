import type { AtriumOptionsInput } from "@atrium/core"

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
    ...(env.ATRIUM_ALLOW_PRIVATE_NETWORKS === "true" && { allowPrivateNetworks: true }),
    jobs: {
      ...(env.ATRIUM_JOBS_POLL_MS && { pollIntervalMillis: int("ATRIUM_JOBS_POLL_MS", env.ATRIUM_JOBS_POLL_MS, 1000, 1) }),
      ...(env.ATRIUM_JOBS_LEASE_MS && { leaseMillis: int("ATRIUM_JOBS_LEASE_MS", env.ATRIUM_JOBS_LEASE_MS, 30_000, 1) })
    }
  }
})
