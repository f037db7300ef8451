import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { columnTypes } from "./ColumnTypes.js"

/**
 * Notifications (docs/notifications.md): one row per notification, and one per user who has a
 * state in it.
 *
 * - `notifications`: the notification, its document and location (filters), the thread it is
 *   about (`annotation_id`, for the visibility rule at read time), whether it is for every user
 *   of the organization (`to_all`, notifications/add's `notifyAll`), and the rest as JSON.
 * - `notification_recipients`: per user, whether it is addressed to them (`involved`: their
 *   "for you" view), when they read it (`read_at`), whether it stays in "for you" once read
 *   (`persist_read`) and when they deleted it from their inbox (`deleted_at`). A user who reads
 *   or deletes a notification not addressed to them ("all" view, `to_all`) gets a row then,
 *   with `involved` 0.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const { bigint, text } = columnTypes(sql)
  yield* sql`CREATE TABLE notifications (
    api_key ${text} NOT NULL,
    organization_id ${text} NOT NULL,
    id ${text} NOT NULL,
    document_id ${text} NOT NULL,
    location_id ${text},
    annotation_id ${text},
    to_all INTEGER NOT NULL,
    created_at ${bigint} NOT NULL,
    record ${text} NOT NULL,
    PRIMARY KEY (api_key, organization_id, id)
  )`
  yield* sql`CREATE INDEX notifications_by_time ON notifications (api_key, organization_id, created_at, id)`
  yield* sql`CREATE INDEX notifications_by_document ON notifications (api_key, organization_id, document_id, created_at, id)`
  yield* sql`CREATE TABLE notification_recipients (
    api_key ${text} NOT NULL,
    organization_id ${text} NOT NULL,
    user_id ${text} NOT NULL,
    notification_id ${text} NOT NULL,
    created_at ${bigint} NOT NULL,
    involved INTEGER NOT NULL,
    read_at ${bigint},
    persist_read INTEGER NOT NULL,
    deleted_at ${bigint},
    PRIMARY KEY (api_key, organization_id, user_id, notification_id)
  )`
  yield* sql`CREATE INDEX notification_recipients_by_time ON notification_recipients (api_key, organization_id, user_id, created_at, notification_id)`
  yield* sql`CREATE INDEX notification_recipients_by_notification ON notification_recipients (api_key, organization_id, notification_id)`
})
