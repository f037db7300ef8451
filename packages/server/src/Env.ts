import { atriumOptionsConfig, type AtriumOptionsInput, envVariables, readConfig, TRACE_SAMPLERS, when } from "@atrium/core"
import * as Config from "effect/Config"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type { ConnectionLimits } from "./Connections.js"
import { defaultLogSettings, LOG_FORMATS, LOG_LEVELS, type LogSettings } from "@atrium/node-http"
import type { SmtpSettings } from "./SmtpMailer.js"
import type { TracingSettings } from "./Telemetry.js"

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
  /** OTEL_EXPORTER_OTLP_*: send traces there; unset, nothing is traced. */
  readonly tracing?: TracingSettings
  /** ATRIUM_SMTP_URL and ATRIUM_EMAIL_FROM: mail through that server; unset, nothing is mailed. */
  readonly smtp?: SmtpSettings
}

/** The sender of mail when ATRIUM_EMAIL_FROM is not set. */
export const DEFAULT_EMAIL_FROM = "Atrium <atrium@localhost>"

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
  { name: "ATRIUM_SMTP_URL", about: "mail notifications and login links through this SMTP server, e.g. smtp://user:pass@smtp.example.com:587 or smtps://…:465 (default: nothing is mailed; login links go to the log)" },
  { name: "ATRIUM_EMAIL_FROM", about: "sender of the mail a workspace does not give its own (default Atrium <atrium@localhost>)" },
  { name: "ATRIUM_EMAIL_RETRY_SCHEDULE", about: "seconds before each attempt to send an email (default 0,30,120,600,1800,7200)" },
  { name: "ATRIUM_EMAIL_POLL_MS", about: "how often a server looks for emails whose delay or digest ended (default 1000)" },
  { name: "ATRIUM_EMAIL_LEASE_MS", about: "how long a server holds an email it is sending before another may take it over (default 120000)" },
  { name: "ATRIUM_WEBHOOK_RETRY_SCHEDULE", about: "seconds before each delivery attempt (default 0,5,300,1800,7200,18000,36000,36000)" },
  { name: "ATRIUM_WEBHOOK_POLL_MS", about: "how often an idle worker looks for due deliveries (default 500)" },
  { name: "ATRIUM_WEBHOOK_CONCURRENCY", about: "delivery attempts in flight per server (default 64)" },
  { name: "ATRIUM_WEBHOOK_CONCURRENCY_PER_KEY", about: "delivery attempts in flight per server for one API key, so one key's slow receivers cannot hold up the others' (default a quarter of ATRIUM_WEBHOOK_CONCURRENCY: 16)" },
  { name: "ATRIUM_WEBHOOK_ENDPOINTS_PER_KEY", about: "advanced webhook endpoints one API key may have (default 50); creating one more is 400 FAILED_PRECONDITION" },
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
  { name: "ATRIUM_RATE_LIMIT_PER_KEY", about: "requests per second per API key, across every server on the database (default: no limit); over it: 429 RESOURCE_EXHAUSTED with Retry-After" },
  { name: "OTEL_EXPORTER_OTLP_ENDPOINT", about: "OpenTelemetry collector (OTLP/HTTP), e.g. http://localhost:4318: a span per operation and per SQL statement go to its /v1/traces (default: no tracing)" },
  { name: "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", about: "the full traces URL instead (e.g. http://localhost:4318/v1/traces)" },
  { name: "OTEL_EXPORTER_OTLP_HEADERS", about: "headers sent with the traces, name=value pairs separated by commas (e.g. x-honeycomb-team=KEY)" },
  { name: "OTEL_SERVICE_NAME", about: "service.name of the traces (default atrium)" },
  { name: "OTEL_TRACES_SAMPLER", about: "which requests are traced: parentbased_always_on (default: the caller's traceparent decides, else every one), parentbased_traceidratio, traceidratio, always_on, always_off, parentbased_always_off" },
  { name: "OTEL_TRACES_SAMPLER_ARG", about: "the share of traces the traceidratio samplers keep, 0 to 1 (default 1), e.g. 0.01" }
]

const { integer, oneOf, text, variable } = envVariables

/** A TCP port: 0 (any free one) to 65535. */
const portNumber = (name: string) =>
  variable(name, (value) => {
    const parsed = Number(value)
    return Number.isInteger(parsed) && parsed >= 0 && parsed <= 65535
      ? Either.right(parsed)
      : Either.left(`must be a port number from 0 to 65535, got "${value}"`)
  })

const otlpUrl = (name: string) =>
  variable(name, (value) => {
    try {
      const url = new URL(value)
      return url.protocol === "http:" || url.protocol === "https:" ? Either.right(url.href) : Either.left(`must be an http(s) URL, got "${value}"`)
    } catch {
      return Either.left(`must be an http(s) URL, got "${value}"`)
    }
  })

