import { keepLatest } from "../BoundedMap.js"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { WebhookTransport } from "../ports/WebhookTransport.js"
import { normalizeExpiresAt } from "../tokens/Jwt.js"
import { storedPermissionProvider } from "../workspace/PermissionProviderConfig.js"
import { SettingsRepo } from "../workspace/SettingsRepo.js"
import type { AccessRole } from "./AccessRule.js"

/**
 * The permission provider (spec client-api.md, "Access", step 3; DECISIONS.md, "Access"): when a
 * key enables it, the customer's URL decides access, asked with the hosted service's request
 * (compatible-api-facts.md §3.2) through the same guarded transport as webhook deliveries. A host
 * that embeds Atrium can answer in-process instead (`PermissionProvider.resolver`). Answers are
 * kept per (key, user, resource) until their `expiresAt`, or 5 minutes; a provider that fails,
 * times out or answers badly is no access (fail closed), and the log says which.
 */

/** Why access is asked: the facts' sources that Atrium sends. */
export type PermissionSource = "identify" | "setDocuments" | "getNotifications" | "setNotifications"

export interface PermissionQuery {
  readonly userId: string
  readonly resource: {
    readonly id: string
    readonly type: "organization" | "folder" | "document"
    readonly source: PermissionSource
    readonly organizationId: string
    /** Documents only, and only when the document is in a folder. */
    readonly parentFolderId?: string
  }
}

export const PermissionResult = Schema.Struct({
  userId: Schema.String,
  resourceId: Schema.String,
  type: Schema.String,
  organizationId: Schema.optional(Schema.String),
  hasAccess: Schema.Boolean,
  accessRole: Schema.optional(Schema.Literal("viewer", "editor")),
  expiresAt: Schema.optional(Schema.Number)
})
export type PermissionResult = typeof PermissionResult.Type

/** The provider's answer body; other keys (`success`, `statusCode`, `message`) are allowed and ignored. */
const ProviderAnswerBody = Schema.parseJson(Schema.Struct({ data: Schema.Array(PermissionResult) }))
const decodeAnswerBody = Schema.decodeUnknownEither(ProviderAnswerBody)

/** A host's own provider: the results for the queries, in any order; a missing one is no access. */
export type PermissionResolver = (apiKey: string, queries: ReadonlyArray<PermissionQuery>) => Promise<ReadonlyArray<PermissionResult>>

export interface ProviderAnswer {
  readonly accessRole: AccessRole | null
  /** No answer could be had (the call failed, or the answer left this query out): denied, and not kept. */
  readonly failed: boolean
}

export const PROVIDER_TIMEOUT_MILLIS = 5_000
/** Retries after a failed call, at once: a user is waiting for the answer. */
export const PROVIDER_RETRIES = 2
/** How long an answer without `expiresAt` is kept. */
export const PROVIDER_CACHE_MILLIS = 5 * 60_000
/** Answers kept at most, the oldest dropped first. */
const CACHE_ENTRIES = 50_000
/** A provider's answer read at most: a call may carry many queries. */
const MAX_ANSWER_BYTES = 1024 * 1024

/** A host's in-process provider, when it gives one (`createAtrium({ permissionResolver })`): it replaces every key's URL. */
export class HostPermissionResolver extends Context.Reference<HostPermissionResolver>()("@atrium/core/HostPermissionResolver", {
  defaultValue: (): PermissionResolver | undefined => undefined
}) {}

