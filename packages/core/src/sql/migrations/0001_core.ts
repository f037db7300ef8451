import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { columnTypes } from "./ColumnTypes.js"

/** Workspaces, API keys and their tokens, organizations, folders, documents, server secrets. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const { text, bigint } = columnTypes(sql)
  yield* sql`CREATE TABLE workspaces (
    id ${text} PRIMARY KEY,
    name ${text} NOT NULL,
    owner_id ${text} NOT NULL,
    owner_email ${text} NOT NULL,
    owner_name ${text} NOT NULL,
    owner_avatar ${text},
    auth_token_hash ${text} NOT NULL,
    created_at ${bigint} NOT NULL
  )`
  yield* sql`CREATE INDEX workspaces_owner ON workspaces (owner_email)`
  yield* sql`CREATE TABLE api_keys (
    api_key ${text} PRIMARY KEY,
    workspace_id ${text} NOT NULL REFERENCES workspaces (id),
    name ${text} NOT NULL,
    type ${text} NOT NULL,
    created_at ${bigint} NOT NULL
  )`
  yield* sql`CREATE INDEX api_keys_workspace ON api_keys (workspace_id, api_key)`
  yield* sql`CREATE TABLE auth_tokens (
    api_key ${text} NOT NULL,
    id ${text} NOT NULL,
    name ${text} NOT NULL,
    token_hash ${text} NOT NULL,
    hint ${text} NOT NULL,
    domains ${text} NOT NULL,
    created_at ${bigint} NOT NULL,
    PRIMARY KEY (api_key, id)
  )`
  yield* sql`CREATE TABLE server_secrets (name ${text} PRIMARY KEY, value ${text} NOT NULL)`
  yield* sql`CREATE TABLE rate_limits (key ${text} PRIMARY KEY, window_start ${bigint} NOT NULL, hits INTEGER NOT NULL)`
  yield* sql`CREATE TABLE organizations (
    api_key ${text} NOT NULL,
    id ${text} NOT NULL,
    name ${text} NOT NULL,
    disabled INTEGER NOT NULL DEFAULT 0,
    metadata ${text} NOT NULL,
    created_at ${bigint} NOT NULL,
    updated_at ${bigint} NOT NULL,
    PRIMARY KEY (api_key, id)
  )`
  yield* sql`CREATE TABLE folders (
    api_key ${text} NOT NULL,
    organization_id ${text} NOT NULL,
    id ${text} NOT NULL,
    name ${text} NOT NULL,
    parent_folder_id ${text} NOT NULL,
    ancestors ${text} NOT NULL,
    access_type ${text} NOT NULL,
    inherit_access INTEGER NOT NULL,
    created_at ${bigint} NOT NULL,
    last_updated ${bigint} NOT NULL,
    PRIMARY KEY (api_key, organization_id, id)
  )`
  yield* sql`CREATE TABLE documents (
    api_key ${text} NOT NULL,
    organization_id ${text} NOT NULL,
    id ${text} NOT NULL,
    internal_id ${text} NOT NULL,
    name ${text} NOT NULL,
    folder_id ${text},
    access_type ${text} NOT NULL,
    disabled INTEGER NOT NULL DEFAULT 0,
    metadata ${text} NOT NULL,
    created_at ${bigint} NOT NULL,
    updated_at ${bigint} NOT NULL,
    PRIMARY KEY (api_key, organization_id, id)
  )`
  yield* sql`CREATE INDEX documents_folder ON documents (api_key, organization_id, folder_id, id)`
})
