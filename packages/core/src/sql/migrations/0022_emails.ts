import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { columnTypes } from "./ColumnTypes.js"

/**
 * Email (docs/notifications.md, "Email"). `email_items`: a notification one user is to be mailed,
 * written in the transaction of the change that made it, waiting for its delay and its digest
 * (`next_check_at`: when to look at it again); gone once mailed or dropped. `outgoing_emails`: a
 * composed email (one notification, or a digest of several) until SMTP took it, claimed by one
 * server at a time (`lease_owner`, `lease_until`), tried again on failure (`next_attempt_at`);
 * one that failed for good stays with `status` 'failed' and its error.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const { bigint, text } = columnTypes(sql)
  yield* sql`CREATE TABLE email_items (
    api_key ${text} NOT NULL,
    organization_id ${text} NOT NULL,
    notification_id ${text} NOT NULL,
    user_id ${text} NOT NULL,
    document_id ${text} NOT NULL,
    created_at ${bigint} NOT NULL,
    due_at ${bigint} NOT NULL,
    next_check_at ${bigint} NOT NULL,
    PRIMARY KEY (api_key, organization_id, notification_id, user_id)
  )`
  yield* sql`CREATE INDEX email_items_check ON email_items (next_check_at)`
  yield* sql`CREATE INDEX email_items_user ON email_items (api_key, user_id)`
  yield* sql`CREATE TABLE outgoing_emails (
    api_key ${text} NOT NULL,
    id ${text} NOT NULL,
    organization_id ${text} NOT NULL,
    user_id ${text} NOT NULL,
    mail ${text} NOT NULL,
    notification_ids ${text} NOT NULL,
    status ${text} NOT NULL,
    attempts INTEGER NOT NULL,
    next_attempt_at ${bigint} NOT NULL,
    lease_owner ${text},
    lease_until ${bigint},
    last_error ${text},
    created_at ${bigint} NOT NULL,
    PRIMARY KEY (api_key, id)
  )`
  yield* sql`CREATE INDEX outgoing_emails_due ON outgoing_emails (status, next_attempt_at)`
  yield* sql`CREATE INDEX outgoing_emails_user ON outgoing_emails (api_key, user_id)`
})
