import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { chunksOf } from "../sql/Chunks.js"
import { limitRows } from "../sql/Limit.js"
import { allRows, ignoreRows, mapRows } from "../sql/MapRows.js"
import { fromJson, type IntegerColumn, type JsonColumn, num, toJson } from "../sql/Rows.js"
import { type EmailItem, EmailsRepo, type OutgoingEmail, type Recipient } from "./EmailsRepo.js"

interface ItemSqlRow {
  readonly api_key: string
  readonly organization_id: string
  readonly notification_id: string
  readonly user_id: string
  readonly document_id: string
  readonly created_at: IntegerColumn
  readonly due_at: IntegerColumn
  readonly next_check_at: IntegerColumn
}

interface OutgoingSqlRow {
  readonly api_key: string
  readonly id: string
  readonly organization_id: string
  readonly user_id: string
  readonly mail: JsonColumn
  readonly notification_ids: JsonColumn
  readonly attempts: IntegerColumn
  readonly next_attempt_at: IntegerColumn
  readonly last_error: string | null
  readonly created_at: IntegerColumn
}

const toItem = (r: ItemSqlRow): EmailItem => ({
  apiKey: r.api_key,
  organizationId: r.organization_id,
  notificationId: r.notification_id,
  userId: r.user_id,
  documentId: r.document_id,
  createdAt: num(r.created_at),
  dueAt: num(r.due_at),
  nextCheckAt: num(r.next_check_at)
})

const toOutgoing = (r: OutgoingSqlRow): OutgoingEmail => ({
  apiKey: r.api_key,
  id: r.id,
  organizationId: r.organization_id,
  userId: r.user_id,
  mail: fromJson(r.mail, { to: "", subject: "", text: "" }),
  notificationIds: fromJson(r.notification_ids, []),
  attempts: num(r.attempts),
  nextAttemptAt: num(r.next_attempt_at),
  createdAt: num(r.created_at)
})

/** Items named in one statement at most: two parameters each. */
const ITEMS_PER_STATEMENT = 500

export const SqlEmailsRepo = Layer.effect(
  EmailsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const ofRecipient = (recipient: Recipient, items: ReadonlyArray<Pick<EmailItem, "organizationId" | "notificationId">>) =>
      sql.and([
        sql`api_key = ${recipient.apiKey}`,
        sql`user_id = ${recipient.userId}`,
        sql.or(items.map((item) => sql`(organization_id = ${item.organizationId} AND notification_id = ${item.notificationId})`))
      ])
    return {
      insertItems: (items) =>
        Effect.forEach(chunksOf(items, ITEMS_PER_STATEMENT / 4), (chunk) =>
          sql`INSERT INTO email_items ${
            sql.insert(chunk.map((item) => ({
              api_key: item.apiKey,
              organization_id: item.organizationId,
              notification_id: item.notificationId,
              user_id: item.userId,
              document_id: item.documentId,
              created_at: item.createdAt,
              due_at: item.dueAt,
              next_check_at: item.nextCheckAt
            })))
          } ON CONFLICT DO NOTHING`.pipe(ignoreRows), { discard: true }),
      recipientsToCheck: (now, limit) =>
        sql`SELECT DISTINCT api_key, user_id FROM email_items WHERE next_check_at <= ${now} ${limitRows(sql, limit)}`.pipe(
          allRows((r: { readonly api_key: string; readonly user_id: string }): Recipient => ({ apiKey: r.api_key, userId: r.user_id }))
        ),
      itemsOf: (recipient) =>
        sql`SELECT * FROM email_items WHERE api_key = ${recipient.apiKey} AND user_id = ${recipient.userId}
            ORDER BY due_at, organization_id, notification_id`.pipe(allRows(toItem)),
      deleteItems: (recipient, items) =>
        Effect.forEach(chunksOf(items, ITEMS_PER_STATEMENT), (chunk) =>
          sql`DELETE FROM email_items WHERE ${ofRecipient(recipient, chunk)}`.pipe(ignoreRows), { discard: true }),
      recheckItems: (recipient, items, at) =>
        Effect.forEach(chunksOf(items, ITEMS_PER_STATEMENT), (chunk) =>
          sql`UPDATE email_items SET next_check_at = ${at} WHERE ${ofRecipient(recipient, chunk)}`.pipe(ignoreRows), { discard: true }),
      insertOutgoing: (email) =>
        sql`INSERT INTO outgoing_emails ${
          sql.insert({
            api_key: email.apiKey,
            id: email.id,
            organization_id: email.organizationId,
            user_id: email.userId,
            mail: toJson(email.mail),
            notification_ids: toJson(email.notificationIds),
            status: "pending",
            attempts: email.attempts,
            next_attempt_at: email.nextAttemptAt,
            lease_owner: null,
            lease_until: null,
            last_error: null,
            created_at: email.createdAt
          })
        }`.pipe(ignoreRows),
      // The conditions are read again once a row is ours to write (PostgreSQL re-checks them after
      // waiting for a racing UPDATE): of servers racing for one email, one gets it back.
      claimOutgoing: (owner, now, leaseUntil, limit) => {
        const claimable = sql`status = 'pending' AND next_attempt_at <= ${now} AND (lease_until IS NULL OR lease_until < ${now})`
        return sql`UPDATE outgoing_emails SET lease_owner = ${owner}, lease_until = ${leaseUntil}
            WHERE ${claimable} AND (api_key, id) IN (
              SELECT api_key, id FROM outgoing_emails WHERE ${claimable} ORDER BY next_attempt_at, api_key, id ${limitRows(sql, limit)})
            RETURNING *`.pipe(allRows(toOutgoing))
      },
      sentOutgoing: (owner, emails) =>
        Effect.forEach(chunksOf(emails, ITEMS_PER_STATEMENT), (chunk) =>
          sql`DELETE FROM outgoing_emails WHERE lease_owner = ${owner} AND ${
            sql.or(chunk.map((email) => sql`(api_key = ${email.apiKey} AND id = ${email.id})`))
          }`.pipe(ignoreRows), { discard: true }),
      failedOutgoing: (apiKey, id, owner, error, nextAttemptAt) =>
        sql`UPDATE outgoing_emails SET
              attempts = attempts + 1,
              status = ${nextAttemptAt === undefined ? "failed" : "pending"},
              next_attempt_at = ${nextAttemptAt ?? 0},
              last_error = ${error},
              lease_owner = NULL,
              lease_until = NULL
            WHERE api_key = ${apiKey} AND id = ${id} AND lease_owner = ${owner}`.pipe(ignoreRows),
      releaseAll: (owner) =>
        sql`UPDATE outgoing_emails SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ${owner} RETURNING id`.pipe(
          mapRows((rows) => rows.length)
        ),
      failedEmails: (apiKey, limit) =>
        sql`SELECT * FROM outgoing_emails WHERE api_key = ${apiKey} AND status = 'failed'
            ORDER BY created_at DESC, id DESC ${limitRows(sql, limit)}`.pipe(
          allRows((r: OutgoingSqlRow) => ({ ...toOutgoing(r), lastError: r.last_error ?? "" }))
        )
    }
  })
)
