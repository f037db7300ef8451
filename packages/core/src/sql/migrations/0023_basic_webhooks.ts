import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { columnTypes } from "./ColumnTypes.js"

/**
 * Basic (v1) webhooks (docs/webhooks.md, "Basic webhooks"): the key's `webhookconfig` is kept as
 * one endpoint of kind 'basic' beside its advanced ones, so its deliveries are claimed, retried and
 * recorded as theirs; `auth_token` (sealed, as the secret) is sent as `Authorization: Basic`.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const { text } = columnTypes(sql)
  yield* sql`ALTER TABLE webhook_endpoints ADD COLUMN kind ${text} NOT NULL DEFAULT 'advanced'`
  yield* sql`ALTER TABLE webhook_endpoints ADD COLUMN auth_token ${text}`
})
