import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { allRows, firstRow, ignoreRows } from "../sql/MapRows.js"
import { bool, flag, type FlagColumn, fromJson, type IntegerColumn, type JsonColumn, num, toJson } from "../sql/Rows.js"
import { compareText } from "../TextOrder.js"
import { type FolderRow, FoldersRepo } from "./FoldersRepo.js"

/** Parent ids per query: stays far below every driver's bound-parameter limit. */
const PARENTS_PER_QUERY = 500

/** One `folders` row as the drivers return it (column types: sql/Rows.ts). */
interface FolderSqlRow {
  readonly api_key: string
  readonly organization_id: string
  readonly id: string
  readonly name: string
  readonly parent_folder_id: string
  readonly ancestors: JsonColumn
  readonly access_type: FolderRow["accessType"]
  readonly inherit_access: FlagColumn
  readonly created_at: IntegerColumn
  readonly last_updated: IntegerColumn
}

const toRow = (r: FolderSqlRow): FolderRow => ({
  apiKey: r.api_key,
  organizationId: r.organization_id,
  id: r.id,
  name: r.name,
  parentFolderId: r.parent_folder_id,
  ancestors: fromJson(r.ancestors, []),
  accessType: r.access_type,
  inheritAccessFromParent: bool(r.inherit_access),
  createdAt: num(r.created_at),
  lastUpdated: num(r.last_updated)
})

export const SqlFoldersRepo = Layer.effect(
  FoldersRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      insert: (f) =>
        sql`INSERT INTO folders ${
          sql.insert({
            api_key: f.apiKey,
            organization_id: f.organizationId,
            id: f.id,
            name: f.name,
            parent_folder_id: f.parentFolderId,
            ancestors: toJson(f.ancestors),
            access_type: f.accessType,
            inherit_access: flag(f.inheritAccessFromParent),
            created_at: f.createdAt,
            last_updated: f.lastUpdated
          })
        }`.pipe(ignoreRows),
      setAccess: (apiKey, organizationId, id, access, now) =>
        sql`UPDATE folders SET access_type = ${access.accessType}, inherit_access = ${flag(access.inheritAccessFromParent)}, last_updated = ${now}
          WHERE api_key = ${apiKey} AND organization_id = ${organizationId} AND id = ${id}`.pipe(ignoreRows),
      setPlace: (apiKey, organizationId, id, place, now) =>
        sql`UPDATE folders SET name = ${place.name}, parent_folder_id = ${place.parentFolderId}, ancestors = ${toJson(place.ancestors)}, last_updated = ${now}
          WHERE api_key = ${apiKey} AND organization_id = ${organizationId} AND id = ${id}`.pipe(ignoreRows),
      find: (apiKey, organizationId, id) =>
        sql`SELECT * FROM folders WHERE api_key = ${apiKey} AND organization_id = ${organizationId} AND id = ${id}`.pipe(
          firstRow(toRow)
        ),
      listByOrganization: (apiKey, organizationId) =>
        sql`SELECT * FROM folders WHERE api_key = ${apiKey} AND organization_id = ${organizationId} ORDER BY id`.pipe(
          allRows(toRow)
        ),
      listChildren: (apiKey, organizationId, parentIds) =>
        Effect.forEach(
          chunks(parentIds, PARENTS_PER_QUERY),
          (parents) =>
            sql<FolderSqlRow>`SELECT * FROM folders WHERE ${
              sql.and([sql`api_key = ${apiKey}`, sql`organization_id = ${organizationId}`, sql.in("parent_folder_id", parents)])
            }`
        ).pipe(
          Effect.map((batches) => batches.flat().map(toRow).sort((a, b) => compareText(a.id, b.id))),
          Effect.orDie
        )
    }
  })
)

const chunks = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size))
