import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { columnTypes } from "./ColumnTypes.js"

/**
 * Live state (docs/realtime.md, "Broadcast"): the data last broadcast to a document under each
 * `liveStateDataId`, as JSON text (up to 64 KB), so a broadcast with `merge` merges into it on any
 * server, and each server reads what to send its subscribers from here rather than from the feed
 * (a NOTIFY payload holds 8,000 bytes). `version` counts the writes of the row: a server sends a
 * version once, and never one older than what it sent.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const { bigint, text } = columnTypes(sql)
  yield* sql`CREATE TABLE live_states (
    api_key ${text} NOT NULL,
    organization_id ${text} NOT NULL,
    document_id ${text} NOT NULL,
    live_state_data_id ${text} NOT NULL,
    data ${text} NOT NULL,
    version ${bigint} NOT NULL,
    updated_at ${bigint} NOT NULL,
    PRIMARY KEY (api_key, organization_id, document_id, live_state_data_id)
  )`
})
