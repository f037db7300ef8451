import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { chunksOf } from "../sql/Chunks.js"
import { limitRows } from "../sql/Limit.js"
import { allRows, firstRow, ignoreRows } from "../sql/MapRows.js"
import { inEnabledOrganization } from "../organizations/SqlEnabledOrganizations.js"
import { fromJson, type IntegerColumn, type JsonColumn, num, strOrNull, toJson } from "../sql/Rows.js"
import { OutboxRepo, type MessageRow } from "./OutboxRepo.js"

/** One `webhook_messages` row as the drivers return it (column types: sql/Rows.ts). */
interface MessageSqlRow {
  readonly api_key: string
  readonly id: string
  readonly event_type: string
  readonly channels: JsonColumn
  readonly organization_id: string | null
  readonly payload: JsonColumn
  readonly event_id: string | null
  readonly created_at: IntegerColumn
}

const toRow = (r: MessageSqlRow): MessageRow => ({
  apiKey: r.api_key,
  id: r.id,
  eventType: r.event_type,
  channels: fromJson(r.channels, []),
  organizationId: strOrNull(r.organization_id),
  payload: fromJson(r.payload, {}),
  eventId: r.event_id,
  createdAt: num(r.created_at)
})

/** Rows of one INSERT into webhook_deliveries: 10 parameters each, well under every dialect's limit. */
const DELIVERIES_PER_STATEMENT = 1000

export const SqlOutboxRepo = Layer.effect(
  OutboxRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // Exact and case-sensitive on both dialects: the JSON array holds the channel.
    const holdsChannel = (channel: string) =>
      sql.onDialectOrElse({
        pg: () => sql`channels::jsonb @> ${toJson([channel])}::jsonb`,
        orElse: () => sql`EXISTS (SELECT 1 FROM json_each(channels) WHERE value = ${channel})`
      })
    return {
      // The unique index on (api_key, event_id) decides an eventId race: the loser inserts nothing.
      insertMessages: (rows) =>
        rows.length === 0 ? Effect.succeed([]) : sql`INSERT INTO webhook_messages ${
          sql.insert(rows.map((m) => ({
            api_key: m.apiKey,
            id: m.id,
            event_type: m.eventType,
            channels: toJson(m.channels),
            organization_id: m.organizationId,
            payload: toJson(m.payload),
            event_id: m.eventId,
            created_at: m.createdAt
          })))
        } ON CONFLICT DO NOTHING RETURNING id`.pipe(allRows((row: { readonly id: string }) => row.id)),
      // A call's events times the key's endpoints can pass SQLite's 32,766 parameters (3,277 rows of 10).
      insertDeliveries: (rows) =>
        Effect.forEach(chunksOf(rows, DELIVERIES_PER_STATEMENT), (chunk) =>
          sql`INSERT INTO webhook_deliveries ${
          sql.insert(chunk.map((d) => ({
            api_key: d.apiKey,
            message_id: d.messageId,
            endpoint_id: d.endpointId,
            status: "pending",
            attempts: 0,
            max_attempts: d.maxAttempts,
            next_attempt_at: d.nextAttemptAt,
            lease_owner: null,
            created_at: d.createdAt,
            updated_at: d.createdAt
          })))
        }`.pipe(ignoreRows), { discard: true }),
      findMessage: (apiKey, id) =>
        sql`SELECT * FROM webhook_messages WHERE api_key = ${apiKey} AND id = ${id}`.pipe(firstRow(toRow)),
      findByEventId: (apiKey, eventId) =>
        sql`SELECT * FROM webhook_messages WHERE api_key = ${apiKey} AND event_id = ${eventId}`.pipe(firstRow(toRow)),
      forgetEventId: (apiKey, messageId) =>
        sql`UPDATE webhook_messages SET event_id = NULL WHERE api_key = ${apiKey} AND id = ${messageId}`.pipe(ignoreRows),
      listMessages: (apiKey, filters, { before, limit }) =>
        sql`SELECT * FROM webhook_messages WHERE ${
          sql.and([
            sql`api_key = ${apiKey}`,
            inEnabledOrganization(sql, "webhook_messages", apiKey),
            ...(filters.messageId !== undefined ? [sql`id = ${filters.messageId}`] : []),
            ...(filters.eventType !== undefined ? [sql`event_type = ${filters.eventType}`] : []),
            ...(filters.channel !== undefined ? [holdsChannel(filters.channel)] : []),
            ...(before !== undefined
              ? [sql`(created_at < ${before.createdAt} OR (created_at = ${before.createdAt} AND id < ${before.id}))`]
              : [])
          ])
        } ORDER BY created_at DESC, id DESC ${limitRows(sql, limit)}`.pipe(allRows(toRow))
    }
  })
)
