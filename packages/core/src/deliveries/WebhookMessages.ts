import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import type { NewEvent } from "../events/EventListener.js"
import { Access } from "../protocol/Access.js"
import { notFound } from "../protocol/ApiError.js"
import { PageTokens } from "../protocol/PageTokens.js"
import { afterCommit, Transactions } from "../ports/Transactions.js"
import { requireEnabled } from "../webhooks/Enablement.js"
import { WebhookConfigRepo } from "../webhooks/WebhookConfigRepo.js"
import { DeliverySignal } from "./DeliverySignal.js"
import type { CreateMessageInput, ListMessagesInput, WebhookMessage } from "./MessageSchemas.js"
import { type MessagePosition, type MessageRow, OutboxRepo } from "./OutboxRepo.js"
import { WebhookOutbox } from "./WebhookOutbox.js"

/** How long an `eventId` answers its first message (docs/decisions.md, "Webhooks"). */
export const EVENT_ID_WINDOW_MILLIS = 24 * 60 * 60 * 1000

const DEFAULT_LIMIT = 50

export const toMessageRecord = (row: MessageRow): WebhookMessage => ({
  messageId: row.id,
  eventType: row.eventType,
  channels: row.channels,
  payload: row.payload,
  createdAt: new Date(row.createdAt).toISOString()
})

/** What messages/create did: `created` is false when a repeated `eventId` answered its first message instead. */
export interface PublishedMessage {
  readonly message: WebhookMessage
  readonly created: boolean
}

/** Webhook messages: a host's own events (messages/create) and the list of what was recorded (messages/get). */
export class WebhookMessages extends Effect.Service<WebhookMessages>()("@atrium/core/WebhookMessages", {
  accessors: true,
  effect: Effect.gen(function*() {
    const repo = yield* OutboxRepo
    const outbox = yield* WebhookOutbox
    const configs = yield* WebhookConfigRepo
    const signal = yield* DeliverySignal
    const pageTokens = yield* PageTokens
    const access = yield* Access
    const { withTransaction } = yield* Transactions

    const pageScope = (apiKey: string, filters: object) => ({
      apiKey,
      operation: "workspace.advancedwebhook.messages.get",
      filters,
      tokenName: "iterator"
    })

    return {
      /** messages/create: a host's own event. The same `eventId` within a day answers the first message. */
      publish: (apiKey: string, input: typeof CreateMessageInput.Type) =>
        Effect.gen(function*() {
          yield* Effect.flatMap(configs.find(apiKey), requireEnabled)
          const now = yield* Clock.currentTimeMillis
          // The host's own message: its channels are the host's names, not organizations.
          const event: NewEvent = { type: input.eventType, data: input.payload, channels: input.channels ?? [], organizationId: null }
          const eventId = input.eventId ?? null
          return yield* withTransaction(Effect.gen(function*() {
            if (eventId !== null) {
              const earlier = yield* repo.findByEventId(apiKey, eventId)
              if (earlier !== undefined && earlier.createdAt > now - EVENT_ID_WINDOW_MILLIS) {
                return { message: toMessageRecord(earlier), created: false }
              }
              if (earlier !== undefined) yield* repo.forgetEventId(apiKey, earlier.id)
            }
            const message = yield* outbox.newMessage(apiKey, event, now, eventId)
            const inserted = yield* outbox.record(apiKey, [message])
            if (!inserted.has(message.id) && eventId !== null) {
              // A concurrent call with the same eventId committed first: answer its message.
              const first = yield* repo.findByEventId(apiKey, eventId)
              if (first !== undefined) return { message: toMessageRecord(first), created: false }
            }
            yield* afterCommit(signal.wake)
            return { message: toMessageRecord(message), created: true }
          }))
        }),

      /** messages/get: newest first, keyset-paged by (createdAt, id), a disabled organization's left out; `next` is the page's `iterator`. */
      list: (apiKey: string, input: typeof ListMessagesInput.Type) =>
        Effect.gen(function*() {
          yield* Effect.flatMap(configs.find(apiKey), requireEnabled)
          const filters = {
            ...(input.messageId !== undefined && { messageId: input.messageId }),
            ...(input.eventType !== undefined && { eventType: input.eventType }),
            ...(input.channel !== undefined && { channel: input.channel })
          }
          return yield* pageTokens.page({
            scope: pageScope(apiKey, filters),
            token: input.iterator ?? undefined,
            limit: input.limit ?? DEFAULT_LIMIT,
            read: (before: MessagePosition | undefined, limit) =>
              repo.listMessages(apiKey, filters, { ...(before && { before }), limit }),
            cursorOf: (row): MessagePosition => ({ createdAt: row.createdAt, id: row.id }),
            present: (page) => ({ items: page.items.map(toMessageRecord), next: page.next })
          })
        }),

      /**
       * One message of the key, or NOT_FOUND; PERMISSION_DENIED while its organization is disabled
       * (the dispatcher's refusal, for the organization the message names rather than the call).
       */
      find: (apiKey: string, messageId: string) =>
        Effect.gen(function*() {
          const row = yield* repo.findMessage(apiKey, messageId)
          if (row === undefined) return yield* notFound(`Webhook message ${messageId} not found.`)
          if (row.organizationId !== null) yield* access.ensureOrganizationEnabled(apiKey, row.organizationId)
          return row
        })
    }
  })
}) {}
