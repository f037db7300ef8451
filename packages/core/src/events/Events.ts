import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Random from "effect/Random"
import { AtriumConfig } from "../Config.js"
import { delayMillis } from "../deliveries/RetrySchedule.js"
import { DeliverySignal } from "../deliveries/DeliverySignal.js"
import { notFound } from "../protocol/ApiError.js"
import { success } from "../protocol/Envelope.js"
import { PageTokens } from "../protocol/PageTokens.js"
import { Ids, timeOrderedId } from "../ports/Ids.js"
import { afterCommit, Transactions } from "../ports/Transactions.js"
import { requireEnabled } from "../webhooks/Enablement.js"
import { WebhookConfigRepo } from "../webhooks/WebhookConfigRepo.js"
import { WebhookEndpointsRepo } from "../webhooks/WebhookEndpointsRepo.js"
import type { CreateMessageInput, ListMessagesInput, WebhookMessage } from "./EventSchemas.js"
import { type MessagePosition, type MessageRow, EventsRepo, type NewDelivery } from "./EventsRepo.js"
import { receives } from "./FanOut.js"

/** One event a domain records: its type (`<source>.<action>`), its data and its channels. */
export interface NewEvent {
  readonly type: string
  readonly data: Readonly<Record<string, unknown>>
  readonly channels: ReadonlyArray<string>
}

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

/**
 * Events, recorded in the caller's transaction with the change that causes them (an outbox):
 * each becomes a webhook message and one pending delivery per endpoint that receives it.
 */
export class Events extends Effect.Service<Events>()("@atrium/core/Events", {
  accessors: true,
  effect: Effect.gen(function*() {
    const repo = yield* EventsRepo
    const endpoints = yield* WebhookEndpointsRepo
    const configs = yield* WebhookConfigRepo
    const ids = yield* Ids
    const signal = yield* DeliverySignal
    const pageTokens = yield* PageTokens
    const { withTransaction } = yield* Transactions
    const { retrySchedule } = (yield* AtriumConfig).webhooks

    /** Writes the messages and their deliveries; the worker is woken once they are committed. */
    const record = (apiKey: string, messages: ReadonlyArray<MessageRow>) =>
      Effect.gen(function*() {
        const inserted = new Set(yield* repo.insertMessages(messages))
        const targets = yield* endpoints.listEnabled(apiKey)
        const deliveries: Array<NewDelivery> = []
        for (const message of messages) {
          if (!inserted.has(message.id)) continue
          for (const endpoint of targets) {
            if (!receives(endpoint, message.eventType, message.channels)) continue
            deliveries.push({
              apiKey,
              messageId: message.id,
              endpointId: endpoint.id,
              maxAttempts: retrySchedule.length,
              nextAttemptAt: message.createdAt + delayMillis(retrySchedule, 0, yield* Random.next),
              createdAt: message.createdAt
            })
          }
        }
        yield* repo.insertDeliveries(deliveries)
        if (deliveries.length > 0) yield* afterCommit(signal.wake)
        return inserted
      })

    const newMessage = (apiKey: string, event: NewEvent, now: number, eventId: string | null) =>
      Effect.map(timeOrderedId(ids, "msg", now), (id): MessageRow => ({
        apiKey,
        id,
        eventType: event.type,
        channels: event.channels,
        payload: event.data,
        eventId,
        createdAt: now
      }))

    const pageScope = (apiKey: string, filters: object) => ({
      apiKey,
      operation: "workspace.advancedwebhook.messages.get",
      filters,
      tokenName: "iterator"
    })

    return {
      /**
       * Records `events` for the key, inside the caller's transaction: call it beside the write
       * that causes them, and both commit or neither does. Nothing is recorded while the key's
       * advanced webhooks are not enabled (docs/decisions.md, "Webhooks"); events given as an
       * Effect are then not even built (comments re-read their thread for the payload).
       */
      emit: (apiKey: string, events: ReadonlyArray<NewEvent> | Effect.Effect<ReadonlyArray<NewEvent>>) =>
        Effect.gen(function*() {
          if (Array.isArray(events) && events.length === 0) return
          const config = yield* configs.find(apiKey)
          if (config?.isEnabled !== true) return
          const built = Effect.isEffect(events) ? yield* events : events
          if (built.length === 0) return
          const now = yield* Clock.currentTimeMillis
          yield* record(apiKey, yield* Effect.forEach(built, (event) => newMessage(apiKey, event, now, null)))
        }),

      /** messages/create: a host's own event. The same `eventId` within a day answers the first message. */
      publish: (apiKey: string, input: typeof CreateMessageInput.Type) =>
        Effect.gen(function*() {
          yield* Effect.flatMap(configs.find(apiKey), requireEnabled)
          const now = yield* Clock.currentTimeMillis
          const event: NewEvent = { type: input.eventType, data: input.payload, channels: input.channels ?? [] }
          const eventId = input.eventId ?? null
          return yield* withTransaction(Effect.gen(function*() {
            if (eventId !== null) {
              const earlier = yield* repo.findByEventId(apiKey, eventId)
              if (earlier !== undefined && earlier.createdAt > now - EVENT_ID_WINDOW_MILLIS) {
                return success("Message already created with this eventId.", toMessageRecord(earlier))
              }
              if (earlier !== undefined) yield* repo.forgetEventId(apiKey, earlier.id)
            }
            const message = yield* newMessage(apiKey, event, now, eventId)
            const inserted = yield* record(apiKey, [message])
            if (!inserted.has(message.id) && eventId !== null) {
              // A concurrent call with the same eventId committed first: answer its message.
              const first = yield* repo.findByEventId(apiKey, eventId)
              if (first !== undefined) return success("Message already created with this eventId.", toMessageRecord(first))
            }
            return success("Message created successfully.", toMessageRecord(message))
          }))
        }),

      /** messages/get: newest first, keyset-paged by (createdAt, id). */
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
            present: (page) =>
              success("Messages retrieved successfully.", {
                messages: page.items.map(toMessageRecord),
                iterator: page.next ?? null
              })
          })
        }),

      /** One message of the key, or NOT_FOUND. */
      find: (apiKey: string, messageId: string) =>
        Effect.flatMap(repo.findMessage(apiKey, messageId), (row) =>
          row === undefined ? Effect.fail(notFound(`Webhook message ${messageId} not found.`)) : Effect.succeed(row))
    }
  })
}) {}