export class PermissionProvider extends Context.Tag("@atrium/core/PermissionProvider")<PermissionProvider, {
  /** Whether the key's access is decided by a provider. */
  readonly enabled: (apiKey: string) => Effect.Effect<boolean>
  /** The answer for each query, in order: kept ones from the cache, the rest asked in one call. Never fails: failure is no access. */
  readonly ask: (apiKey: string, queries: ReadonlyArray<PermissionQuery>) => Effect.Effect<ReadonlyArray<ProviderAnswer>>
}>() {
  /**
   * The provider each key configures (permissionproviderconfig), called over HTTP with
   * `timeoutMillis` per attempt; or the host's resolver, when it gave one.
   */
  static readonly layerWith = (options: { readonly timeoutMillis?: number } = {}) => Layer.effect(
    PermissionProvider,
    Effect.gen(function*() {
      const host = yield* HostPermissionResolver
      if (host !== undefined) return resolverProvider(host)
      const settings = yield* SettingsRepo
      const transport = yield* WebhookTransport
      const configured = (apiKey: string) =>
        Effect.map(storedPermissionProvider(settings, apiKey), (stored) =>
          stored.usePermissionProvider && stored.permissionProviderConfig.permissionProviderUrl !== "" ? stored.permissionProviderConfig : undefined)
      const call = (apiKey: string, queries: ReadonlyArray<PermissionQuery>) =>
        Effect.flatMap(configured(apiKey), (config) =>
          config === undefined
            ? Effect.fail("the permission provider was turned off")
            : transport.post({
              url: config.permissionProviderUrl,
              headers: { "content-type": "application/json", authorization: `Bearer ${config.authToken}` },
              body: JSON.stringify({ data: { requests: queries } }),
              timeoutMillis: options.timeoutMillis ?? PROVIDER_TIMEOUT_MILLIS,
              maxResponseBytes: MAX_ANSWER_BYTES
            }).pipe(
              Effect.mapError((error) => `${error.reason}: ${error.message}`),
              Effect.flatMap((answer) => {
                if (answer.status < 200 || answer.status > 299) return Effect.fail(`it answered HTTP ${answer.status}`)
                const body = decodeAnswerBody(answer.body)
                return Either.isRight(body) ? Effect.succeed(body.right.data) : Effect.fail(`its answer is not {"data": [PermissionResult…]}`)
              })
            ))
      return makeProvider({ enabled: (apiKey) => Effect.map(configured(apiKey), (config) => config !== undefined), call })
    })
  )

  static readonly layer = PermissionProvider.layerWith()

  /** A host's in-process provider, for every key (the embedded case: no HTTP call to itself). */
  static readonly resolver = (resolve: PermissionResolver) => Layer.sync(PermissionProvider, () => resolverProvider(resolve))
}

const resolverProvider = (resolve: PermissionResolver) =>
  makeProvider({
    enabled: () => Effect.succeed(true),
    call: (apiKey, queries) =>
      Effect.tryPromise({ try: () => resolve(apiKey, queries), catch: (error) => `the resolver failed: ${error instanceof Error ? error.message : String(error)}` })
  })

const keyOf = (apiKey: string, userId: string, type: string, id: string) => JSON.stringify([apiKey, userId, type, id])

/** The cache, the retries and the matching of answers to queries, over one way of calling the provider. */
const makeProvider = (options: {
  readonly enabled: (apiKey: string) => Effect.Effect<boolean>
  /** One call for the queries; fails with why. */
  readonly call: (apiKey: string, queries: ReadonlyArray<PermissionQuery>) => Effect.Effect<ReadonlyArray<PermissionResult>, string>
}): typeof PermissionProvider.Service => {
  const cache = new Map<string, { readonly answer: ProviderAnswer; readonly until: number }>()
  const keep = (key: string, answer: ProviderAnswer, until: number) => keepLatest(cache, key, { answer, until }, CACHE_ENTRIES)
  const denied: ProviderAnswer = { accessRole: null, failed: true }
  return {
    enabled: options.enabled,
    ask: (apiKey, queries) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const keys = queries.map((query) => keyOf(apiKey, query.userId, query.resource.type, query.resource.id))
        const answers: Array<ProviderAnswer | undefined> = keys.map((key) => {
          const kept = cache.get(key)
          return kept !== undefined && kept.until > now ? kept.answer : undefined
        })
        const missing = queries.filter((_, i) => answers[i] === undefined)
        if (missing.length === 0) return answers.map((answer) => answer ?? denied)
        const results = yield* Effect.either(Effect.retry(options.call(apiKey, missing), { times: PROVIDER_RETRIES }))
        if (Either.isLeft(results)) {
          yield* Effect.logWarning(`Permission provider of ${apiKey.slice(0, 8)}… failed (${missing.length} queries, ${PROVIDER_RETRIES + 1} attempts): ${results.left}; access denied.`)
          return answers.map((answer) => answer ?? denied)
        }
        const byKey = new Map(results.right.map((result) => [keyOf(apiKey, result.userId, result.type, result.resourceId), result]))
        let unanswered = 0
        const filled = answers.map((answer, i) => {
          if (answer !== undefined) return answer
          const result = byKey.get(keys[i])
          if (result === undefined) {
            unanswered++
            return denied
          }
          const given: ProviderAnswer = { accessRole: result.hasAccess ? result.accessRole ?? "editor" : null, failed: false }
          keep(keys[i], given, result.expiresAt === undefined ? now + PROVIDER_CACHE_MILLIS : normalizeExpiresAt(result.expiresAt))
          return given
        })
        if (unanswered > 0) yield* Effect.logWarning(`Permission provider of ${apiKey.slice(0, 8)}… left ${unanswered} of ${missing.length} queries unanswered; those are denied.`)
        return filled
      })
  }
}
