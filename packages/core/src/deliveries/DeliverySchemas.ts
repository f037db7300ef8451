import * as Schema from "effect/Schema"
import { SuccessResult } from "../protocol/Envelope.js"
import { Id, IntRange, optional } from "../schema/Common.js"
import type { AttemptRow } from "./DeliveriesRepo.js"

/** An ISO 8601 time with a date and a time of day, as every webhook timestamp. */
const IsoTime = Schema.String.pipe(
  Schema.filter((text) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text) && Number.isFinite(Date.parse(text)), {
    message: () => "must be an ISO 8601 time, e.g. 2026-01-31T12:00:00Z"
  })
).annotations({
  identifier: "IsoTime",
  // Generated values (property tests) are times, not random strings the filter would reject forever.
  arbitrary: () => (fc) => fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms).toISOString())
})

export const ListAttemptsInput = Schema.Struct({
  messageId: optional(Id),
  endpointId: optional(Id),
  status: optional(Schema.Literal("success", "failed")),
  limit: optional(IntRange(1, 250)),
  /** `iterator` of a previous answer; absent or null: the newest page. */
  iterator: optional(Schema.NullOr(Schema.String))
})

export const ResendInput = Schema.Struct({ messageId: Id, endpointId: Id })

export const RecoverInput = Schema.Struct({ endpointId: Id, since: IsoTime })

export const WebhookAttempt = Schema.Struct({
  attemptId: Schema.String,
  messageId: Schema.String,
  endpointId: Schema.String,
  url: Schema.String,
  attemptNumber: Schema.Number,
  status: Schema.Literal("success", "failed"),
  /** 0 when no answer came. */
  responseStatusCode: Schema.Number,
  /** The first 4 KiB of the answer. */
  responseBody: Schema.String,
  durationMs: Schema.Number,
  /** Null when an HTTP answer came; why none came otherwise (refused, timeout, network). */
  error: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  nextAttemptAt: Schema.NullOr(Schema.String)
}).annotations({ identifier: "WebhookAttempt" })
export type WebhookAttempt = typeof WebhookAttempt.Type

export const toAttemptRecord = (row: AttemptRow): WebhookAttempt => ({
  attemptId: row.id,
  messageId: row.messageId,
  endpointId: row.endpointId,
  url: row.url,
  attemptNumber: row.attemptNumber,
  status: row.status,
  responseStatusCode: row.responseStatusCode,
  responseBody: row.responseBody,
  durationMs: row.durationMs,
  error: row.error,
  createdAt: new Date(row.createdAt).toISOString(),
  nextAttemptAt: row.nextAttemptAt === null ? null : new Date(row.nextAttemptAt).toISOString()
})

export const AttemptsPage = SuccessResult(Schema.Struct({
  attempts: Schema.Array(WebhookAttempt),
  iterator: Schema.NullOr(Schema.String)
}))

export const ResendResult = SuccessResult(Schema.Struct({ messageId: Schema.String, endpointId: Schema.String }))

export const RecoverResult = SuccessResult(Schema.Struct({ count: Schema.Number }))
