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
  }
  /** Email domains refused as disposable, beside the built-in list. */
  readonly disposableEmailDomains: ReadonlyArray<string>
  /** Allow outgoing calls (webhooks, permission provider) to loopback and private networks. */
  readonly allowPrivateNetworks: boolean
  readonly jobs: {
    /** How often an idle runner looks for work. */
    readonly pollIntervalMillis: number
    /** How long a claimed task is held before another server may take it over. */
    readonly leaseMillis: number
  }
}

export const defaultOptions: AtriumOptions = {
  headerPrefix: "x-service",
  maxBodyBytes: 1024 * 1024,
  consoleDomain: undefined,
  issuer: "atrium",
  cacheTtlMillis: 1000,
  rateLimits: {
    loginLinkPerEmail: { limit: 5, windowMillis: 60 * 60 * 1000 },
    loginLinkPerIp: { limit: 20, windowMillis: 60 * 60 * 1000 },
    workspaceCreatePerIp: { limit: 10, windowMillis: 60 * 60 * 1000 }
  },
  disposableEmailDomains: [],
  allowPrivateNetworks: false,
  jobs: { pollIntervalMillis: 1000, leaseMillis: 30_000 }
}

export type AtriumOptionsInput = Partial<Omit<AtriumOptions, "rateLimits" | "jobs">> & {
  readonly rateLimits?: Partial<AtriumOptions["rateLimits"]>
  readonly jobs?: Partial<AtriumOptions["jobs"]>
}

export const resolveOptions = (input: AtriumOptionsInput = {}): AtriumOptions => ({
  ...defaultOptions,
  ...input,
  rateLimits: { ...defaultOptions.rateLimits, ...input.rateLimits },
  jobs: { ...defaultOptions.jobs, ...input.jobs }
})

export class AtriumConfig extends Context.Tag("@atrium/core/AtriumConfig")<AtriumConfig, AtriumOptions>() {
  static readonly layer = (input: AtriumOptionsInput = {}) => Layer.succeed(AtriumConfig, resolveOptions(input))
}
