import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type { AtriumOptionsInput } from "./Config.js"
import { encryptionKeyProblem } from "./crypto/SecretBox.js"
import { parseRetrySchedule } from "./deliveries/RetrySchedule.js"

/**
 * Atrium's options from environment variables: the `ATRIUM_*` variables `atrium serve` reads,
 * for hosts that embed Atrium and want the same settings (issue 27: an embedded Atrium ignored
 * them all). One reading of each variable, shared with the server (packages/server/src/Env.ts).
 */

/**
 * One variable through `effect/Config`: `parse` turns its text into a value or says what is
 * wrong (the message names the variable). Unset or empty is `None`: an empty value is how
 * shells and compose files unset one.
 */
const variable = <A>(name: string, parse: (text: string) => Either.Either<A, string>): Config.Config<Option.Option<A>> =>
  Config.option(Config.string(name)).pipe(
    Config.mapOrFail((text) =>
      Option.isNone(text) || text.value === ""
        ? Either.right(Option.none())
        : Either.mapBoth(parse(text.value), { onLeft: (why) => ConfigError.InvalidData([], `${name} ${why}`), onRight: Option.some })
    )
  )

const text = (name: string) => variable(name, Either.right)

const integer = (name: string, least = 0) =>
  variable(name, (value) => {
    const parsed = Number(value)
    return Number.isSafeInteger(parsed) && parsed >= least
      ? Either.right(parsed)
      : Either.left(`must be ${least === 0 ? "a non-negative" : "a positive"} integer, got "${value}"`)
  })

/** A yes/no setting: `1` or `true` is yes; `0` or `false` is no; anything else is refused. */
const yesNo = (name: string) =>
  variable(name, (value) =>
    value === "1" || value.toLowerCase() === "true" ? Either.right(true)
    : value === "0" || value.toLowerCase() === "false" ? Either.right(false)
    : Either.left(`must be 1, true, 0 or false, got "${value}"`))

const oneOf = <A extends string>(name: string, choices: ReadonlyArray<A>) =>
  variable(name, (value) => {
    const found = choices.find((choice) => choice === value.toLowerCase())
    return found === undefined ? Either.left(`must be one of ${choices.join(", ")}, got "${value}"`) : Either.right(found)
  })

/** Seconds before each attempt, comma-separated. */
const schedule = (name: string) =>
  variable(name, (value) => {
    const parsed = parseRetrySchedule(value)
    return typeof parsed === "string" ? Either.left(parsed) : Either.right(parsed)
  })

/** The building blocks, for the server's own variables (PORT, LOG_LEVEL, …). */
export const envVariables = { variable, text, integer, yesNo, oneOf, schedule }

/** Refused at start, naming the variable, rather than when the first secret is stored. */
const encryptionKey = variable("ATRIUM_ENCRYPTION_KEY", (value) => {
  const problem = encryptionKeyProblem(value)
  return problem === undefined ? Either.right(value) : Either.left(problem)
})

/** `{ [key]: value }` when the variable is set, `{}` when not: the options keep their own defaults. */
export const when = <K extends string, A>(key: K, value: Option.Option<A>): { [P in K]?: A } =>
  Option.isSome(value) ? ({ [key]: value.value } as { [P in K]: A }) : {}

