import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { limitRows } from "../sql/Limit.js"
import { allRows, firstRow, ignoreRows, mapRows } from "../sql/MapRows.js"
import { fromJson, type JsonColumn, toJson } from "../sql/Rows.js"
import { ActivitiesRepo } from "./ActivitiesRepo.js"
import type { Activity } from "./ActivitySchemas.js"

/**
 * The whole record is one JSON column; the filter and order columns beside it
 * are copies, indexed, so a page is one query that never parses JSON in SQL.
 */
/** An activity row as the drivers return it: the activity is kept whole as JSON. */
interface ActivitySqlRow {
  readonly record: JsonColumn
}

const toActivity = (r: ActivitySqlRow): Activity => fromJson<Activity | null>(r.record, null)!

export const SqlActivitiesRepo = Layer.effect(
  ActivitiesRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      put: (a) =>
        sql`INSERT INTO activities ${
          sql.insert({
            api_key: a.metadata.apiKey,
            organization_id: a.metadata.organizationId,
            id: a.id,
            document_id: a.metadata.documentId,
            target_entity_id: a.targetEntityId ?? null,
            feature_type: a.featureType,
            action_type: a.actionType,
            user_id: a.actionUser.userId,
            occurred_at: a.timestamp,
            record: toJson(a)
          })
        } ON CONFLICT (api_key, organization_id, id) DO UPDATE SET document_id = excluded.document_id,
          target_entity_id = excluded.target_entity_id, feature_type = excluded.feature_type,
          action_type = excluded.action_type, user_id = excluded.user_id, occurred_at = excluded.occurred_at,
          record = excluded.record`.pipe(ignoreRows),
      updateRecord: (a) =>
        sql`UPDATE activities SET record = ${toJson(a)}
          WHERE api_key = ${a.metadata.apiKey} AND organization_id = ${a.metadata.organizationId} AND id = ${a.id} RETURNING id`
          .pipe(mapRows((rows) => rows.length > 0)),
      find: (apiKey, organizationId, id) =>
        sql`SELECT record FROM activities WHERE api_key = ${apiKey} AND organization_id = ${organizationId} AND id = ${id}`
          .pipe(firstRow(toActivity)),
      delete: (apiKey, organizationId, filters) =>
        sql<{ readonly id: string }>`DELETE FROM activities WHERE ${
          sql.and([
            sql`api_key = ${apiKey}`,
            sql`organization_id = ${organizationId}`,
            ...(filters.documentId !== undefined ? [sql`document_id = ${filters.documentId}`] : []),
            ...(filters.targetEntityId !== undefined ? [sql`target_entity_id = ${filters.targetEntityId}`] : []),
            ...(filters.ids ? [sql.in("id", filters.ids)] : [])
          ])
        } RETURNING id`.pipe(Effect.map((rows) => rows.map((r) => r.id)), Effect.orDie),
      page: (apiKey, organizationId, filters, { after, limit, order }) => {
        const direction = sql.literal(order === "asc" ? "ASC" : "DESC")
        const beyond = sql.literal(order === "asc" ? ">" : "<")
        const atOrBeyond = sql.literal(order === "asc" ? ">=" : "<=")
        return sql`SELECT record FROM activities WHERE ${
          sql.and([
            sql`api_key = ${apiKey}`,
            sql`organization_id = ${organizationId}`,
            ...(filters.documentId !== undefined ? [sql`document_id = ${filters.documentId}`] : []),
            ...(filters.targetEntityId !== undefined ? [sql`target_entity_id = ${filters.targetEntityId}`] : []),
            ...(filters.featureTypes ? [sql.in("feature_type", filters.featureTypes)] : []),
            ...(filters.actionTypes ? [sql.in("action_type", filters.actionTypes)] : []),
            ...(filters.userId !== undefined ? [sql`user_id = ${filters.userId}`] : []),
            ...(filters.ids ? [sql.in("id", filters.ids)] : []),
            // Keyset: the first clause bounds the index range, the second breaks timestamp ties by id.
            ...(after !== undefined
              ? [
                sql`occurred_at ${atOrBeyond} ${after.timestamp}`,
                sql`(occurred_at ${beyond} ${after.timestamp} OR id ${beyond} ${after.id})`
              ]
              : [])
          ])
        } ORDER BY occurred_at ${direction}, id ${direction} ${limitRows(sql, limit)}`.pipe(
          allRows(toActivity)
        )
      }
    }
  })
)
