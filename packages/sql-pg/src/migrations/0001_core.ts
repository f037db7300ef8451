import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"

/**
 * Workspaces, API keys and their tokens, organizations, folders, documents, server secrets.
 *
 * The PostgreSQL migrations mirror the SQLite ones table for table, with two rules:
 * every millisecond timestamp (and every integer that can pass 2^31) is BIGINT, and every
 * TEXT column is COLLATE "C", so text compares by bytes as in SQLite and keyset pages come
 * in the same order on both databases whatever the database's default collation is.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE workspaces (
    id TEXT COLLATE "C" PRIMARY KEY,
    name TEXT COLLATE "C" NOT NULL,
    owner_id TEXT COLLATE "C" NOT NULL,
    owner_email TEXT COLLATE "C" NOT NULL,
    owner_name TEXT COLLATE "C" NOT NULL,
    owner_avatar TEXT COLLATE "C",
    auth_token_hash TEXT COLLATE "C" NOT NULL,
    created_at BIGINT NOT NULL
  )`
  yield* sql`CREATE INDEX workspaces_owner ON workspaces (owner_email)`
  yield* sql`CREATE TABLE api_keys (
    api_key TEXT COLLATE "C" PRIMARY KEY,
    workspace_id TEXT COLLATE "C" NOT NULL REFERENCES workspaces (id),
    name TEXT COLLATE "C" NOT NULL,
    type TEXT COLLATE "C" NOT NULL,
    created_at BIGINT NOT NULL
  )`
  yield* sql`CREATE INDEX api_keys_workspace ON api_keys (workspace_id, api_key)`
  yield* sql`CREATE TABLE auth_tokens (
    api_key TEXT COLLATE "C" NOT NULL,
    id TEXT COLLATE "C" NOT NULL,
    name TEXT COLLATE "C" NOT NULL,
    token_hash TEXT COLLATE "C" NOT NULL,
    hint TEXT COLLATE "C" NOT NULL,
    domains TEXT COLLATE "C" NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (api_key, id)
  )`
  yield* sql`CREATE TABLE server_secrets (name TEXT COLLATE "C" PRIMARY KEY, value TEXT COLLATE "C" NOT NULL)`
  yield* sql`CREATE TABLE rate_limits (key TEXT COLLATE "C" PRIMARY KEY, window_start BIGINT NOT NULL, hits INTEGER NOT NULL)`
  yield* sql`CREATE TABLE organizations (
    api_key TEXT COLLATE "C" NOT NULL,
    id TEXT COLLATE "C" NOT NULL,
    name TEXT COLLATE "C" NOT NULL,
    disabled INTEGER NOT NULL DEFAULT 0,
    metadata TEXT COLLATE "C" NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (api_key, id)
  )`
  yield* sql`CREATE TABLE folders (
    api_key TEXT COLLATE "C" NOT NULL,
    organization_id TEXT COLLATE "C" NOT NULL,
    id TEXT COLLATE "C" NOT NULL,
    name TEXT COLLATE "C" NOT NULL,
    parent_folder_id TEXT COLLATE "C" NOT NULL,
    ancestors TEXT COLLATE "C" NOT NULL,
    access_type TEXT COLLATE "C" NOT NULL,
    inherit_access INTEGER NOT NULL,
    created_at BIGINT NOT NULL,
    last_updated BIGINT NOT NULL,
    PRIMARY KEY (api_key, organization_id, id)
  )`
  yield* sql`CREATE TABLE documents (
    api_key TEXT COLLATE "C" NOT NULL,
    organization_id TEXT COLLATE "C" NOT NULL,
    id TEXT COLLATE "C" NOT NULL,
    internal_id TEXT COLLATE "C" NOT NULL,
    name TEXT COLLATE "C" NOT NULL,
    folder_id TEXT COLLATE "C",
    access_type TEXT COLLATE "C" NOT NULL,
    disabled INTEGER NOT NULL DEFAULT 0,
    metadata TEXT COLLATE "C" NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (api_key, organization_id, id)
  )`
  yield* sql`CREATE INDEX documents_folder ON documents (api_key, organization_id, folder_id, id)`
})
