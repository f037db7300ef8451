import * as Schema from "effect/Schema"
import { SuccessResult } from "../protocol/Envelope.js"
import { Id, IntRange, JsonObject, maxJsonBytes, optional } from "../schema/Common.js"
import { Channels } from "../webhooks/WebhookEndpointSchemas.js"

/** Largest `payload` of messages/create: 256 KiB of JSON (docs/decisions.md, "Webhooks"). */
export const MAX_PAYLOAD_BYTES = 256 * 1024

/** `<source>.<actionType>`, e.g. `comment.add`: a dot, at most 256 characters, no control characters. */
export const EventType = Schema.String.pipe(
  Schema.maxLength(256, { message: () => "must be at most 256 characters" }),
  Schema.pattern(/^[^.\u0000-\u001f\u007f]+\.[^\u0000-\u001f\u007f]+$/, {
    message: () => "must be <source>.<action>, e.g. comment.add: text on both sides of a dot, no control characters"
  })
).annotations({ identifier: "EventType" })

const Payload = JsonObject.pipe(maxJsonBytes(MAX_PAYLOAD_BYTES))

export const CreateMessageInput = Schema.Struct({
  eventType: EventType,
  payload: Payload,
  channels: optional(Channels),
  /** Idempotency key: the same eventId again within 24 h answers the first message and sends nothing new. */
  eventId: optional(Id)
})

export const ListMessagesInput = Schema.Struct({
  messageId: optional(Id),
  eventType: optional(EventType),
  channel: optional(Id),
  limit: optional(IntRange(1, 250)),
  /** `iterator` of a previous answer; absent or null: the newest page. */
  iterator: optional(Schema.NullOr(Schema.String))
})

export const WebhookMessage = Schema.Struct({
  messageId: Schema.String,
  eventType: Schema.String,
  channels: Schema.Array(Schema.String),
  payload: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  /** ISO 8601 UTC, like every webhook timestamp. */
  createdAt: Schema.String
}).annotations({ identifier: "WebhookMessage" })
export type WebhookMessage = typeof WebhookMessage.Type

export const MessageResult = SuccessResult(WebhookMessage)

export const MessagesPage = SuccessResult(Schema.Struct({
  messages: Schema.Array(WebhookMessage),
  iterator: Schema.NullOr(Schema.String)
}))
