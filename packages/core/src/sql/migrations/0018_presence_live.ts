import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { columnTypes } from "./ColumnTypes.js"

/**
 * Presence that lives (docs/realtime.md, "Presence"): each entry keeps the `data` its user's
 * client set (a cursor, up to 4 KB of JSON text), the server whose connection holds it
 * (`held_by`, null for entries written through the server API), and its last sign of life
 * (`last_seen_at`): the holding server renews its entries every few seconds, and an entry not
 * renewed for PRESENCE_TTL_MILLIS is gone (listed by nobody, then swept, its subscribers told).
 * Entries from before this migration are seen last when they were written.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const { bigint, text } = columnTypes(sql)
  yield* sql`ALTER TABLE presence ADD COLUMN data ${text}`
  yield* sql`ALTER TABLE presence ADD COLUMN held_by ${text}`
  yield* sql`ALTER TABLE presence ADD COLUMN last_seen_at ${bigint} NOT NULL DEFAULT 0`
  yield* sql`UPDATE presence SET last_seen_at = updated_at`
  // The sweep of expired entries, and each server's renewal of the ones it holds.
  yield* sql`CREATE INDEX presence_last_seen ON presence (last_seen_at)`
  yield* sql`CREATE INDEX presence_held_by ON presence (held_by)`
})
