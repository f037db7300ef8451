import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"

/**
 * A browser's preflight names no API key, so it is answered by whether any key allows its origin
 * (docs/decisions.md, "Client API"): that lookup goes by the domain alone.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX allowed_domains_domain ON allowed_domains (domain)`
})
