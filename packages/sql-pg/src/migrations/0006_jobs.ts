import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"

/** Background jobs: user-data deletion and document migration, claimed by runners with a lease. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Job ids are server-made and unique across keys; every read also filters on api_key.
  // Task counts are bounded by one request's items: INTEGER holds them.
  yield* sql`CREATE TABLE jobs (
    id TEXT COLLATE "C" PRIMARY KEY,
    api_key TEXT COLLATE "C" NOT NULL,
    kind TEXT COLLATE "C" NOT NULL,
    payload TEXT COLLATE "C" NOT NULL,
    status TEXT COLLATE "C" NOT NULL,
    tasks_total INTEGER NOT NULL,
    tasks_done INTEGER NOT NULL,
    last_task_completed_at BIGINT,
    lease_owner TEXT COLLATE "C",
    lease_until BIGINT,
    error TEXT COLLATE "C",
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  )`
  // The runner's claim: oldest unfinished job first. Partial, so finished jobs never weigh on it.
  yield* sql`CREATE INDEX jobs_due ON jobs (created_at, id) WHERE status IN ('pending', 'in_progress')`
})
