import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { columnTypes } from "./ColumnTypes.js"

/**
 * The access rule's facts (issue 23): a stored grant may expire (auth/permissions/add takes
 * `expiresAt`), and a document either has an access type of its own or takes its folder's
 * (documents/access/update sets one). Every existing document inherits: its stored type was the
 * default, never set by a caller.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const { bigint } = columnTypes(sql)
  yield* sql`ALTER TABLE user_memberships ADD COLUMN expires_at ${bigint}`
  yield* sql`ALTER TABLE documents ADD COLUMN inherit_access INTEGER NOT NULL DEFAULT 1`
})
