import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { limitRows } from "../sql/Limit.js"
import { allRows, firstRow, ignoreRows, mapRows } from "../sql/MapRows.js"
import { bool, flag, type FlagColumn, fromJson, type IntegerColumn, type JsonColumn, num, strOrNull, toJson } from "../sql/Rows.js"
import { type DocumentRow, DocumentsRepo, type DocumentSummary } from "./DocumentsRepo.js"

/** One `documents` row as the drivers return it (column types: sql/Rows.ts). */
interface DocumentSqlRow {
  readonly api_key: string
  readonly organization_id: string
  readonly id: string
  readonly internal_id: string
  readonly name: string
  readonly folder_id: string | null
  readonly access_type: DocumentRow["accessType"]
  readonly disabled: FlagColumn
  readonly metadata: JsonColumn
  readonly created_at: IntegerColumn
  readonly updated_at: IntegerColumn
}

const toRow = (r: DocumentSqlRow): DocumentRow => ({
  apiKey: r.api_key,
  organizationId: r.organization_id,
  id: r.id,
  internalId: r.internal_id,
  name: r.name,
  folderId: strOrNull(r.folder_id),
  accessType: r.access_type,
  disabled: bool(r.disabled),
  metadata: fromJson(r.metadata, {}),
  createdAt: num(r.created_at),
  updatedAt: num(r.updated_at)
})

const toSummary = (r: Pick<DocumentSqlRow, "id" | "name" | "access_type" | "disabled">): DocumentSummary => ({ id: r.id, name: r.name, accessType: r.access_type, disabled: bool(r.disabled) })

export const SqlDocumentsRepo = Layer.effect(
  DocumentsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const nothing = sql.literal("")
    return {
      insert: (d) =>
        sql`INSERT INTO documents ${
          sql.insert({
            api_key: d.apiKey,
            organization_id: d.organizationId,
            id: d.id,
            internal_id: d.internalId,
            name: d.name,
            folder_id: d.folderId,
            access_type: d.accessType,
            disabled: flag(d.disabled),
            metadata: toJson(d.metadata),
            created_at: d.createdAt,
            updated_at: d.updatedAt
          })
        }`.pipe(ignoreRows),
      update: (d) =>
        sql`UPDATE documents SET name = ${d.name}, folder_id = ${d.folderId}, access_type = ${d.accessType},
          disabled = ${flag(d.disabled)}, metadata = ${toJson(d.metadata)}, updated_at = ${d.updatedAt}
          WHERE api_key = ${d.apiKey} AND organization_id = ${d.organizationId} AND id = ${d.id}`
          .pipe(ignoreRows),
      find: (apiKey, organizationId, id) =>
        sql`SELECT * FROM documents WHERE api_key = ${apiKey} AND organization_id = ${organizationId} AND id = ${id}`.pipe(
          firstRow(toRow)
        ),
      // One template with optional conditions: documents/get's hot path builds few statement objects.
      list: (apiKey, organizationId, { after, folderId, ids, limit }) =>
        sql`SELECT id, name, access_type, disabled FROM documents WHERE api_key = ${apiKey} AND organization_id = ${organizationId}${
          ids ? sql` AND ${sql.in("id", ids)}` : nothing // no ids: 1=0
        }${folderId !== undefined ? sql` AND folder_id = ${folderId}` : nothing}${after !== undefined ? sql` AND id > ${after}` : nothing} ORDER BY id ${
          limitRows(sql, limit)
        }`.pipe(allRows(toSummary)),
      delete: (apiKey, organizationId, id) =>
        sql`DELETE FROM documents WHERE api_key = ${apiKey} AND organization_id = ${organizationId} AND id = ${id} RETURNING id`
          .pipe(mapRows((rows) => rows.length > 0)),
      setAccessType: (apiKey, organizationId, id, accessType, now) =>
        sql`UPDATE documents SET access_type = ${accessType}, inherit_access = ${flag(false)}, updated_at = ${now}
          WHERE api_key = ${apiKey} AND organization_id = ${organizationId} AND id = ${id} RETURNING id`
          .pipe(mapRows((rows) => rows.length > 0)),
      setDisabled: (apiKey, organizationId, id, disabled, now) =>
        sql`UPDATE documents SET disabled = ${flag(disabled)}, updated_at = ${now}
          WHERE api_key = ${apiKey} AND organization_id = ${organizationId} AND id = ${id} RETURNING id`
          .pipe(mapRows((rows) => rows.length > 0))
    }
  })
)
