import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { columnTypes } from "./ColumnTypes.js"

/** Advanced webhooks: the per-key settings and the endpoints with their signing secrets. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const { text, bigint } = columnTypes(sql)
  yield* sql`CREATE TABLE advanced_webhook_configs (
    api_key ${text} PRIMARY KEY,
    is_enabled INTEGER NOT NULL,
    encrypt_data INTEGER NOT NULL,
    encode_data INTEGER NOT NULL,
    public_key ${text} NOT NULL,
    enable_data_protection INTEGER NOT NULL,
    created_at ${bigint} NOT NULL,
    updated_at ${bigint} NOT NULL
  )`
  // filter_types and channels are JSON arrays, NULL meaning "all"; the secret is kept as is (deliveries sign with it).
  // rate_limit is at most 2^31 - 1 (the schema's bound), so INTEGER holds it.
  yield* sql`CREATE TABLE webhook_endpoints (
    api_key ${text} NOT NULL,
    id ${text} NOT NULL,
    url ${text} NOT NULL,
    description ${text},
    filter_types ${text},
    channels ${text},
    disabled INTEGER NOT NULL DEFAULT 0,
    rate_limit INTEGER,
    uid ${text},
    metadata ${text} NOT NULL,
    secret ${text} NOT NULL,
    created_at ${bigint} NOT NULL,
    updated_at ${bigint} NOT NULL,
    PRIMARY KEY (api_key, id)
  )`
  // The list's keyset order, and (for deliveries) every endpoint of a key.
  yield* sql`CREATE INDEX webhook_endpoints_page ON webhook_endpoints (api_key, created_at, id)`
  // NULL uids never clash: both SQLite and PostgreSQL treat NULLs as distinct in a unique index.
  yield* sql`CREATE UNIQUE INDEX webhook_endpoints_uid ON webhook_endpoints (api_key, uid)`
})
