import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"

/** Per-API-key settings documents, allowed domains, and pending login links. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE workspace_settings (
    api_key TEXT NOT NULL,
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (api_key, name)
  )`
  yield* sql`CREATE TABLE allowed_domains (
    api_key TEXT NOT NULL,
    domain TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (api_key, domain)
  )`
  yield* sql`CREATE INDEX allowed_domains_order ON allowed_domains (api_key, created_at, domain)`
  yield* sql`CREATE TABLE login_links (
    token_hash TEXT PRIMARY KEY,
    email TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  )`
  yield* sql`CREATE INDEX login_links_expiry ON login_links (expires_at)`
})
