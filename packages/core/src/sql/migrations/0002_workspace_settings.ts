import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { columnTypes } from "./ColumnTypes.js"

/** Per-API-key settings documents, allowed domains, and pending login links. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const { text, bigint } = columnTypes(sql)
  yield* sql`CREATE TABLE workspace_settings (
    api_key ${text} NOT NULL,
    name ${text} NOT NULL,
    value ${text} NOT NULL,
    PRIMARY KEY (api_key, name)
  )`
  yield* sql`CREATE TABLE allowed_domains (
    api_key ${text} NOT NULL,
    domain ${text} NOT NULL,
    created_at ${bigint} NOT NULL,
    PRIMARY KEY (api_key, domain)
  )`
  yield* sql`CREATE INDEX allowed_domains_order ON allowed_domains (api_key, created_at, domain)`
  yield* sql`CREATE TABLE login_links (
    token_hash ${text} PRIMARY KEY,
    email ${text} NOT NULL,
    created_at ${bigint} NOT NULL,
    expires_at ${bigint} NOT NULL
  )`
  yield* sql`CREATE INDEX login_links_expiry ON login_links (expires_at)`
})
