import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { WebhookMessages } from "./WebhookMessages.js"
import { failedPrecondition } from "../protocol/ApiError.js"
import { PageTokens } from "../protocol/PageTokens.js"
import { afterCommit, Transactions } from "../ports/Transactions.js"
import { requireEnabled } from "../webhooks/Enablement.js"
import { unknownEndpoint } from "../webhooks/UnknownEndpoint.js"
import { WebhookConfigRepo } from "../webhooks/WebhookConfigRepo.js"
import { WebhookEndpointsRepo } from "../webhooks/WebhookEndpointsRepo.js"
import { type AttemptPosition, DeliveriesRepo } from "./DeliveriesRepo.js"
import type { ListAttemptsInput, RecoverInput, ResendInput } from "./DeliverySchemas.js"
import { toAttemptRecord } from "./DeliverySchemas.js"
import { DeliverySignal } from "./DeliverySignal.js"

const DEFAULT_LIMIT = 50

/** What the deliveries of an API key's messages did, and asking for them again. */
export class Attempts extends Effect.Service<Attempts>()("@atrium/core/Attempts", {
  accessors: true,
  effect: Effect.gen(function*() {
    const repo = yield* DeliveriesRepo
    const endpoints = yield* WebhookEndpointsRepo
    const configs = yield* WebhookConfigRepo
    const messages = yield* WebhookMessages
    const pageTokens = yield* PageTokens
    const signal = yield* DeliverySignal
    const { withTransaction } = yield* Transactions

    const enabled = (apiKey: string) => Effect.flatMap(configs.find(apiKey), requireEnabled)

    /** The key's endpoint; NOT_FOUND when it has none such, FAILED_PRECONDITION when it is disabled and `enabledOnly`. */
    const endpoint = (apiKey: string, endpointId: string, enabledOnly: boolean) =>
      Effect.gen(function*() {
        const row = yield* endpoints.find(apiKey, endpointId)
        if (row === undefined) return yield* unknownEndpoint(endpointId)
        if (enabledOnly && row.disabled) {
          return yield* failedPrecondition(`Webhook endpoint ${endpointId} is disabled: enable it before asking for deliveries.`)
        }
        return row
      })

    return {
      /**
       * attempts/get: newest first, keyset-paged by (createdAt, id), without the attempts of a disabled
       * organization's messages; `next` is the page's `iterator`.
       */
      list: (apiKey: string, input: typeof ListAttemptsInput.Type) =>
        Effect.gen(function*() {
          yield* enabled(apiKey)
          if (input.messageId !== undefined) yield* messages.find(apiKey, input.messageId)
          if (input.endpointId !== undefined) yield* endpoint(apiKey, input.endpointId, false)
          const filters = {
            ...(input.messageId !== undefined && { messageId: input.messageId }),
            ...(input.endpointId !== undefined && { endpointId: input.endpointId }),
            ...(input.status !== undefined && { status: input.status })
          }
          return yield* pageTokens.page({
            scope: { apiKey, operation: "workspace.advancedwebhook.attempts.get", filters, tokenName: "iterator" },
            token: input.iterator ?? undefined,
            limit: input.limit ?? DEFAULT_LIMIT,
            read: (before: AttemptPosition | undefined, limit) => repo.listAttempts(apiKey, filters, { ...(before && { before }), limit }),
            cursorOf: (row): AttemptPosition => ({ createdAt: row.createdAt, id: row.id }),
            present: (page) => ({ items: page.items.map(toAttemptRecord), next: page.next })
          })
        }),

      /** messages/resend: one more attempt now, whatever the message's state for the endpoint (not for a disabled organization's message). */
      resend: (apiKey: string, input: typeof ResendInput.Type) =>
        Effect.gen(function*() {
          yield* enabled(apiKey)
          yield* messages.find(apiKey, input.messageId)
          yield* endpoint(apiKey, input.endpointId, true)
          yield* withTransaction(Effect.gen(function*() {
            yield* repo.resend(apiKey, input.messageId, input.endpointId, yield* Clock.currentTimeMillis)
            yield* afterCommit(signal.wake)
          }))
          return { messageId: input.messageId, endpointId: input.endpointId }
        }),

      /**
       * endpoints/recover: resends every message whose delivery to the endpoint failed at or after
       * `since`, but a disabled organization's (they wait for a recover after it is enabled); answers how many.
       */
      recover: (apiKey: string, input: typeof RecoverInput.Type) =>
        Effect.gen(function*() {
          yield* enabled(apiKey)
          yield* endpoint(apiKey, input.endpointId, true)
          const count = yield* withTransaction(Effect.gen(function*() {
            const count = yield* repo.recover(apiKey, input.endpointId, Date.parse(input.since), yield* Clock.currentTimeMillis)
            if (count > 0) yield* afterCommit(signal.wake)
            return count
          }))
          return { count }
        })
    }
  })
}) {}
