import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"

/** Token signing keys, agent executions, memory judgments. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE signing_keys (
    kid TEXT COLLATE "C" PRIMARY KEY,
    alg TEXT COLLATE "C" NOT NULL,
    private_jwk TEXT COLLATE "C" NOT NULL,
    public_jwk TEXT COLLATE "C" NOT NULL,
    created_at BIGINT NOT NULL,
    active INTEGER NOT NULL
  )`
  // At most one active key: servers starting together on one database keep the first one stored.
  yield* sql`CREATE UNIQUE INDEX signing_keys_one_active ON signing_keys (active) WHERE active = 1`

  // agent_version is any non-negative integer the caller sends: BIGINT.
  yield* sql`CREATE TABLE agent_executions (
    api_key TEXT COLLATE "C" NOT NULL,
    id TEXT COLLATE "C" NOT NULL,
    agent_id TEXT COLLATE "C" NOT NULL,
    agent_name TEXT COLLATE "C" NOT NULL,
    agent_version BIGINT NOT NULL,
    status TEXT COLLATE "C" NOT NULL,
    message TEXT COLLATE "C" NOT NULL,
    started_at BIGINT NOT NULL,
    completed_at BIGINT,
    triggered_by TEXT COLLATE "C" NOT NULL,
    organization_id TEXT COLLATE "C",
    document_id TEXT COLLATE "C",
    PRIMARY KEY (api_key, id)
  )`
  // One keyset index per filter of execution/list (filters beyond the first are checked on the rows read).
  yield* sql`CREATE INDEX agent_executions_started ON agent_executions (api_key, started_at, id)`
  yield* sql`CREATE INDEX agent_executions_agent ON agent_executions (api_key, agent_id, started_at, id)`
  yield* sql`CREATE INDEX agent_executions_organization ON agent_executions (api_key, organization_id, started_at, id)`
  yield* sql`CREATE INDEX agent_executions_document ON agent_executions (api_key, document_id, started_at, id)`
  yield* sql`CREATE INDEX agent_executions_status ON agent_executions (api_key, status, started_at, id)`

  // confidence is DOUBLE PRECISION: PostgreSQL's REAL is 4 bytes and would round what SQLite's REAL (8 bytes) keeps.
  yield* sql`CREATE TABLE judgments (
    api_key TEXT COLLATE "C" NOT NULL,
    id TEXT COLLATE "C" NOT NULL,
    organization_id TEXT COLLATE "C",
    document_id TEXT COLLATE "C",
    content TEXT COLLATE "C" NOT NULL,
    reasoning TEXT COLLATE "C" NOT NULL,
    decision TEXT COLLATE "C" NOT NULL,
    judge_type TEXT COLLATE "C" NOT NULL,
    reviewer_id TEXT COLLATE "C",
    content_type TEXT COLLATE "C",
    confidence DOUBLE PRECISION,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (api_key, id)
  )`
  // Newest first in each scope suggest reads (the key, an organization, one of its documents); query uses them too.
  yield* sql`CREATE INDEX judgments_created ON judgments (api_key, created_at, id)`
  yield* sql`CREATE INDEX judgments_organization ON judgments (api_key, organization_id, created_at, id)`
  yield* sql`CREATE INDEX judgments_document ON judgments (api_key, organization_id, document_id, created_at, id)`
})
