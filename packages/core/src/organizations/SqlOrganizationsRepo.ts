import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { limitRows } from "../sql/Limit.js"
import { allRows, firstRow, ignoreRows, mapRows } from "../sql/MapRows.js"
import { bool, flag, type FlagColumn, fromJson, type IntegerColumn, type JsonColumn, num, toJson } from "../sql/Rows.js"
import { type OrganizationRow, OrganizationsRepo } from "./OrganizationsRepo.js"

/** One `organizations` row as the drivers return it (column types: sql/Rows.ts). */
interface OrganizationSqlRow {
  readonly api_key: string
  readonly id: string
  readonly name: string
  readonly disabled: FlagColumn
  readonly metadata: JsonColumn
  readonly created_at: IntegerColumn
  readonly updated_at: IntegerColumn
}

const toRow = (r: OrganizationSqlRow): OrganizationRow => ({
  apiKey: r.api_key,
  id: r.id,
  name: r.name,
  disabled: bool(r.disabled),
  metadata: fromJson(r.metadata, {}),
  createdAt: num(r.created_at),
  updatedAt: num(r.updated_at)
})

export const SqlOrganizationsRepo = Layer.effect(
  OrganizationsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      upsert: (o) =>
        sql`INSERT INTO organizations ${
          sql.insert({
            api_key: o.apiKey,
            id: o.id,
            name: o.name,
            disabled: flag(o.disabled),
            metadata: toJson(o.metadata),
            created_at: o.createdAt,
            updated_at: o.updatedAt
          })
        } ON CONFLICT (api_key, id) DO UPDATE SET name = excluded.name, metadata = excluded.metadata, updated_at = excluded.updated_at`
          .pipe(ignoreRows),
      ensure: (apiKey, id, now) =>
        sql`INSERT INTO organizations ${
          sql.insert({ api_key: apiKey, id, name: "", disabled: 0, metadata: "{}", created_at: now, updated_at: now })
        } ON CONFLICT (api_key, id) DO NOTHING`.pipe(ignoreRows),
      find: (apiKey, id) =>
        sql`SELECT * FROM organizations WHERE api_key = ${apiKey} AND id = ${id}`.pipe(
          firstRow(toRow)
        ),
      isDisabled: (apiKey, id) =>
        sql`SELECT disabled FROM organizations WHERE api_key = ${apiKey} AND id = ${id}`.pipe(
          firstRow((row: Pick<OrganizationSqlRow, "disabled">) => bool(row.disabled))
        ),
      setDisabled: (apiKey, id, disabled, now) =>
        sql`UPDATE organizations SET disabled = ${flag(disabled)}, updated_at = ${now} WHERE api_key = ${apiKey} AND id = ${id} RETURNING id`
          .pipe(mapRows((rows) => rows.length > 0)),
      list: (apiKey, { after, ids, limit }) =>
        sql`SELECT * FROM organizations WHERE ${
          sql.and([
            sql`api_key = ${apiKey}`,
            ...(ids ? [sql.in("id", ids)] : []),
            ...(after !== undefined ? [sql`id > ${after}`] : [])
          ])
        } ORDER BY id ${limitRows(sql, limit)}`.pipe(allRows(toRow)),
      delete: (apiKey, id) =>
        sql`DELETE FROM organizations WHERE api_key = ${apiKey} AND id = ${id} RETURNING id`.pipe(
          mapRows((rows) => rows.length > 0)
        )
    }
  })
)
