import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { columnTypes } from "./ColumnTypes.js"

/** Token signing keys, agent executions, memory judgments. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const { text, bigint, double } = columnTypes(sql)
  yield* sql`CREATE TABLE signing_keys (
    kid ${text} PRIMARY KEY,
    alg ${text} NOT NULL,
    private_jwk ${text} NOT NULL,
    public_jwk ${text} NOT NULL,
    created_at ${bigint} NOT NULL,
    active INTEGER NOT NULL
  )`
  // At most one active key: servers starting together on one database keep the first one stored.
  yield* sql`CREATE UNIQUE INDEX signing_keys_one_active ON signing_keys (active) WHERE active = 1`

  // agent_version is any non-negative integer the caller sends: bigint.
  yield* sql`CREATE TABLE agent_executions (
    api_key ${text} NOT NULL,
    id ${text} NOT NULL,
    agent_id ${text} NOT NULL,
    agent_name ${text} NOT NULL,
    agent_version ${bigint} NOT NULL,
    status ${text} NOT NULL,
    message ${text} NOT NULL,
    started_at ${bigint} NOT NULL,
    completed_at ${bigint},
    triggered_by ${text} NOT NULL,
    organization_id ${text},
    document_id ${text},
    PRIMARY KEY (api_key, id)
  )`
  // One keyset index per filter of execution/list (filters beyond the first are checked on the rows read).
  yield* sql`CREATE INDEX agent_executions_started ON agent_executions (api_key, started_at, id)`
  yield* sql`CREATE INDEX agent_executions_agent ON agent_executions (api_key, agent_id, started_at, id)`
  yield* sql`CREATE INDEX agent_executions_organization ON agent_executions (api_key, organization_id, started_at, id)`
  yield* sql`CREATE INDEX agent_executions_document ON agent_executions (api_key, document_id, started_at, id)`
  yield* sql`CREATE INDEX agent_executions_status ON agent_executions (api_key, status, started_at, id)`

  yield* sql`CREATE TABLE judgments (
    api_key ${text} NOT NULL,
    id ${text} NOT NULL,
    organization_id ${text},
    document_id ${text},
    content ${text} NOT NULL,
    reasoning ${text} NOT NULL,
    decision ${text} NOT NULL,
    judge_type ${text} NOT NULL,
    reviewer_id ${text},
    content_type ${text},
    confidence ${double},
    created_at ${bigint} NOT NULL,
    PRIMARY KEY (api_key, id)
  )`
  // Newest first in each scope suggest reads (the key, an organization, one of its documents); query uses them too.
  yield* sql`CREATE INDEX judgments_created ON judgments (api_key, created_at, id)`
  yield* sql`CREATE INDEX judgments_organization ON judgments (api_key, organization_id, created_at, id)`
  yield* sql`CREATE INDEX judgments_document ON judgments (api_key, organization_id, document_id, created_at, id)`
})
