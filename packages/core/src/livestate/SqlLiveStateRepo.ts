import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { firstRow, ignoreRows } from "../sql/MapRows.js"
import { type IntegerColumn, num } from "../sql/Rows.js"
import { LiveStateRepo, type LiveStateRow } from "./LiveStateRepo.js"

/** One `live_states` row as the drivers return it (column types: sql/Rows.ts). */
interface LiveStateSqlRow {
  readonly api_key: string
  readonly organization_id: string
  readonly document_id: string
  readonly live_state_data_id: string
  readonly data: string
  readonly version: IntegerColumn
  readonly updated_at: IntegerColumn
}

const toRow = (r: LiveStateSqlRow): LiveStateRow => ({
  apiKey: r.api_key,
  organizationId: r.organization_id,
  documentId: r.document_id,
  liveStateDataId: r.live_state_data_id,
  data: r.data,
  version: num(r.version),
  updatedAt: num(r.updated_at)
})

export const SqlLiveStateRepo = Layer.effect(
  LiveStateRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      find: (key) =>
        sql`SELECT * FROM live_states WHERE api_key = ${key.apiKey} AND organization_id = ${key.organizationId}
          AND document_id = ${key.documentId} AND live_state_data_id = ${key.liveStateDataId}`.pipe(firstRow(toRow)),
      put: (row) =>
        sql`INSERT INTO live_states ${
          sql.insert({
            api_key: row.apiKey,
            organization_id: row.organizationId,
            document_id: row.documentId,
            live_state_data_id: row.liveStateDataId,
            data: row.data,
            version: row.version,
            updated_at: row.updatedAt
          })
        } ON CONFLICT (api_key, organization_id, document_id, live_state_data_id) DO UPDATE SET data = excluded.data,
          version = excluded.version, updated_at = excluded.updated_at`.pipe(ignoreRows)
    }
  })
)
