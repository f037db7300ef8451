import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"

/** Token signing keys, agent executions, memory judgments. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE signing_keys (
    kid TEXT PRIMARY KEY,
    alg TEXT NOT NULL,
    private_jwk TEXT NOT NULL,
    public_jwk TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    active INTEGER NOT NULL
  )`
  // At most one active key: servers starting together on one database keep the first one stored.
  yield* sql`CREATE UNIQUE INDEX signing_keys_one_active ON signing_keys (active) WHERE active = 1`

  yield* sql`CREATE TABLE agent_executions (
    api_key TEXT NOT NULL,
    id TEXT NOT NULL,
    agent_id TEXT NOT NULL,
    agent_name TEXT NOT NULL,
    agent_version INTEGER NOT NULL,
    status TEXT NOT NULL,
    message TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    completed_at INTEGER,
    triggered_by TEXT NOT NULL,
    organization_id TEXT,
    document_id TEXT,
    PRIMARY KEY (api_key, id)
  )`
  // One keyset index per filter of execution/list (filters beyond the first are checked on the rows read).
  yield* sql`CREATE INDEX agent_executions_started ON agent_executions (api_key, started_at, id)`
  yield* sql`CREATE INDEX agent_executions_agent ON agent_executions (api_key, agent_id, started_at, id)`
  yield* sql`CREATE INDEX agent_executions_organization ON agent_executions (api_key, organization_id, started_at, id)`
  yield* sql`CREATE INDEX agent_executions_document ON agent_executions (api_key, document_id, started_at, id)`
  yield* sql`CREATE INDEX agent_executions_status ON agent_executions (api_key, status, started_at, id)`

  yield* sql`CREATE TABLE judgments (
    api_key TEXT NOT NULL,
    id TEXT NOT NULL,
    organization_id TEXT,
    document_id TEXT,
    content TEXT NOT NULL,
    reasoning TEXT NOT NULL,
    decision TEXT NOT NULL,
    judge_type TEXT NOT NULL,
    reviewer_id TEXT,
    content_type TEXT,
    confidence REAL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (api_key, id)
  )`
  // Newest first in each scope suggest reads (the key, an organization, one of its documents); query uses them too.
  yield* sql`CREATE INDEX judgments_created ON judgments (api_key, created_at, id)`
  yield* sql`CREATE INDEX judgments_organization ON judgments (api_key, organization_id, created_at, id)`
  yield* sql`CREATE INDEX judgments_document ON judgments (api_key, organization_id, document_id, created_at, id)`
})
