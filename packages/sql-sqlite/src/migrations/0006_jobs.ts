import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"

/** Background jobs: user-data deletion and document migration, claimed by runners with a lease. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Job ids are server-made and unique across keys; every read also filters on api_key.
  yield* sql`CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    api_key TEXT NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    status TEXT NOT NULL,
    tasks_total INTEGER NOT NULL,
    tasks_done INTEGER NOT NULL,
    last_task_completed_at INTEGER,
    lease_owner TEXT,
    lease_until INTEGER,
    error TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  )`
  // The runner's claim: oldest unfinished job first. Partial, so finished jobs never weigh on it.
  yield* sql`CREATE INDEX jobs_due ON jobs (created_at, id) WHERE status IN ('pending', 'in_progress')`
})
