/** The server's settings from the environment: every variable reaches its option, bad numbers are refused. */
import { describe, expect, it } from "vitest"
import { DEFAULT_DATABASE_URL, readEnv } from "../src/Env.js"

describe("readEnv", () => {
  it("defaults", () => {
    const env = readEnv({})
    expect(env).toMatchObject({ port: 8080, host: "0.0.0.0", databaseUrl: DEFAULT_DATABASE_URL })
    expect(env.options).toEqual({ jobs: {} })
  })

  it("maps each variable to its option", () => {
    const env = readEnv({
      PORT: "0",
      HOST: "127.0.0.1",
      DATABASE_URL: "postgres://db/x",
      ATRIUM_PG_SCHEMA: "tenant",
      ATRIUM_HEADER_PREFIX: "x-velt",
      ATRIUM_CONSOLE_DOMAIN: "console.example.com",
      ATRIUM_MAX_BODY_BYTES: "2048",
      ATRIUM_ISSUER: "me",
      ATRIUM_ALLOW_PRIVATE_NETWORKS: "true",
      ATRIUM_JOBS_POLL_MS: "50",
      ATRIUM_JOBS_LEASE_MS: "1500"
    })
    expect(env).toEqual({
      port: 0,
      host: "127.0.0.1",
      databaseUrl: "postgres://db/x",
      pgSchema: "tenant",
      options: {
        headerPrefix: "x-velt",
        consoleDomain: "console.example.com",
        maxBodyBytes: 2048,
        issuer: "me",
        allowPrivateNetworks: true,
        jobs: { pollIntervalMillis: 50, leaseMillis: 1500 }
      }
    })
  })

  it("refuses a number out of its range, naming the variable", () => {
    expect(() => readEnv({ ATRIUM_JOBS_LEASE_MS: "1.5" })).toThrow(/ATRIUM_JOBS_LEASE_MS must be a positive integer, got "1.5"/)
    expect(() => readEnv({ PORT: "-1" })).toThrow(/PORT must be a non-negative integer/)
    // A lease or poll interval of 0 would have servers take jobs from each other without end.
    expect(() => readEnv({ ATRIUM_JOBS_LEASE_MS: "0" })).toThrow(/ATRIUM_JOBS_LEASE_MS must be a positive integer, got "0"/)
    expect(() => readEnv({ ATRIUM_JOBS_POLL_MS: "0" })).toThrow(/ATRIUM_JOBS_POLL_MS must be a positive integer/)
  })
})
