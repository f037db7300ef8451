import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { chunksOf } from "../sql/Chunks.js"
import { allRows, firstRow, ignoreRows, mapRows } from "../sql/MapRows.js"
import { type IntegerColumn, num, strOrNull } from "../sql/Rows.js"
import { type PresenceKey, PresenceRepo, type PresenceRow } from "./PresenceRepo.js"

/** One `presence` row as the drivers return it (column types: sql/Rows.ts). */
interface PresenceSqlRow {
  readonly api_key: string
  readonly organization_id: string
  readonly document_id: string
  readonly user_id: string
  readonly name: string | null
  readonly email: string | null
  readonly status: PresenceRow["status"]
  readonly data: string | null
  readonly held_by: string | null
  readonly updated_at: IntegerColumn
  readonly last_seen_at: IntegerColumn
}

interface PresenceKeySqlRow {
  readonly api_key: string
  readonly organization_id: string
  readonly document_id: string
  readonly user_id: string
}

const toRow = (r: PresenceSqlRow): PresenceRow => ({
  apiKey: r.api_key,
  organizationId: r.organization_id,
  documentId: r.document_id,
  userId: r.user_id,
  name: strOrNull(r.name),
  email: strOrNull(r.email),
  status: r.status,
  data: strOrNull(r.data),
  heldBy: strOrNull(r.held_by),
  updatedAt: num(r.updated_at),
  lastSeenAt: num(r.last_seen_at)
})

const toKey = (r: PresenceKeySqlRow): PresenceKey => ({
  apiKey: r.api_key,
  organizationId: r.organization_id,
  documentId: r.document_id,
  userId: r.user_id
})

/** Users per renewal statement: far below either database's parameter limit. */
const RENEW_CHUNK = 500

/** The entries grouped by document, at most RENEW_CHUNK users a group. */
const byDocument = (entries: ReadonlyArray<PresenceKey>) => {
  const documents = new Map<string, { apiKey: string; organizationId: string; documentId: string; userIds: Array<string> }>()
  for (const { apiKey, documentId, organizationId, userId } of entries) {
    const key = JSON.stringify([apiKey, organizationId, documentId])
    const document = documents.get(key) ?? { apiKey, organizationId, documentId, userIds: [] }
    document.userIds.push(userId)
    documents.set(key, document)
  }
  return [...documents.values()].flatMap((document) => chunksOf(document.userIds, RENEW_CHUNK).map((userIds) => ({ ...document, userIds })))
}

export const SqlPresenceRepo = Layer.effect(
  PresenceRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      find: (apiKey, organizationId, documentId, userId) =>
        sql`SELECT * FROM presence WHERE api_key = ${apiKey} AND organization_id = ${organizationId}
          AND document_id = ${documentId} AND user_id = ${userId}`.pipe(
          firstRow(toRow)
        ),
      put: (p) =>
        sql`INSERT INTO presence ${
          sql.insert({
            api_key: p.apiKey,
            organization_id: p.organizationId,
            document_id: p.documentId,
            user_id: p.userId,
            name: p.name,
            email: p.email,
            status: p.status,
            data: p.data,
            held_by: p.heldBy,
            updated_at: p.updatedAt,
            last_seen_at: p.lastSeenAt
          })
        } ON CONFLICT (api_key, organization_id, document_id, user_id) DO UPDATE SET name = excluded.name,
          email = excluded.email, status = excluded.status, data = excluded.data, held_by = excluded.held_by,
          updated_at = excluded.updated_at, last_seen_at = excluded.last_seen_at`.pipe(ignoreRows),
      delete: (apiKey, organizationId, documentId, userIds) =>
        sql`DELETE FROM presence WHERE ${
          sql.and([
            sql`api_key = ${apiKey}`,
            sql`organization_id = ${organizationId}`,
            sql`document_id = ${documentId}`,
            sql.in("user_id", userIds)
          ])
        } RETURNING user_id`.pipe(mapRows((rows: ReadonlyArray<{ readonly user_id: string }>) => rows.map((row) => row.user_id))),
      release: (key, heldBy) =>
        sql`DELETE FROM presence WHERE api_key = ${key.apiKey} AND organization_id = ${key.organizationId}
          AND document_id = ${key.documentId} AND user_id = ${key.userId} AND held_by = ${heldBy}
          RETURNING user_id`.pipe(mapRows((rows) => rows.length > 0)),
      list: (apiKey, organizationId, documentId, seenSince) =>
        sql`SELECT * FROM presence WHERE api_key = ${apiKey} AND organization_id = ${organizationId}
          AND document_id = ${documentId} AND last_seen_at >= ${seenSince} ORDER BY user_id`.pipe(allRows(toRow)),
      renew: (heldBy, entries, now) =>
        Effect.forEach(byDocument(entries), ({ apiKey, documentId, organizationId, userIds }) =>
          sql`UPDATE presence SET last_seen_at = ${now} WHERE ${
            sql.and([
              sql`api_key = ${apiKey}`,
              sql`organization_id = ${organizationId}`,
              sql`document_id = ${documentId}`,
              sql`held_by = ${heldBy}`,
              sql.in("user_id", userIds)
            ])
          }`.pipe(ignoreRows), { discard: true }),
      sweep: (before) =>
        sql`DELETE FROM presence WHERE last_seen_at < ${before}
          RETURNING api_key, organization_id, document_id, user_id`.pipe(allRows(toKey))
    }
  })
)
