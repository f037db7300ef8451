import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { columnTypes } from "./ColumnTypes.js"

/**
 * The realtime log (docs/realtime.md): the events of each document that realtime subscribers
 * follow, numbered per document, and which servers follow which API keys.
 *
 * - `realtime_documents`: a document's last sequence number. A change takes the next numbers by
 *   updating this row in its own transaction, so writers of one document queue on the row until
 *   they commit: a document's numbers commit in order and without gaps, and a reader that asks
 *   for `seq > n` never passes over one still to commit.
 * - `realtime_events`: the events, kept for a few minutes (a reconnecting client resumes from
 *   there); `at` orders the sweep that deletes the old ones.
 * - `realtime_followers`: a row per server and API key the server holds subscribers of, renewed
 *   while it does: changes of a key nobody follows are not logged.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const { bigint, text } = columnTypes(sql)
  yield* sql`CREATE TABLE realtime_documents (
    api_key ${text} NOT NULL,
    organization_id ${text} NOT NULL,
    document_id ${text} NOT NULL,
    seq ${bigint} NOT NULL,
    PRIMARY KEY (api_key, organization_id, document_id)
  )`
  yield* sql`CREATE TABLE realtime_events (
    api_key ${text} NOT NULL,
    organization_id ${text} NOT NULL,
    document_id ${text} NOT NULL,
    seq ${bigint} NOT NULL,
    event_type ${text} NOT NULL,
    payload ${text} NOT NULL,
    at ${bigint} NOT NULL,
    PRIMARY KEY (api_key, organization_id, document_id, seq)
  )`
  yield* sql`CREATE INDEX realtime_events_at ON realtime_events (at)`
  yield* sql`CREATE TABLE realtime_followers (
    server_id ${text} NOT NULL,
    api_key ${text} NOT NULL,
    expires_at ${bigint} NOT NULL,
    PRIMARY KEY (server_id, api_key)
  )`
})
