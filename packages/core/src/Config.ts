import * as Context from "effect/Context"
import * as Layer from "effect/Layer"

/** A limit of `limit` events per `windowMillis`. */
export interface RateLimit {
  readonly limit: number
  readonly windowMillis: number
}

/** Operator options. Core never reads the environment: the host passes these. */
export interface AtriumOptions {
  /** Header prefix for credentials (`x-service-api-key`, …). `x-velt` accepts hosted-service clients unchanged. */
  readonly headerPrefix: string
  /** Largest accepted request body, in bytes. */
  readonly maxBodyBytes: number
  /** Domain of the operator's console: the only non-localhost domain a login link may continue to. */
  readonly consoleDomain: string | undefined
  /** `iss` claim of issued JWTs. */
  readonly issuer: string
  /** How long a verified credential or an organization's enabled state is trusted before storage is asked again. */
  readonly cacheTtlMillis: number
  readonly rateLimits: {
    readonly loginLinkPerEmail: RateLimit
    readonly loginLinkPerIp: RateLimit
    readonly workspaceCreatePerIp: RateLimit
    /**
     * Every API-key call, counted per key in storage, so the limit holds across servers on one
     * database (`ATRIUM_RATE_LIMIT_PER_KEY`). Off (undefined) by default: it costs a write per call.
     */
    readonly perApiKey: RateLimit | undefined
  }
  /** Email domains refused as disposable, beside the built-in list. */
  readonly disposableEmailDomains: ReadonlyArray<string>
  /**
   * Answer the hosted service's three INTERNAL-with-details answers to a client's input
   * (domains/add, domains/delete, v2 documents/add) with their 4xx instead (docs/decisions.md,
   * "Protocol"), for hosts that alert on every 5xx. `ATRIUM_STRICT_STATUSES=1`.
   */
  readonly strictStatuses: boolean
  /**
   * Anyone who reaches the server may create a workspace (`workspace/create` is public, as on the
   * hosted service). Turn it off (`ATRIUM_PUBLIC_WORKSPACE_CREATE=0`) on a server reachable by
   * people who should not; `atrium workspace create` still works.
   */
  readonly publicWorkspaceCreate: boolean
  /**
   * Encrypts the secrets the server reads back (webhook signing secrets, the token signing key,
   * the page-token key, the permission provider's token) before they are stored: at least 32
   * characters (`openssl rand -base64 32`; `ATRIUM_ENCRYPTION_KEY`). Unset: stored as they are.
   */
  readonly encryptionKey: string | undefined
  /** Allow outgoing calls (webhooks, permission provider) to loopback and private networks. */
  readonly allowPrivateNetworks: boolean
  readonly jobs: {
    /** How often an idle runner looks for work. */
    readonly pollIntervalMillis: number
    /** How long a claimed task is held before another server may take it over. */
    readonly leaseMillis: number
  }
  readonly emails: {
    /** The delay in seconds before each attempt to send an email; its length is the number of attempts. */
    readonly retrySchedule: ReadonlyArray<number>
    /** How often the email worker looks for items whose delay or digest ended, and emails due. */
    readonly pollIntervalMillis: number
    /** How long a server holds a claimed email before another may take it over (longer than one send takes). */
    readonly leaseMillis: number
    /** Emails sent at once by one server. */
    readonly concurrency: number
  }
  readonly webhooks: {
    /**
     * The delay in seconds before each attempt of a delivery: the first counted from the
     * message's creation, each next one from the previous failure. Its length is the number of
     * attempts (`ATRIUM_WEBHOOK_RETRY_SCHEDULE`).
     */
    readonly retrySchedule: ReadonlyArray<number>
    /** How long one attempt may take: connecting, sending and the answer. */
    readonly timeoutMillis: number
    /** How often an idle delivery worker looks for due attempts (it is also woken by new events in this process). */
    readonly pollIntervalMillis: number
    /** How long a claimed delivery is held before another server may take it over. */
    readonly leaseMillis: number
    /** Attempts one worker makes at the same time. */
    readonly concurrency: number
    /**
     * Attempts one worker makes at the same time for one API key, so a key whose receivers hang
     * holds at most this share of the worker (`ATRIUM_WEBHOOK_CONCURRENCY_PER_KEY`; default a
     * quarter of `concurrency`, at least 1; never more than `concurrency`).
     */
    readonly concurrencyPerKey: number
    /** Advanced webhook endpoints one API key may have (`ATRIUM_WEBHOOK_ENDPOINTS_PER_KEY`). */
    readonly endpointsPerKey: number
  }
}

/** A quarter of the worker per key: up to three keys whose receivers hang leave the rest of it to the others. */
const defaultConcurrencyPerKey = (concurrency: number) => Math.max(1, Math.floor(concurrency / 4))

export const defaultOptions: AtriumOptions = {
  headerPrefix: "x-service",
  maxBodyBytes: 1024 * 1024,
  consoleDomain: undefined,
  issuer: "atrium",
  cacheTtlMillis: 1000,
  rateLimits: {
    loginLinkPerEmail: { limit: 5, windowMillis: 60 * 60 * 1000 },
    loginLinkPerIp: { limit: 20, windowMillis: 60 * 60 * 1000 },
    workspaceCreatePerIp: { limit: 10, windowMillis: 60 * 60 * 1000 },
    perApiKey: undefined
  },
  disposableEmailDomains: [],
  strictStatuses: false,
  publicWorkspaceCreate: true,
  encryptionKey: undefined,
  allowPrivateNetworks: false,
  jobs: { pollIntervalMillis: 1000, leaseMillis: 30_000 },
  emails: { retrySchedule: [0, 30, 120, 600, 1800, 7200], pollIntervalMillis: 1000, leaseMillis: 120_000, concurrency: 8 },
  webhooks: {
    retrySchedule: [0, 5, 300, 1800, 7200, 18000, 36000, 36000],
    timeoutMillis: 15_000,
    pollIntervalMillis: 500,
    leaseMillis: 60_000,
    concurrency: 64,
    concurrencyPerKey: defaultConcurrencyPerKey(64),
    endpointsPerKey: 50
  }
}

export type AtriumOptionsInput = Partial<Omit<AtriumOptions, "rateLimits" | "jobs" | "emails" | "webhooks">> & {
  readonly rateLimits?: Partial<AtriumOptions["rateLimits"]>
  readonly jobs?: Partial<AtriumOptions["jobs"]>
  readonly emails?: Partial<AtriumOptions["emails"]>
  readonly webhooks?: Partial<AtriumOptions["webhooks"]>
}

export const resolveOptions = (input: AtriumOptionsInput = {}): AtriumOptions => {
  const webhooks = { ...defaultOptions.webhooks, ...input.webhooks }
  return {
    ...defaultOptions,
    ...input,
    rateLimits: { ...defaultOptions.rateLimits, ...input.rateLimits },
    jobs: { ...defaultOptions.jobs, ...input.jobs },
    emails: { ...defaultOptions.emails, ...input.emails },
    webhooks: {
      ...webhooks,
      // The share follows the concurrency it is a share of, unless set.
      concurrencyPerKey: Math.min(webhooks.concurrency, input.webhooks?.concurrencyPerKey ?? defaultConcurrencyPerKey(webhooks.concurrency))
    }
  }
}

export class AtriumConfig extends Context.Tag("@atrium/core/AtriumConfig")<AtriumConfig, AtriumOptions>() {
  static readonly layer = (input: AtriumOptionsInput = {}) => Layer.succeed(AtriumConfig, resolveOptions(input))
}
