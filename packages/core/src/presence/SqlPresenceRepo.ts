import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { allRows, firstRow, ignoreRows } from "../sql/MapRows.js"
import { type IntegerColumn, num, strOrNull } from "../sql/Rows.js"
import { PresenceRepo, type PresenceRow } from "./PresenceRepo.js"

/** One `presence` row as the drivers return it (column types: sql/Rows.ts). */
interface PresenceSqlRow {
  readonly api_key: string
  readonly organization_id: string
  readonly document_id: string
  readonly user_id: string
  readonly name: string | null
  readonly email: string | null
  readonly status: PresenceRow["status"]
  readonly updated_at: IntegerColumn
}

const toRow = (r: PresenceSqlRow): PresenceRow => ({
  apiKey: r.api_key,
  organizationId: r.organization_id,
  documentId: r.document_id,
  userId: r.user_id,
  name: strOrNull(r.name),
  email: strOrNull(r.email),
  status: r.status,
  updatedAt: num(r.updated_at)
})

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
            updated_at: p.updatedAt
          })
        } ON CONFLICT (api_key, organization_id, document_id, user_id) DO UPDATE SET name = excluded.name,
          email = excluded.email, status = excluded.status, updated_at = excluded.updated_at`.pipe(ignoreRows),
      delete: (apiKey, organizationId, documentId, userIds) =>
        sql`DELETE FROM presence WHERE ${
          sql.and([
            sql`api_key = ${apiKey}`,
            sql`organization_id = ${organizationId}`,
            sql`document_id = ${documentId}`,
            sql.in("user_id", userIds)
          ])
        }`.pipe(ignoreRows),
      list: (apiKey, organizationId, documentId) =>
        sql`SELECT * FROM presence WHERE api_key = ${apiKey} AND organization_id = ${organizationId}
          AND document_id = ${documentId} ORDER BY user_id`.pipe(allRows(toRow))
    }
  })
)
