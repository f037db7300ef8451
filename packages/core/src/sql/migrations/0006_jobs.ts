import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { columnTypes } from "./ColumnTypes.js"

/** Background jobs: user-data deletion and document migration, claimed by runners with a lease. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const { text, bigint } = columnTypes(sql)
  // Job ids are server-made and unique across keys; every read also filters on api_key.
  // Task counts are bounded by one request's items: INTEGER holds them.
  yield* sql`CREATE TABLE jobs (
    id ${text} PRIMARY KEY,
    api_key ${text} NOT NULL,
    kind ${text} NOT NULL,
    payload ${text} NOT NULL,
    status ${text} NOT NULL,
    tasks_total INTEGER NOT NULL,
    tasks_done INTEGER NOT NULL,
    last_task_completed_at ${bigint},
    lease_owner ${text},
    lease_until ${bigint},
    error ${text},
    created_at ${bigint} NOT NULL,
    updated_at ${bigint} NOT NULL
  )`
  // The runner's claim: oldest unfinished job first. Partial, so finished jobs never weigh on it.
  yield* sql`CREATE INDEX jobs_due ON jobs (created_at, id) WHERE status IN ('pending', 'in_progress')`
})
