import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { AtriumConfig } from "../Config.js"
import { alreadyExists, failedPrecondition, invalidArgument } from "../protocol/ApiError.js"
import { pageOf, PageTokens } from "../protocol/PageTokens.js"
import { DeliveriesRepo } from "../deliveries/DeliveriesRepo.js"
import { Ids } from "../ports/Ids.js"
import { Transactions } from "../ports/Transactions.js"
import { isHttpUrl } from "../schema/Common.js"
import { requireEnabled } from "./Enablement.js"
import { newSigningSecret } from "./SigningSecret.js"
import { unknownEndpoint } from "./UnknownEndpoint.js"
import { WebhookConfigRepo } from "./WebhookConfigRepo.js"
import type {
  AdvancedWebhookEndpoint,
  CreateEndpointInput,
  ListEndpointsInput,
  UpdateEndpointInput
} from "./WebhookEndpointSchemas.js"
import { type EndpointPosition, type WebhookEndpointRow, WebhookEndpointsRepo } from "./WebhookEndpointsRepo.js"

const DEFAULT_LIMIT = 50

/** How long a rotated-out secret keeps signing beside the new one (docs/decisions.md, "Webhooks"). */
export const ROTATION_GRACE_MILLIS = 24 * 60 * 60 * 1000

/** A list cursor: a position and the direction to read from it. */
interface Cursor extends EndpointPosition {
  readonly before: boolean
}

const requireHttpUrl = (url: string) =>
  isHttpUrl(url) ? Effect.void : Effect.fail(invalidArgument("url must be a valid http(s) URL."))

/** The record of the spec: timestamps as ISO 8601 UTC, no metadata, no secret. */
const toRecord = (row: WebhookEndpointRow): AdvancedWebhookEndpoint => ({
  id: row.id,
  url: row.url,
  description: row.description,
  filterTypes: row.filterTypes,
  channels: row.channels,
  disabled: row.disabled,
  rateLimit: row.rateLimit,
  uid: row.uid,
  createdAt: new Date(row.createdAt).toISOString(),
  updatedAt: new Date(row.updatedAt).toISOString()
})

