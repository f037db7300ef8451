import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"

/** Workspaces, API keys and their tokens, organizations, folders, documents, server secrets. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE workspaces (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    owner_id TEXT NOT NULL,
    owner_email TEXT NOT NULL,
    owner_name TEXT NOT NULL,
    owner_avatar TEXT,
    auth_token_hash TEXT NOT NULL,
    created_at INTEGER NOT NULL
  )`
  yield* sql`CREATE INDEX workspaces_owner ON workspaces (owner_email)`
  yield* sql`CREATE TABLE api_keys (
    api_key TEXT PRIMARY KEY,
    workspace_id TEXT NOT NULL REFERENCES workspaces (id),
    name TEXT NOT NULL,
    type TEXT NOT NULL,
    created_at INTEGER NOT NULL
  )`
  yield* sql`CREATE INDEX api_keys_workspace ON api_keys (workspace_id, api_key)`
  yield* sql`CREATE TABLE auth_tokens (
    api_key TEXT NOT NULL,
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    hint TEXT NOT NULL,
    domains TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (api_key, id)
  )`
  yield* sql`CREATE TABLE server_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL)`
  yield* sql`CREATE TABLE rate_limits (key TEXT PRIMARY KEY, window_start INTEGER NOT NULL, hits INTEGER NOT NULL)`
  yield* sql`CREATE TABLE organizations (
    api_key TEXT NOT NULL,
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    disabled INTEGER NOT NULL DEFAULT 0,
    metadata TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (api_key, id)
  )`
  yield* sql`CREATE TABLE folders (
    api_key TEXT NOT NULL,
    organization_id TEXT NOT NULL,
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    parent_folder_id TEXT NOT NULL,
    ancestors TEXT NOT NULL,
    access_type TEXT NOT NULL,
    inherit_access INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    last_updated INTEGER NOT NULL,
    PRIMARY KEY (api_key, organization_id, id)
  )`
  yield* sql`CREATE TABLE documents (
    api_key TEXT NOT NULL,
    organization_id TEXT NOT NULL,
    id TEXT NOT NULL,
    internal_id TEXT NOT NULL,
    name TEXT NOT NULL,
    folder_id TEXT,
    access_type TEXT NOT NULL,
    disabled INTEGER NOT NULL DEFAULT 0,
    metadata TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (api_key, organization_id, id)
  )`
  yield* sql`CREATE INDEX documents_folder ON documents (api_key, organization_id, folder_id, id)`
})
