import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { chunksOf } from "../sql/Chunks.js"
import { limitRows } from "../sql/Limit.js"
import { allRows, ignoreRows, mapRows } from "../sql/MapRows.js"
import { bool, flag, type FlagColumn, type IntegerColumn, type JsonColumn, num, numOrNull, strOrNull, toJson } from "../sql/Rows.js"
import {
  type NotificationFilters,
  type NotificationRecord,
  type NotificationRow,
  NotificationsRepo,
  type PageOptions,
  type UserNotification
} from "./NotificationsRepo.js"

/** Ids one statement names at most. */
const IDS_PER_STATEMENT = 500

interface NotificationSqlRow {
  readonly api_key: string
  readonly organization_id: string
  readonly id: string
  readonly document_id: string
  readonly location_id: string | null
  readonly annotation_id: string | null
  readonly to_all: FlagColumn
  readonly created_at: IntegerColumn
  readonly record: JsonColumn
}

/** A notification row joined with one user's state (the r_ columns are null without one). */
interface UserNotificationSqlRow extends NotificationSqlRow {
  readonly r_user_id: string | null
  readonly r_involved: FlagColumn | null
  readonly r_read_at: IntegerColumn | null
  readonly r_persist_read: FlagColumn | null
  readonly r_deleted_at: IntegerColumn | null
}

const toRow = (r: NotificationSqlRow): NotificationRow => ({
  apiKey: r.api_key,
  organizationId: r.organization_id,
  id: r.id,
  documentId: r.document_id,
  locationId: strOrNull(r.location_id),
  annotationId: strOrNull(r.annotation_id),
  toAll: bool(r.to_all),
  createdAt: num(r.created_at),
  record: JSON.parse(r.record) as NotificationRecord
})

const toUserNotification = (r: UserNotificationSqlRow): UserNotification => ({
  row: toRow(r),
  state: r.r_user_id === null ? undefined : {
    involved: bool(r.r_involved),
    readAt: numOrNull(r.r_read_at),
    persistRead: bool(r.r_persist_read),
    deletedAt: numOrNull(r.r_deleted_at)
  }
})

