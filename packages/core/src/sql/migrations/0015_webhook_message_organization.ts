import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { columnTypes } from "./ColumnTypes.js"

/**
 * Each webhook message names the organization whose event it is (issue 23: a disabled
 * organization's messages are left out of the outbox's reads and are not sent), NULL for none: a
 * host's own message, an event of the whole key. No index: every read that asks reaches the
 * organization from a message row (the organizations' primary key), none seeks messages by it.
 *
 * Earlier messages are given theirs where their stored event shows it: a domain event's first
 * channel is its organization, and its payload names the same one under `organizationId`
 * (`metadata` of activities and comments, `resource` of access events) — a host's message does
 * only if it says so itself. A `message.attempt.exhausted` takes its message's. The rest stay
 * NULL, visible as before. The payloads are read as the text the outbox wrote (JSON.stringify: no
 * spaces, keys in the order written), not parsed: PostgreSQL refuses to read a JSON string holding
 * an escaped NUL or a lone surrogate, which a payload may carry, and a migration must not fail on one.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const { text } = columnTypes(sql)
  yield* sql`ALTER TABLE webhook_messages ADD COLUMN organization_id ${text}`
  // Channels are ids (no control characters): both dialects read them as JSON.
  const { firstChannel, quoted, find } = sql.onDialectOrElse({
    pg: () => ({
      firstChannel: "webhook_messages.channels::json ->> 0",
      quoted: (value: string) => `to_json(${value})::text`,
      find: (needle: string, haystack: string) => `strpos(${haystack}, ${needle})`
    }),
    orElse: () => ({
      firstChannel: "json_extract(webhook_messages.channels, '$[0]')",
      quoted: (value: string) => `json_quote(${value})`,
      find: (needle: string, haystack: string) => `instr(${haystack}, ${needle})`
    })
  })
  yield* sql`UPDATE webhook_messages SET organization_id = ${sql.literal(firstChannel)}
    WHERE ${sql.literal(find(`'"organizationId":' || ${quoted(firstChannel)}`, "webhook_messages.payload"))} > 0`
  // An exhausted event's payload begins {"messageId":"<id>", (Deliveries.ts); message ids hold no quote.
  const prefix = '{"messageId":"'
  const rest = `substr(webhook_messages.payload, ${prefix.length + 1})`
  const messageId = `substr(${rest}, 1, ${find(`'"'`, rest)} - 1)`
  yield* sql`UPDATE webhook_messages SET organization_id = (
      SELECT original.organization_id FROM webhook_messages AS original
      WHERE original.api_key = webhook_messages.api_key AND original.id = ${sql.literal(messageId)}
    )
    WHERE event_type = 'message.attempt.exhausted' AND substr(payload, 1, ${sql.literal(String(prefix.length))}) = ${sql.literal(`'${prefix}'`)}`
})