/** Advanced webhook endpoints of an API key; every operation needs advanced webhooks enabled. */
export class WebhookEndpoints extends Effect.Service<WebhookEndpoints>()("@atrium/core/WebhookEndpoints", {
  accessors: true,
  effect: Effect.gen(function*() {
    const repo = yield* WebhookEndpointsRepo
    const deliveries = yield* DeliveriesRepo
    const configs = yield* WebhookConfigRepo
    const ids = yield* Ids
    const pageTokens = yield* PageTokens
    const { lock, withTransaction } = yield* Transactions
    const { endpointsPerKey } = (yield* AtriumConfig).webhooks

    const enabled = (apiKey: string) => Effect.flatMap(configs.find(apiKey), requireEnabled)

    const pageScope = (apiKey: string) => ({
      apiKey,
      operation: "workspace.advancedwebhook.endpoints.get",
      filters: null,
      tokenName: "iterator"
    })

    /** Rows after `after` (or from the start); a previous page exists when we did not start at the start. */
    const pageAfter = (apiKey: string, after: EndpointPosition | undefined, limit: number) =>
      Effect.map(repo.list(apiKey, { ...(after && { after }), limit: limit + 1 }), (rows) => {
        const page = pageOf(rows, limit)
        return { items: page.items, hasNext: page.hasMore, hasPrev: after !== undefined, after }
      })

    /**
     * The `limit` rows just before `before`. When fewer remain, the start is reached and
     * the first page is answered instead, so going back always ends on a full first page.
     */
    const pageBefore = (apiKey: string, before: EndpointPosition, limit: number) =>
      Effect.flatMap(repo.list(apiKey, { before, limit: limit + 1 }), (rows) =>
        rows.length <= limit
          ? pageAfter(apiKey, undefined, limit)
          : Effect.succeed({ items: rows.slice(0, limit).reverse(), hasNext: true, hasPrev: true, after: undefined }))

    const cursorAt = (apiKey: string, position: EndpointPosition, before: boolean) => {
      const cursor: Cursor = { createdAt: position.createdAt, id: position.id, before }
      return pageTokens.encode(pageScope(apiKey), cursor)
    }

    return {
      create: (apiKey: string, input: typeof CreateEndpointInput.Type) =>
        Effect.gen(function*() {
          yield* requireHttpUrl(input.url)
          yield* enabled(apiKey)
          const now = yield* Clock.currentTimeMillis
          const row: WebhookEndpointRow = {
            apiKey,
            id: yield* ids.make("ep", 27),
            url: input.url,
            description: input.description ?? null,
            filterTypes: input.filterTypes ?? null,
            channels: input.channels ?? null,
            disabled: input.disabled ?? false,
            rateLimit: input.rateLimit ?? null,
            uid: input.uid ?? null,
            metadata: input.metadata ?? {},
            createdAt: now,
            updatedAt: now
          }
          return yield* withTransaction(Effect.gen(function*() {
            yield* lock("webhook-endpoints", apiKey) // counted, then inserted: concurrent creates take turns
            const count = yield* repo.count(apiKey)
            if (count >= endpointsPerKey) {
              return yield* failedPrecondition(
                `An API key may have at most ${endpointsPerKey} advanced webhook endpoints and this one has ${count}: delete one before creating another.`
              )
            }
            if (!(yield* repo.insert(row, newSigningSecret()))) {
              return yield* alreadyExists(`An advanced webhook endpoint with uid "${row.uid}" already exists.`)
            }
            return toRecord(row)
          }))
        }),

      /**
       * Oldest first, keyset-paged by (createdAt, id). `iterator` continues forward,
       * `prevIterator` goes back one page; both are page tokens bound to the API key.
       */
      list: (apiKey: string, input: typeof ListEndpointsInput.Type) =>
        Effect.gen(function*() {
          yield* enabled(apiKey)
          const limit = input.limit ?? DEFAULT_LIMIT
          const cursor = input.iterator === undefined || input.iterator === null
            ? undefined
            : (yield* pageTokens.decode(pageScope(apiKey), input.iterator)) as Cursor
          const page = yield* (cursor?.before === true ? pageBefore(apiKey, cursor, limit) : pageAfter(apiKey, cursor, limit))
          const last = page.items[page.items.length - 1]
          // A page emptied by deletions goes back from where it was asked to start.
          const first = page.items[0] ?? page.after
          const iterator = page.hasNext && last !== undefined ? yield* cursorAt(apiKey, last, false) : null
          const prevIterator = page.hasPrev && first !== undefined ? yield* cursorAt(apiKey, first, true) : null
          return { endpoints: page.items.map(toRecord), iterator, prevIterator, done: iterator === null }
        }),

      /** Partial update; `null` clears description, filterTypes, channels and rateLimit; metadata is replaced whole. */
      update: (apiKey: string, input: typeof UpdateEndpointInput.Type) =>
        Effect.gen(function*() {
          const { endpointId, ...changes } = input
          if (Object.keys(changes).length === 0) {
            return yield* invalidArgument("At least one endpoint field besides endpointId must be provided.")
          }
          if (changes.url !== undefined) yield* requireHttpUrl(changes.url)
          yield* enabled(apiKey)
          return yield* withTransaction(Effect.gen(function*() {
            yield* lock("webhook-endpoint", apiKey, endpointId) // a partial update: concurrent ones apply one after the other
            const existing = yield* repo.find(apiKey, endpointId)
            if (existing === undefined) return yield* unknownEndpoint(endpointId)
            const row: WebhookEndpointRow = { ...existing, ...changes, updatedAt: yield* Clock.currentTimeMillis }
            yield* repo.update(row)
            // Disabling stops deliveries at once; an attempt already under way may finish.
            if (row.disabled && !existing.disabled) yield* deliveries.cancelEndpoint(apiKey, endpointId, row.updatedAt)
            return toRecord(row)
          }))
        }),

      /** Removes the endpoint, its signing secret, its deliveries and their attempts for good (spec "States"). */
      delete: (apiKey: string, endpointId: string) =>
        Effect.gen(function*() {
          yield* enabled(apiKey)
          const deleted = yield* withTransaction(Effect.gen(function*() {
            if (!(yield* repo.delete(apiKey, endpointId))) return false
            yield* deliveries.forgetEndpoint(apiKey, endpointId)
            return true
          }))
          if (!deleted) return yield* unknownEndpoint(endpointId)
          return { endpointId, deleted: true as const }
        }),

      /** A new signing secret; the old one keeps signing beside it for ROTATION_GRACE_MILLIS. */
      rotateSecret: (apiKey: string, endpointId: string) =>
        Effect.gen(function*() {
          yield* enabled(apiKey)
          const now = yield* Clock.currentTimeMillis
          const secret = newSigningSecret()
          if (!(yield* repo.rotateSecret(apiKey, endpointId, secret, now + ROTATION_GRACE_MILLIS, now))) {
            return yield* unknownEndpoint(endpointId)
          }
          return { secret }
        }),

      getSecret: (apiKey: string, endpointId: string) =>
        Effect.gen(function*() {
          yield* enabled(apiKey)
          const secret = yield* repo.findSecret(apiKey, endpointId)
          if (secret === undefined) return yield* unknownEndpoint(endpointId)
          return { endpointId, secret }
        })
    }
  })
}) {}