export const SqlNotificationsRepo = Layer.effect(
  NotificationsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const conditions = (apiKey: string, organizationId: string, f: NotificationFilters, { after, order }: PageOptions) => [
      sql`n.api_key = ${apiKey}`,
      sql`n.organization_id = ${organizationId}`,
      ...(f.documentId !== undefined ? [sql`n.document_id = ${f.documentId}`] : []),
      ...(f.locationId !== undefined ? [sql`n.location_id = ${f.locationId}`] : []),
      ...(f.ids !== undefined ? [sql`n.id IN ${sql.in(f.ids)}`] : []),
      ...(after === undefined ? [] : order === "asc"
        ? [sql`(n.created_at > ${after.createdAt} OR (n.created_at = ${after.createdAt} AND n.id > ${after.id}))`]
        : [sql`(n.created_at < ${after.createdAt} OR (n.created_at = ${after.createdAt} AND n.id < ${after.id}))`])
    ]
    const ordered = ({ limit, order }: PageOptions) => {
      const direction = sql.literal(order === "asc" ? "ASC" : "DESC")
      return sql`ORDER BY n.created_at ${direction}, n.id ${direction} ${limitRows(sql, limit)}`
    }

    return {
      insert: (row, recipients) =>
        Effect.gen(function*() {
          const inserted = yield* sql`INSERT INTO notifications ${
            sql.insert({
              api_key: row.apiKey,
              organization_id: row.organizationId,
              id: row.id,
              document_id: row.documentId,
              location_id: row.locationId,
              annotation_id: row.annotationId,
              to_all: flag(row.toAll),
              created_at: row.createdAt,
              record: toJson(row.record)
            })
          } ON CONFLICT (api_key, organization_id, id) DO NOTHING RETURNING id`.pipe(mapRows((rows) => rows.length > 0))
          if (!inserted) return false
          for (const users of chunksOf([...new Set(recipients)], IDS_PER_STATEMENT)) {
            yield* sql`INSERT INTO notification_recipients ${
              sql.insert(users.map((userId) => ({
                api_key: row.apiKey,
                organization_id: row.organizationId,
                user_id: userId,
                notification_id: row.id,
                created_at: row.createdAt,
                involved: 1,
                read_at: null,
                persist_read: 0,
                deleted_at: null
              })))
            }`.pipe(ignoreRows)
          }
          return true
        }),
      updateRecord: (apiKey, organizationId, id, record) =>
        sql`UPDATE notifications SET record = ${toJson(record)}
          WHERE api_key = ${apiKey} AND organization_id = ${organizationId} AND id = ${id}`.pipe(ignoreRows),
      page: (apiKey, organizationId, filters, options) =>
        sql`SELECT n.* FROM notifications n WHERE ${sql.and(conditions(apiKey, organizationId, filters, options))} ${ordered(options)}`.pipe(
          allRows(toRow)
        ),
      pageFor: (apiKey, organizationId, userId, view, filters, options) => {
        const addressed = sql`(r.involved = 1 OR n.to_all = 1)`
        const byView = view === "all" ? [] : view === "forYou"
          ? [addressed, sql`(r.read_at IS NULL OR r.persist_read = 1)`]
          : [addressed, sql`r.read_at IS NULL`]
        return sql`SELECT n.*, r.user_id AS r_user_id, r.involved AS r_involved, r.read_at AS r_read_at,
            r.persist_read AS r_persist_read, r.deleted_at AS r_deleted_at
          FROM notifications n LEFT JOIN notification_recipients r
            ON r.api_key = n.api_key AND r.organization_id = n.organization_id AND r.notification_id = n.id AND r.user_id = ${userId}
          WHERE ${sql.and([...conditions(apiKey, organizationId, filters, options), sql`r.deleted_at IS NULL`, ...byView])}
          ${ordered(options)}`.pipe(allRows(toUserNotification))
      },
      markRead: (apiKey, organizationId, userIds, ids, readAt, persistRead) =>
        Effect.forEach(chunksOf(ids, IDS_PER_STATEMENT), (chunk) =>
          Effect.forEach(userIds, (userId) =>
            // A state for each user, made from the notification (its time) where there is none yet.
            sql`INSERT INTO notification_recipients
                (api_key, organization_id, user_id, notification_id, created_at, involved, read_at, persist_read, deleted_at)
              SELECT n.api_key, n.organization_id, ${userId}, n.id, n.created_at, 0, ${readAt}, ${flag(persistRead)}, NULL
              FROM notifications n WHERE n.api_key = ${apiKey} AND n.organization_id = ${organizationId} AND ${sql`n.id IN ${sql.in(chunk)}`}
              ON CONFLICT (api_key, organization_id, user_id, notification_id) DO UPDATE SET
                read_at = COALESCE(notification_recipients.read_at, excluded.read_at),
                persist_read = CASE WHEN excluded.persist_read = 1 THEN 1 ELSE notification_recipients.persist_read END`.pipe(ignoreRows),
            { discard: true }), { discard: true }),
      markDeleted: (apiKey, organizationId, userId, ids, at) =>
        Effect.forEach(chunksOf(ids, IDS_PER_STATEMENT), (chunk) =>
          sql`INSERT INTO notification_recipients
              (api_key, organization_id, user_id, notification_id, created_at, involved, read_at, persist_read, deleted_at)
            SELECT n.api_key, n.organization_id, ${userId}, n.id, n.created_at, 0, NULL, 0, ${at}
            FROM notifications n WHERE n.api_key = ${apiKey} AND n.organization_id = ${organizationId} AND ${sql`n.id IN ${sql.in(chunk)}`}
            ON CONFLICT (api_key, organization_id, user_id, notification_id) DO UPDATE SET
              deleted_at = COALESCE(notification_recipients.deleted_at, excluded.deleted_at)`.pipe(ignoreRows), { discard: true }),
      delete: (apiKey, organizationId, ids) =>
        Effect.forEach(chunksOf(ids, IDS_PER_STATEMENT), (chunk) =>
          Effect.zipRight(
            sql`DELETE FROM notification_recipients WHERE api_key = ${apiKey} AND organization_id = ${organizationId}
              AND ${sql.in("notification_id", chunk)}`.pipe(ignoreRows),
            sql`DELETE FROM notifications WHERE api_key = ${apiKey} AND organization_id = ${organizationId} AND ${sql.in("id", chunk)}`.pipe(ignoreRows)
          ), { discard: true })
    }
  })
)
