import * as Effect from "effect/Effect"
import * as Random from "effect/Random"
import { AtriumConfig } from "../Config.js"
import type { EventListener, NewEvent } from "../events/EventListener.js"
import { Ids, timeOrderedId } from "../ports/Ids.js"
import { WebhookConfigRepo } from "../webhooks/WebhookConfigRepo.js"
import { WebhookEndpointsRepo } from "../webhooks/WebhookEndpointsRepo.js"
import { DeliverySignal } from "./DeliverySignal.js"
import { basicReceives } from "./BasicDeliveryBody.js"
import { receives } from "./FanOut.js"
import { type MessageRow, type NewDelivery, OutboxRepo } from "./OutboxRepo.js"
import { delayMillis } from "./RetrySchedule.js"

/**
 * The webhook outbox: events written as messages, and one pending delivery per endpoint that
 * receives each, in the transaction of the change that caused them. Its listener follows a key's
 * events while the key's advanced webhooks are enabled (docs/decisions.md, "Webhooks"), and wakes
 * this process's delivery worker once they are committed.
 */
export class WebhookOutbox extends Effect.Service<WebhookOutbox>()("@atrium/core/WebhookOutbox", {
  effect: Effect.gen(function*() {
    const repo = yield* OutboxRepo
    const endpoints = yield* WebhookEndpointsRepo
    const configs = yield* WebhookConfigRepo
    const ids = yield* Ids
    const signal = yield* DeliverySignal
    const { retrySchedule } = (yield* AtriumConfig).webhooks

    /** Writes the messages and their deliveries; the ids of the messages inserted (one whose eventId is taken is not). */
    const record = (apiKey: string, messages: ReadonlyArray<MessageRow>) =>
      Effect.gen(function*() {
        const inserted = new Set(yield* repo.insertMessages(messages))
        // Advanced endpoints while advanced webhooks are on; the basic webhook while its settings say so (webhookconfig).
        const advanced = (yield* configs.find(apiKey))?.isEnabled === true
        const targets = (yield* endpoints.listEnabled(apiKey)).filter((endpoint) => endpoint.kind === "basic" || advanced)
        const deliveries: Array<NewDelivery> = []
        for (const message of messages) {
          if (!inserted.has(message.id)) continue
          for (const endpoint of targets) {
            if (!receives(endpoint, message.eventType, message.channels)) continue
            if (endpoint.kind === "basic" && !basicReceives(message.eventType, message.payload)) continue
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
        return inserted
      })

    /** An event as a message of the key, made at `now`. */
    const newMessage = (apiKey: string, event: NewEvent, now: number, eventId: string | null) =>
      Effect.map(timeOrderedId(ids, "msg", now), (id): MessageRow => ({
        apiKey,
        id,
        eventType: event.type,
        channels: event.channels,
        organizationId: event.organizationId,
        payload: event.data,
        eventId,
        createdAt: now
      }))

    const listener: EventListener = {
      name: "webhook outbox",
      // Advanced webhooks on, or a basic webhook enabled (an enabled endpoint of kind basic).
      follows: (apiKey) =>
        Effect.flatMap(configs.find(apiKey), (config) =>
          config?.isEnabled === true
            ? Effect.succeed(true)
            : Effect.map(endpoints.listEnabled(apiKey), (enabled) => enabled.some((endpoint) => endpoint.kind === "basic"))),
      inTransaction: ({ apiKey, at, events }) =>
        Effect.flatMap(Effect.forEach(events, (event) => newMessage(apiKey, event, at, null)), (messages) => Effect.asVoid(record(apiKey, messages))),
      afterCommit: () => signal.wake
    }

    return { record, newMessage, listener }
  })
}) {}