/** `name=value,name2=value2`, values percent-decoded: the OpenTelemetry specification's format. */
const otlpHeaders = variable("OTEL_EXPORTER_OTLP_HEADERS", (value) => {
  const headers: Record<string, string> = {}
  for (const pair of value.split(",").filter((part) => part.trim() !== "")) {
    const at = pair.indexOf("=")
    if (at <= 0) return Either.left(`must be name=value pairs separated by commas, got "${pair.trim()}"`)
    try {
      headers[pair.slice(0, at).trim()] = decodeURIComponent(pair.slice(at + 1).trim())
    } catch {
      return Either.left(`has a value that is not percent-encoded text: "${pair.trim()}"`)
    }
  }
  return Either.right(headers)
})

/** The traces URL: the traces endpoint as given, or the general endpoint's /v1/traces, as OTLP exporters read them. */
const tracesUrl = (endpoint: Option.Option<string>, tracesEndpoint: Option.Option<string>): Option.Option<string> =>
  Option.orElse(tracesEndpoint, () => Option.map(endpoint, (base) => `${base.replace(/\/+$/, "")}/v1/traces`))

/** OTEL_TRACES_SAMPLER_ARG: a probability, as the traceidratio samplers take it. */
const samplerRatio = variable("OTEL_TRACES_SAMPLER_ARG", (value) => {
  const parsed = Number(value)
  return value.trim() !== "" && Number.isFinite(parsed) && parsed >= 0 && parsed <= 1
    ? Either.right(parsed)
    : Either.left(`must be a number from 0 to 1 (the share of traces kept), got "${value}"`)
})

const smtpUrl = variable("ATRIUM_SMTP_URL", (value) => {
  try {
    const url = new URL(value)
    return url.protocol === "smtp:" || url.protocol === "smtps:"
      ? Either.right(value)
      : Either.left(`must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@smtp.example.com:587 (got protocol "${url.protocol}")`)
  } catch {
    return Either.left("must be an smtp:// or smtps:// URL, e.g. smtp://user:pass@smtp.example.com:587")
  }
})

/** The server's settings, read from the environment by `effect/Config`: its own, and Atrium's options (core's EnvOptions.ts). */
export const serverConfig: Config.Config<ServerEnv> = Config.all({
  logLevel: oneOf("LOG_LEVEL", LOG_LEVELS),
  logFormat: oneOf("LOG_FORMAT", LOG_FORMATS),
  port: portNumber("PORT"),
  host: text("HOST"),
  databaseUrl: text("DATABASE_URL"),
  pgSchema: text("ATRIUM_PG_SCHEMA"),
  headersTimeoutMillis: integer("ATRIUM_HEADERS_TIMEOUT_MS", 1),
  requestTimeoutMillis: integer("ATRIUM_REQUEST_TIMEOUT_MS", 1),
  keepAliveTimeoutMillis: integer("ATRIUM_KEEP_ALIVE_TIMEOUT_MS", 1),
  maxConnections: integer("ATRIUM_MAX_CONNECTIONS", 1),
  options: atriumOptionsConfig,
  smtpUrl,
  emailFrom: text("ATRIUM_EMAIL_FROM"),
  otlpEndpoint: otlpUrl("OTEL_EXPORTER_OTLP_ENDPOINT"),
  otlpTracesEndpoint: otlpUrl("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"),
  otlpHeaders,
  serviceName: text("OTEL_SERVICE_NAME"),
  sampler: oneOf("OTEL_TRACES_SAMPLER", TRACE_SAMPLERS),
  samplerRatio
}).pipe(Config.map((v): ServerEnv => ({
  ...when("tracing", Option.map(tracesUrl(v.otlpEndpoint, v.otlpTracesEndpoint), (url) => ({
    url,
    headers: Option.getOrElse(v.otlpHeaders, () => ({})),
    serviceName: Option.getOrElse(v.serviceName, () => "atrium"),
    sampling: {
      sampler: Option.getOrElse(v.sampler, () => "parentbased_always_on" as const),
      ...when("ratio", v.samplerRatio)
    }
  }))),
  ...when("smtp", Option.map(v.smtpUrl, (url) => ({ url, from: Option.getOrElse(v.emailFrom, () => DEFAULT_EMAIL_FROM) }))),
  log: {
    level: Option.getOrElse(v.logLevel, () => defaultLogSettings.level),
    format: Option.getOrElse(v.logFormat, () => defaultLogSettings.format)
  },
  port: Option.getOrElse(v.port, () => 8080),
  // Only this machine, unless HOST opens it wider (HOST=0.0.0.0 in a container).
  host: Option.getOrElse(v.host, () => "127.0.0.1"),
  databaseUrl: Option.getOrElse(v.databaseUrl, () => DEFAULT_DATABASE_URL),
  ...when("pgSchema", v.pgSchema),
  connections: {
    ...when("headersTimeoutMillis", v.headersTimeoutMillis),
    ...when("requestTimeoutMillis", v.requestTimeoutMillis),
    ...when("keepAliveTimeoutMillis", v.keepAliveTimeoutMillis),
    ...when("maxConnections", v.maxConnections)
  },
  options: v.options
})))

/** `serverConfig` read from `env` (default: this process's); throws what is wrong, naming each variable. */
export const readEnv = (env: NodeJS.ProcessEnv = process.env): ServerEnv => readConfig(serverConfig, env)
