import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"

/**
 * One workspace per owner email, in any case: the owner lookup compares `lower(owner_email)`.
 * Not a unique index: a database may already hold two workspaces whose emails differ only in
 * case, and both stay; workspace/create takes a lock per email instead (Transactions.lock).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DROP INDEX workspaces_owner`
  yield* sql`CREATE INDEX workspaces_owner_email ON workspaces (lower(owner_email))`
})