/** Atrium's options from their `ATRIUM_*` variables (the README's "Environment" table). */
export const atriumOptionsConfig: Config.Config<AtriumOptionsInput> = Config.all({
  headerPrefix: text("ATRIUM_HEADER_PREFIX"),
  consoleDomain: text("ATRIUM_CONSOLE_DOMAIN"),
  maxBodyBytes: integer("ATRIUM_MAX_BODY_BYTES"),
  issuer: text("ATRIUM_ISSUER"),
  allowPrivateNetworks: yesNo("ATRIUM_ALLOW_PRIVATE_NETWORKS"),
  strictStatuses: yesNo("ATRIUM_STRICT_STATUSES"),
  publicWorkspaceCreate: yesNo("ATRIUM_PUBLIC_WORKSPACE_CREATE"),
  encryptionKey,
  ratePerKey: integer("ATRIUM_RATE_LIMIT_PER_KEY", 1),
  jobsPollMillis: integer("ATRIUM_JOBS_POLL_MS", 1),
  jobsLeaseMillis: integer("ATRIUM_JOBS_LEASE_MS", 1),
  retrySchedule: schedule("ATRIUM_WEBHOOK_RETRY_SCHEDULE"),
  emailRetrySchedule: schedule("ATRIUM_EMAIL_RETRY_SCHEDULE"),
  emailPollMillis: integer("ATRIUM_EMAIL_POLL_MS", 1),
  emailLeaseMillis: integer("ATRIUM_EMAIL_LEASE_MS", 1),
  webhookPollMillis: integer("ATRIUM_WEBHOOK_POLL_MS", 1),
  webhookLeaseMillis: integer("ATRIUM_WEBHOOK_LEASE_MS", 1),
  webhookConcurrency: integer("ATRIUM_WEBHOOK_CONCURRENCY", 1),
  webhookConcurrencyPerKey: integer("ATRIUM_WEBHOOK_CONCURRENCY_PER_KEY", 1),
  webhookEndpointsPerKey: integer("ATRIUM_WEBHOOK_ENDPOINTS_PER_KEY", 1)
}).pipe(Config.map((v): AtriumOptionsInput => ({
  ...when("headerPrefix", v.headerPrefix),
  ...when("consoleDomain", v.consoleDomain),
  ...when("maxBodyBytes", v.maxBodyBytes),
  ...when("issuer", v.issuer),
  ...(Option.getOrElse(v.allowPrivateNetworks, () => false) && { allowPrivateNetworks: true }),
  ...(Option.getOrElse(v.strictStatuses, () => false) && { strictStatuses: true }),
  ...when("publicWorkspaceCreate", v.publicWorkspaceCreate),
  ...when("encryptionKey", v.encryptionKey),
  // Requests per second per API key, counted in storage so it holds across servers.
  ...(Option.isSome(v.ratePerKey) && { rateLimits: { perApiKey: { limit: v.ratePerKey.value, windowMillis: 1000 } } }),
  jobs: { ...when("pollIntervalMillis", v.jobsPollMillis), ...when("leaseMillis", v.jobsLeaseMillis) },
  emails: { ...when("retrySchedule", v.emailRetrySchedule), ...when("pollIntervalMillis", v.emailPollMillis), ...when("leaseMillis", v.emailLeaseMillis) },
  webhooks: {
    ...when("retrySchedule", v.retrySchedule),
    ...when("pollIntervalMillis", v.webhookPollMillis),
    ...when("leaseMillis", v.webhookLeaseMillis),
    ...when("concurrency", v.webhookConcurrency),
    ...when("concurrencyPerKey", v.webhookConcurrencyPerKey),
    ...when("endpointsPerKey", v.webhookEndpointsPerKey)
  }
})))

/** What went wrong, variable by variable (Effect's own rendering wraps it in its path syntax). */
const messagesOf = (error: ConfigError.ConfigError): Array<string> => {
  switch (error._op) {
    case "And":
    case "Or":
      return [...messagesOf(error.left), ...messagesOf(error.right)]
    case "InvalidData":
    case "MissingData":
    case "SourceUnavailable":
    case "Unsupported":
      return [error.message]
  }
}

/** The process's variables where there is a process (Node, Bun, Deno's compatibility), else none. */
const processEnv = (): Readonly<Record<string, string | undefined>> =>
  (globalThis as { readonly process?: { readonly env?: Record<string, string | undefined> } }).process?.env ?? {}

/** `config` read from `env`; throws one error that names every variable that cannot be used. */
export const readConfig = <A>(config: Config.Config<A>, env: Readonly<Record<string, string | undefined>> = processEnv()): A => {
  const provider = ConfigProvider.fromMap(new Map(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined)))
  return Either.getOrThrowWith(
    Effect.runSync(Effect.either(Effect.withConfigProvider(config, provider))),
    (error) => new Error(messagesOf(error).join("; "))
  )
}

/**
 * `createAtrium({ options: optionsFromEnv() })`: the options `atrium serve` takes from its
 * `ATRIUM_*` variables (`env`, default this process's), for an embedded Atrium. Throws, naming each
 * variable, when one cannot be used. Spread your own over it to override:
 * `{ ...optionsFromEnv(), issuer: "acme" }`.
 */
export const optionsFromEnv = (env?: Readonly<Record<string, string | undefined>>): AtriumOptionsInput =>
  readConfig(atriumOptionsConfig, env)
