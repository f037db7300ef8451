import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

/** One event, recorded as a webhook message of one API key. */
export interface MessageRow {
  readonly apiKey: string
  readonly id: string
  /** `<source>.<actionType>`, e.g. `comment.add`. */
  readonly eventType: string
  /** The organization, and `<organizationId>/<documentId>` when a document is involved. */
  readonly channels: ReadonlyArray<string>
  /** The organization whose event it is (NewEvent's), null for none: a disabled one's messages are left out and held. */
  readonly organizationId: string | null
  readonly payload: Readonly<Record<string, unknown>>
  /** The caller's idempotency key (messages/create), null once older than a day. */
  readonly eventId: string | null
  readonly createdAt: number
}

/** A place in the newest-first order of messages, (createdAt, id). */
export interface MessagePosition {
  readonly createdAt: number
  readonly id: string
}

export interface MessageFilters {
  readonly messageId?: string
  readonly eventType?: string
  readonly channel?: string
}

/** A message's delivery to one endpoint as it is created: pending, its first attempt at `nextAttemptAt`. */
export interface NewDelivery {
  readonly apiKey: string
  readonly messageId: string
  readonly endpointId: string
  readonly maxAttempts: number
  readonly nextAttemptAt: number
  readonly createdAt: number
}

/** Storage port: the webhook outbox, messages (events as sent to endpoints) and the deliveries they fan out to. */
export class OutboxRepo extends Context.Tag("@atrium/core/OutboxRepo")<OutboxRepo, {
  /** Inserts the messages; a message whose `eventId` the key already holds is skipped. The ids inserted. */
  readonly insertMessages: (rows: ReadonlyArray<MessageRow>) => Effect.Effect<ReadonlyArray<string>>
  readonly insertDeliveries: (rows: ReadonlyArray<NewDelivery>) => Effect.Effect<void>
  readonly findMessage: (apiKey: string, id: string) => Effect.Effect<MessageRow | undefined>
  readonly findByEventId: (apiKey: string, eventId: string) => Effect.Effect<MessageRow | undefined>
  /** Lets the key's `eventId` be used again (its message is older than the idempotency window). */
  readonly forgetEventId: (apiKey: string, messageId: string) => Effect.Effect<void>
  /** Newest first, from just before `before` (or the newest); a disabled organization's are left out. */
  readonly listMessages: (
    apiKey: string,
    filters: MessageFilters,
    options: { readonly before?: MessagePosition; readonly limit: number }
  ) => Effect.Effect<ReadonlyArray<MessageRow>>
}>() {}
