/** The server's settings from the environment: every variable reaches its option, bad numbers are refused. */
import { describe, expect, it } from "vitest"
import { optionsFromEnv } from "@atrium/core"
import { DEFAULT_DATABASE_URL, readEnv } from "../src/Env.js"

describe("readEnv", () => {
  it("defaults", () => {
    const env = readEnv({})
    // Reachable from this machine only until HOST says otherwise.
    expect(env).toMatchObject({ port: 8080, host: "127.0.0.1", databaseUrl: DEFAULT_DATABASE_URL, log: { level: "info", format: "text" } })
    expect(env.options).toEqual({ jobs: {}, emails: {}, webhooks: {} })
    expect(env.smtp).toBeUndefined()
    expect(env.connections).toEqual({})
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
      ATRIUM_STRICT_STATUSES: "1",
      ATRIUM_PUBLIC_WORKSPACE_CREATE: "0",
      ATRIUM_ENCRYPTION_KEY: "k".repeat(44),
      ATRIUM_JOBS_POLL_MS: "50",
      ATRIUM_JOBS_LEASE_MS: "1500",
      ATRIUM_WEBHOOK_RETRY_SCHEDULE: "0,1,2.5",
      ATRIUM_SMTP_URL: "smtps://u:p@smtp.example.com:465",
      ATRIUM_EMAIL_FROM: "Acme <n@acme.example>",
      ATRIUM_EMAIL_RETRY_SCHEDULE: "0,60",
      ATRIUM_EMAIL_POLL_MS: "250",
      ATRIUM_EMAIL_LEASE_MS: "9000",
      ATRIUM_WEBHOOK_POLL_MS: "20",
      ATRIUM_WEBHOOK_LEASE_MS: "3000",
      ATRIUM_WEBHOOK_CONCURRENCY: "4",
      ATRIUM_WEBHOOK_CONCURRENCY_PER_KEY: "2",
      ATRIUM_WEBHOOK_ENDPOINTS_PER_KEY: "10",
      ATRIUM_RATE_LIMIT_PER_KEY: "100",
      ATRIUM_HEADERS_TIMEOUT_MS: "2000",
      ATRIUM_REQUEST_TIMEOUT_MS: "4000",
      ATRIUM_KEEP_ALIVE_TIMEOUT_MS: "6000",
      ATRIUM_MAX_CONNECTIONS: "500",
      LOG_LEVEL: "DEBUG",
      LOG_FORMAT: "json"
    })
    expect(env).toEqual({
      log: { level: "debug", format: "json" },
      port: 0,
      host: "127.0.0.1",
      databaseUrl: "postgres://db/x",
      pgSchema: "tenant",
      connections: { headersTimeoutMillis: 2000, requestTimeoutMillis: 4000, keepAliveTimeoutMillis: 6000, maxConnections: 500 },
      smtp: { url: "smtps://u:p@smtp.example.com:465", from: "Acme <n@acme.example>" },
      options: {
        headerPrefix: "x-velt",
        consoleDomain: "console.example.com",
        maxBodyBytes: 2048,
        issuer: "me",
        allowPrivateNetworks: true,
        strictStatuses: true,
        publicWorkspaceCreate: false,
        encryptionKey: "k".repeat(44),
        rateLimits: { perApiKey: { limit: 100, windowMillis: 1000 } },
        jobs: { pollIntervalMillis: 50, leaseMillis: 1500 },
        emails: { retrySchedule: [0, 60], pollIntervalMillis: 250, leaseMillis: 9000 },
        webhooks: { retrySchedule: [0, 1, 2.5], pollIntervalMillis: 20, leaseMillis: 3000, concurrency: 4, concurrencyPerKey: 2, endpointsPerKey: 10 }
      }
    })
  })

  it("reads Atrium's options as an embedded host's optionsFromEnv() does", () => {
    const vars = { ATRIUM_HEADER_PREFIX: "x-velt", ATRIUM_WEBHOOK_CONCURRENCY: "8", ATRIUM_RATE_LIMIT_PER_KEY: "5", PORT: "9000" }
    expect(readEnv(vars).options).toEqual(optionsFromEnv(vars))
  })

  it("takes 1 or true for ATRIUM_ALLOW_PRIVATE_NETWORKS, 0 or false for no, and refuses anything else", () => {
    for (const yes of ["1", "true", "TRUE"]) expect(readEnv({ ATRIUM_ALLOW_PRIVATE_NETWORKS: yes }).options.allowPrivateNetworks).toBe(true)
    for (const no of ["0", "false", ""]) expect(readEnv({ ATRIUM_ALLOW_PRIVATE_NETWORKS: no }).options.allowPrivateNetworks).toBeUndefined()
    expect(() => readEnv({ ATRIUM_ALLOW_PRIVATE_NETWORKS: "yes" })).toThrow(/ATRIUM_ALLOW_PRIVATE_NETWORKS must be 1, true, 0 or false, got "yes"/)
  })

  it("traces only when an OTLP endpoint is set: the general one's /v1/traces, or the traces URL as given", () => {
    expect(readEnv({}).tracing).toBeUndefined()
    expect(readEnv({ OTEL_SERVICE_NAME: "x", OTEL_EXPORTER_OTLP_HEADERS: "a=b" }).tracing).toBeUndefined()
    expect(readEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" }).tracing).toEqual({
      url: "http://collector:4318/v1/traces",
      headers: {},
      serviceName: "atrium",
      sampling: { sampler: "parentbased_always_on" }
    })
    expect(readEnv({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example/otlp",
      OTEL_EXPORTER_OTLP_HEADERS: "x-honeycomb-team=k3y, authorization=Bearer%20t0k",
      OTEL_SERVICE_NAME: "atrium-eu"
    }).tracing).toEqual({
      url: "https://traces.example/otlp",
      headers: { "x-honeycomb-team": "k3y", authorization: "Bearer t0k" },
      serviceName: "atrium-eu",
      sampling: { sampler: "parentbased_always_on" }
    })
    expect(() => readEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" })).toThrow(/OTEL_EXPORTER_OTLP_ENDPOINT must be an http\(s\) URL, got "collector:4318"/)
    expect(() => readEnv({ OTEL_EXPORTER_OTLP_HEADERS: "novalue" })).toThrow(/OTEL_EXPORTER_OTLP_HEADERS must be name=value pairs/)
    expect(() => readEnv({ OTEL_EXPORTER_OTLP_HEADERS: "a=%zz" })).toThrow(/OTEL_EXPORTER_OTLP_HEADERS has a value that is not percent-encoded/)
  })

  it("reads OTEL_TRACES_SAMPLER and its ratio, and names a value it does not know", () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }
    expect(readEnv({ ...endpoint, OTEL_TRACES_SAMPLER: "parentbased_traceidratio", OTEL_TRACES_SAMPLER_ARG: "0.01" }).tracing?.sampling)
      .toEqual({ sampler: "parentbased_traceidratio", ratio: 0.01 })
    expect(readEnv({ ...endpoint, OTEL_TRACES_SAMPLER: "always_off" }).tracing?.sampling).toEqual({ sampler: "always_off" })
    expect(() => readEnv({ ...endpoint, OTEL_TRACES_SAMPLER: "sometimes" })).toThrow(/OTEL_TRACES_SAMPLER must be one of always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio/)
    for (const bad of ["1.5", "-0.1", "half", "NaN"]) {
      expect(() => readEnv({ ...endpoint, OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: bad }), bad).toThrow(/OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1/)
    }
  })

  it("takes an smtp:// or smtps:// URL only, naming the variable; the sender defaults", () => {
    expect(readEnv({ ATRIUM_SMTP_URL: "smtp://localhost:1025" }).smtp).toEqual({ url: "smtp://localhost:1025", from: "Atrium <atrium@localhost>" })
    expect(() => readEnv({ ATRIUM_SMTP_URL: "http://mail.example.com" })).toThrow(/ATRIUM_SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL.*got protocol "http:"/)
    expect(() => readEnv({ ATRIUM_SMTP_URL: "mail.example.com:25" })).toThrow(/ATRIUM_SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/)
  })

  it("refuses a retry schedule that is not comma-separated seconds", () => {
    expect(() => readEnv({ ATRIUM_WEBHOOK_RETRY_SCHEDULE: "0,5m" })).toThrow(/ATRIUM_WEBHOOK_RETRY_SCHEDULE must be comma-separated non-negative numbers/)
  })

  it("refuses a number out of its range, naming the variable", () => {
    expect(() => readEnv({ ATRIUM_JOBS_LEASE_MS: "1.5" })).toThrow(/ATRIUM_JOBS_LEASE_MS must be a positive integer, got "1.5"/)
    expect(() => readEnv({ PORT: "-1" })).toThrow(/PORT must be a port number from 0 to 65535, got "-1"/)
    expect(() => readEnv({ PORT: "70000" })).toThrow(/PORT must be a port number from 0 to 65535, got "70000"/)
    expect(readEnv({ PORT: "65535" }).port).toBe(65535)
    // A lease or poll interval of 0 would have servers take jobs from each other without end.
    expect(() => readEnv({ ATRIUM_JOBS_LEASE_MS: "0" })).toThrow(/ATRIUM_JOBS_LEASE_MS must be a positive integer, got "0"/)
    expect(() => readEnv({ ATRIUM_JOBS_POLL_MS: "0" })).toThrow(/ATRIUM_JOBS_POLL_MS must be a positive integer/)
    expect(() => readEnv({ ATRIUM_ENCRYPTION_KEY: "short" })).toThrow(/ATRIUM_ENCRYPTION_KEY must be at least 32 characters/)
    expect(() => readEnv({ ATRIUM_RATE_LIMIT_PER_KEY: "0" })).toThrow(/ATRIUM_RATE_LIMIT_PER_KEY must be a positive integer, got "0"/)
  })
})
