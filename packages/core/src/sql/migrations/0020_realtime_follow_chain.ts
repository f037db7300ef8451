import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { columnTypes } from "./ColumnTypes.js"

/**
 * Since when a key's changes have been logged without a break (docs/realtime.md, "Resume"): each
 * follow row keeps `followed_at`, the start of the unbroken run of follows it joined (a new row
 * takes the earliest of the key's live rows, or now when there is none; a row renewed after it
 * expired starts again). A client that resumes says the start it was given; a later one means the
 * key went unfollowed meanwhile, so changes may be missing from the log and the client resyncs.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const { bigint } = columnTypes(sql)
  yield* sql`ALTER TABLE realtime_followers ADD COLUMN followed_at ${bigint} NOT NULL DEFAULT 0`
})
