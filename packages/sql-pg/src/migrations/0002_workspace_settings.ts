import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"

/** Per-API-key settings documents, allowed domains, and pending login links. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE workspace_settings (
    api_key TEXT COLLATE "C" NOT NULL,
    name TEXT COLLATE "C" NOT NULL,
    value TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (api_key, name)
  )`
  yield* sql`CREATE TABLE allowed_domains (
    api_key TEXT COLLATE "C" NOT NULL,
    domain TEXT COLLATE "C" NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (api_key, domain)
  )`
  yield* sql`CREATE INDEX allowed_domains_order ON allowed_domains (api_key, created_at, domain)`
  yield* sql`CREATE TABLE login_links (
    token_hash TEXT COLLATE "C" PRIMARY KEY,
    email TEXT COLLATE "C" NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
  )`
  yield* sql`CREATE INDEX login_links_expiry ON login_links (expires_at)`
})
