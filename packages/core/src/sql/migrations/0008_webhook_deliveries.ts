import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { columnTypes } from "./ColumnTypes.js"

/** Events (webhook messages), their deliveries to endpoints, the attempts made; secret rotation. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const { text, bigint } = columnTypes(sql)
  // One row per event. `event_id` is the caller's idempotency key, cleared once older than a day.
  yield* sql`CREATE TABLE webhook_messages (
    api_key ${text} NOT NULL,
    id ${text} NOT NULL,
    event_type ${text} NOT NULL,
    channels ${text} NOT NULL,
    payload ${text} NOT NULL,
    event_id ${text},
    created_at ${bigint} NOT NULL,
    PRIMARY KEY (api_key, id)
  )`
  yield* sql`CREATE INDEX webhook_messages_newest ON webhook_messages (api_key, created_at, id)`
  yield* sql`CREATE UNIQUE INDEX webhook_messages_event_id ON webhook_messages (api_key, event_id) WHERE event_id IS NOT NULL`

  // One row per (message, endpoint): the outbox. A pending row is due at next_attempt_at; a
  // worker claims it by pushing next_attempt_at a lease ahead, so a crashed worker's claim runs out.
  yield* sql`CREATE TABLE webhook_deliveries (
    api_key ${text} NOT NULL,
    message_id ${text} NOT NULL,
    endpoint_id ${text} NOT NULL,
    status ${text} NOT NULL,
    attempts INTEGER NOT NULL,
    max_attempts INTEGER NOT NULL,
    next_attempt_at ${bigint},
    lease_owner ${text},
    created_at ${bigint} NOT NULL,
    updated_at ${bigint} NOT NULL,
    PRIMARY KEY (api_key, message_id, endpoint_id)
  )`
  yield* sql`CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`
  // Only claimed rows carry a lease owner: what a claim reads back, and what a stopping worker hands back.
  yield* sql`CREATE INDEX webhook_deliveries_claimed ON webhook_deliveries (lease_owner) WHERE lease_owner IS NOT NULL`
  // Without status, so the status change of every attempt does not rewrite it (cancel, recover, delete).
  yield* sql`CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (api_key, endpoint_id)`

  yield* sql`CREATE TABLE webhook_attempts (
    api_key ${text} NOT NULL,
    id ${text} NOT NULL,
    message_id ${text} NOT NULL,
    endpoint_id ${text} NOT NULL,
    url ${text} NOT NULL,
    attempt_number INTEGER NOT NULL,
    status ${text} NOT NULL,
    response_status_code INTEGER NOT NULL,
    response_body ${text} NOT NULL,
    duration_ms ${bigint} NOT NULL,
    error ${text},
    created_at ${bigint} NOT NULL,
    next_attempt_at ${bigint},
    PRIMARY KEY (api_key, id)
  )`
  yield* sql`CREATE INDEX webhook_attempts_newest ON webhook_attempts (api_key, created_at, id)`

  // A rotated secret keeps signing until previous_secret_until; failing_since starts the 5-day clock.
  yield* sql`ALTER TABLE webhook_endpoints ADD COLUMN previous_secret ${text}`
  yield* sql`ALTER TABLE webhook_endpoints ADD COLUMN previous_secret_until ${bigint}`
  yield* sql`ALTER TABLE webhook_endpoints ADD COLUMN failing_since ${bigint}`
})
