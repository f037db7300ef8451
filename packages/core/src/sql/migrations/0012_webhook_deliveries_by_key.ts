import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"

/**
 * Claims take API keys in turn (a fair share of the delivery worker per key): due deliveries are
 * found key by key, oldest first within a key, so a key's backlog is never read past to reach
 * another key's. The index by due time alone served the old oldest-first claim only.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX webhook_deliveries_due_by_key ON webhook_deliveries (api_key, next_attempt_at) WHERE status = 'pending'`
  yield* sql`DROP INDEX webhook_deliveries_due`
})
