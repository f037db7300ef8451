import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { columnTypes } from "./ColumnTypes.js"

/** Comment threads (annotations) and their comments. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const { text, bigint } = columnTypes(sql)
  // The thread's fields are `record` (JSON); the other columns are indexed copies of its filter fields.
  yield* sql`CREATE TABLE comment_annotations (
    api_key ${text} NOT NULL,
    organization_id ${text} NOT NULL,
    id ${text} NOT NULL,
    document_id ${text} NOT NULL,
    annotation_number ${bigint} NOT NULL,
    location_id ${text},
    status_id ${text} NOT NULL,
    created_by ${text} NOT NULL,
    resolved_by ${text},
    created_at ${bigint} NOT NULL,
    last_updated ${bigint} NOT NULL,
    record ${text} NOT NULL,
    PRIMARY KEY (api_key, organization_id, id)
  )`
  // Keyset pages of commentannotations/get, ordered by (last_updated, id) either way.
  yield* sql`CREATE INDEX comment_annotations_timeline ON comment_annotations (api_key, organization_id, last_updated, id)`
  yield* sql`CREATE INDEX comment_annotations_document ON comment_annotations (api_key, organization_id, document_id, last_updated, id)`

  // Comment ids are integers unique within their thread.
  yield* sql`CREATE TABLE comments (
    api_key ${text} NOT NULL,
    organization_id ${text} NOT NULL,
    annotation_id ${text} NOT NULL,
    id ${bigint} NOT NULL,
    created_by ${text} NOT NULL,
    created_at ${bigint} NOT NULL,
    last_updated ${bigint} NOT NULL,
    record ${text} NOT NULL,
    PRIMARY KEY (api_key, organization_id, annotation_id, id)
  )`
})
