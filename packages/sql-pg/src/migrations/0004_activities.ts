import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"

/** The activity log, and the folder index that folders/get walks a subtree with. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // The full record is `record` (JSON); the other columns are indexed copies of its filter fields.
  yield* sql`CREATE TABLE activities (
    api_key TEXT COLLATE "C" NOT NULL,
    organization_id TEXT COLLATE "C" NOT NULL,
    id TEXT COLLATE "C" NOT NULL,
    document_id TEXT COLLATE "C" NOT NULL,
    target_entity_id TEXT COLLATE "C",
    feature_type TEXT COLLATE "C" NOT NULL,
    action_type TEXT COLLATE "C" NOT NULL,
    user_id TEXT COLLATE "C" NOT NULL,
    occurred_at BIGINT NOT NULL,
    record TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (api_key, organization_id, id)
  )`
  // Keyset pages of activities/get, ordered by (occurred_at, id) either way.
  yield* sql`CREATE INDEX activities_timeline ON activities (api_key, organization_id, occurred_at, id)`
  yield* sql`CREATE INDEX activities_document_timeline ON activities (api_key, organization_id, document_id, occurred_at, id)`
  yield* sql`CREATE INDEX folders_parent ON folders (api_key, organization_id, parent_folder_id, id)`
})
