import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { allRows, ignoreRows, mapRows } from "../sql/MapRows.js"
import { type IntegerColumn, num, toJson } from "../sql/Rows.js"
import { type DocumentRef, type LoggedEvent, RealtimeLogRepo } from "./RealtimeLogRepo.js"

interface EventSqlRow {
  readonly seq: IntegerColumn
  readonly event_type: string
  readonly payload: string
  readonly at: IntegerColumn
}

const toEvent = (r: EventSqlRow): LoggedEvent => ({ seq: num(r.seq), type: r.event_type, payloadJson: r.payload, at: num(r.at) })

/** Rows one INSERT writes at most: SQLite binds at most 32,766 parameters, seven a row here. */
const INSERT_CHUNK = 1000

export const SqlRealtimeLogRepo = Layer.effect(
  RealtimeLogRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const where = (d: DocumentRef) => sql`api_key = ${d.apiKey} AND organization_id = ${d.organizationId} AND document_id = ${d.documentId}`
    const lastSeq = (document: DocumentRef) =>
      sql`SELECT seq FROM realtime_documents WHERE ${where(document)}`.pipe(
        mapRows((rows: ReadonlyArray<{ seq: IntegerColumn }>) => rows.length === 0 ? 0 : num(rows[0]!.seq))
      )
    return {
      append: (document, events, at) =>
        Effect.gen(function*() {
          if (events.length === 0) return yield* lastSeq(document)
          // The row's update is what orders the document's writers (its lock is held until commit).
          const last = yield* sql`INSERT INTO realtime_documents ${
            sql.insert({ api_key: document.apiKey, organization_id: document.organizationId, document_id: document.documentId, seq: events.length })
          } ON CONFLICT (api_key, organization_id, document_id) DO UPDATE SET seq = realtime_documents.seq + ${events.length}
          RETURNING seq`.pipe(mapRows((rows: ReadonlyArray<{ seq: IntegerColumn }>) => num(rows[0]!.seq)))
          const first = last - events.length + 1
          const rows = events.map((event, i) => ({
            api_key: document.apiKey,
            organization_id: document.organizationId,
            document_id: document.documentId,
            seq: first + i,
            event_type: event.type,
            payload: toJson(event.data),
            at
          }))
          for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
            yield* sql`INSERT INTO realtime_events ${sql.insert(rows.slice(i, i + INSERT_CHUNK))}`.pipe(ignoreRows)
          }
          return last
        }),
      since: (document, afterSeq, limit) =>
        sql`SELECT seq, event_type, payload, at FROM realtime_events WHERE ${where(document)} AND seq > ${afterSeq}
          ORDER BY seq LIMIT ${limit}`.pipe(allRows(toEvent)),
      lastSeq,
      pruneBefore: (at) =>
        sql`DELETE FROM realtime_events WHERE at < ${at} RETURNING seq`.pipe(mapRows((rows) => rows.length)),
      // One statement per key: its run's start is read from the key's other live rows as it is written.
      follow: (serverId, apiKeys, now, expiresAt) =>
        Effect.forEach(apiKeys, (apiKey) =>
          sql`INSERT INTO realtime_followers (server_id, api_key, expires_at, followed_at)
            SELECT ${serverId}, ${apiKey}, ${expiresAt},
              COALESCE((SELECT MIN(followed_at) FROM realtime_followers WHERE api_key = ${apiKey} AND expires_at > ${now}), ${now})
            WHERE 1 = 1
            ON CONFLICT (server_id, api_key) DO UPDATE SET expires_at = excluded.expires_at,
              followed_at = CASE WHEN realtime_followers.expires_at > ${now} THEN realtime_followers.followed_at ELSE excluded.followed_at END`.pipe(ignoreRows), { discard: true }),
      followedSince: (apiKey, now) =>
        sql`SELECT MIN(followed_at) AS since FROM realtime_followers WHERE api_key = ${apiKey} AND expires_at > ${now}`.pipe(
          mapRows((rows: ReadonlyArray<{ since: IntegerColumn | null }>) => rows[0]?.since == null ? undefined : num(rows[0].since))
        ),
      // A read only: it runs inside writers' transactions (Events asks whether a key is followed).
      followedKeys: (now) =>
        sql`SELECT DISTINCT api_key FROM realtime_followers WHERE expires_at > ${now} ORDER BY api_key`.pipe(
          allRows((r: { api_key: string }) => r.api_key)
        ),
      forgetExpiredFollows: (now) => sql`DELETE FROM realtime_followers WHERE expires_at <= ${now}`.pipe(ignoreRows)
    }
  })
)
