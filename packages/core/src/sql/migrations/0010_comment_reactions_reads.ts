import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { columnTypes } from "./ColumnTypes.js"

/** Comments keep the order they were sent in; reactions to comments; who read which thread. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const { text, bigint } = columnTypes(sql)
  // A comment's place in its thread's order of insertion: comments sent together share created_at.
  yield* sql`ALTER TABLE comments ADD COLUMN seq ${bigint} NOT NULL DEFAULT 0`
  // comments/add reads the thread's highest seq: without this, every row of a long thread.
  yield* sql`CREATE INDEX comments_seq ON comments (api_key, organization_id, annotation_id, seq)`

  // One row per user, emoji and comment; the thread's reads group them per emoji.
  yield* sql`CREATE TABLE comment_reactions (
    api_key ${text} NOT NULL,
    organization_id ${text} NOT NULL,
    annotation_id ${text} NOT NULL,
    comment_id ${bigint} NOT NULL,
    reaction_id ${text} NOT NULL,
    user_id ${text} NOT NULL,
    created_at ${bigint} NOT NULL,
    record ${text} NOT NULL,
    PRIMARY KEY (api_key, organization_id, annotation_id, comment_id, reaction_id, user_id)
  )`
  // users/data/delete finds a user's reactions by user.
  yield* sql`CREATE INDEX comment_reactions_user ON comment_reactions (api_key, user_id)`

  // A user read the thread as it was at read_at (its lastUpdated then); a later change makes it unread again.
  yield* sql`CREATE TABLE comment_reads (
    api_key ${text} NOT NULL,
    organization_id ${text} NOT NULL,
    annotation_id ${text} NOT NULL,
    user_id ${text} NOT NULL,
    read_at ${bigint} NOT NULL,
    PRIMARY KEY (api_key, organization_id, annotation_id, user_id)
  )`
  yield* sql`CREATE INDEX comment_reads_user ON comment_reads (api_key, user_id)`
})
