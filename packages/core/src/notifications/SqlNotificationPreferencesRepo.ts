import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { chunksOf } from "../sql/Chunks.js"
import { allRows, ignoreRows } from "../sql/MapRows.js"
import { type IntegerColumn, num, strOrNull } from "../sql/Rows.js"
import type { Channel } from "./NotificationPreferenceSchemas.js"
import { type NotificationPreferenceRow, NotificationPreferencesRepo } from "./NotificationPreferencesRepo.js"

/** The organization level is stored as document_id '' (a key column cannot be null); no caller id is empty. */
const ORGANIZATION_LEVEL = ""

/** Rows of one merge statement: 8 parameters each, well under every dialect's limit. */
const PREFERENCES_PER_STATEMENT = 1000

/** Users one list statement names at most (their documents are a few: a call's, an event batch's). */
const USERS_PER_LIST = 1000

/** One `notification_preferences` row as the drivers return it (column types: sql/Rows.ts). */
interface NotificationPreferenceSqlRow {
  readonly api_key: string
  readonly organization_id: string
  readonly user_id: string
  readonly document_id: string
  readonly inbox: string | null
  readonly email: string | null
  readonly slack: string | null
  readonly updated_at: IntegerColumn
}

const toRow = (r: NotificationPreferenceSqlRow): NotificationPreferenceRow => ({
  apiKey: r.api_key,
  organizationId: r.organization_id,
  userId: r.user_id,
  documentId: r.document_id === ORGANIZATION_LEVEL ? null : r.document_id,
  inbox: strOrNull(r.inbox) as Channel | null,
  email: strOrNull(r.email) as Channel | null,
  slack: strOrNull(r.slack) as Channel | null,
  updatedAt: num(r.updated_at)
})

export const SqlNotificationPreferencesRepo = Layer.effect(
  NotificationPreferencesRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      list: (apiKey, organizationId, userIds, documentIds) =>
        Effect.map(
          Effect.forEach(chunksOf(userIds, USERS_PER_LIST), (users) =>
            sql`SELECT * FROM notification_preferences WHERE ${
              sql.and([
                sql`api_key = ${apiKey}`,
                sql`organization_id = ${organizationId}`,
                sql.in("user_id", users),
                sql.in("document_id", [ORGANIZATION_LEVEL, ...documentIds])
              ])
            }`.pipe(allRows(toRow))),
          (chunks) => chunks.flat()
        ),
      put: (r) =>
        sql`INSERT INTO notification_preferences ${
          sql.insert({
            api_key: r.apiKey,
            organization_id: r.organizationId,
            user_id: r.userId,
            document_id: r.documentId ?? ORGANIZATION_LEVEL,
            inbox: r.inbox,
            email: r.email,
            slack: r.slack,
            updated_at: r.updatedAt
          })
        } ON CONFLICT (api_key, organization_id, user_id, document_id) DO UPDATE SET inbox = excluded.inbox,
          email = excluded.email, slack = excluded.slack, updated_at = excluded.updated_at`.pipe(ignoreRows),
      merge: (apiKey, organizationId, userIds, documentIds, channels, updatedAt) =>
        Effect.forEach(
          chunksOf(userIds.flatMap((userId) => documentIds.map((documentId) => [userId, documentId] as const)), PREFERENCES_PER_STATEMENT),
          (pairs) =>
            sql`INSERT INTO notification_preferences ${
              sql.insert(pairs.map(([userId, documentId]) => ({
                api_key: apiKey,
                organization_id: organizationId,
                user_id: userId,
                document_id: documentId ?? ORGANIZATION_LEVEL,
                ...channels,
                updated_at: updatedAt
              })))
            } ON CONFLICT (api_key, organization_id, user_id, document_id) DO UPDATE SET
          inbox = COALESCE(excluded.inbox, notification_preferences.inbox),
          email = COALESCE(excluded.email, notification_preferences.email),
          slack = COALESCE(excluded.slack, notification_preferences.slack),
          updated_at = excluded.updated_at`.pipe(ignoreRows),
          { discard: true }
        ),
      emailAllIn: (apiKey, organizationId, documentId) =>
        sql`SELECT p.user_id FROM notification_preferences p
            WHERE p.api_key = ${apiKey} AND p.organization_id = ${organizationId} AND p.email = 'ALL' AND (
              p.document_id = ${documentId} OR (p.document_id = ${ORGANIZATION_LEVEL} AND NOT EXISTS (
                SELECT 1 FROM notification_preferences d
                WHERE d.api_key = p.api_key AND d.organization_id = p.organization_id AND d.user_id = p.user_id
                  AND d.document_id = ${documentId} AND d.email IS NOT NULL)))
            ORDER BY p.user_id`.pipe(allRows((r: { readonly user_id: string }) => r.user_id))
    }
  })
)
