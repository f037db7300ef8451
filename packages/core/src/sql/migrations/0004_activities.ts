import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { columnTypes } from "./ColumnTypes.js"

/** The activity log, and the folder index that folders/get walks a subtree with. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const { text, bigint } = columnTypes(sql)
  // The full record is `record` (JSON); the other columns are indexed copies of its filter fields.
  yield* sql`CREATE TABLE activities (
    api_key ${text} NOT NULL,
    organization_id ${text} NOT NULL,
    id ${text} NOT NULL,
    document_id ${text} NOT NULL,
    target_entity_id ${text},
    feature_type ${text} NOT NULL,
    action_type ${text} NOT NULL,
    user_id ${text} NOT NULL,
    occurred_at ${bigint} NOT NULL,
    record ${text} NOT NULL,
    PRIMARY KEY (api_key, organization_id, id)
  )`
  // Keyset pages of activities/get, ordered by (occurred_at, id) either way.
  yield* sql`CREATE INDEX activities_timeline ON activities (api_key, organization_id, occurred_at, id)`
  yield* sql`CREATE INDEX activities_document_timeline ON activities (api_key, organization_id, document_id, occurred_at, id)`
  yield* sql`CREATE INDEX folders_parent ON folders (api_key, organization_id, parent_folder_id, id)`
})
