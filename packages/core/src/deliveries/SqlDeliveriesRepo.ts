import * as SqlClient from "@effect/sql/SqlClient"
import type * as Statement from "@effect/sql/Statement"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { inEnabledOrganization } from "../organizations/SqlEnabledOrganizations.js"
import { limitRows } from "../sql/Limit.js"
import { allRows, ignoreRows, mapRows } from "../sql/MapRows.js"
import { bool, fromJson, type FlagColumn, type IntegerColumn, type JsonColumn, num, numOrNull, strOrNull } from "../sql/Rows.js"
import { type AttemptRow, type ClaimedDelivery, DeliveriesRepo } from "./DeliveriesRepo.js"
import { type DueKey, takesOf, withoutRoom } from "./KeyTurns.js"
import { SecretBox, type SecretBoxShape } from "../crypto/SecretBox.js"

/** A claimed delivery joined with its message and endpoint, as the drivers return it (sql/Rows.ts). */
interface ClaimedSqlRow {
  readonly api_key: string
  readonly message_id: string
  readonly endpoint_id: string
  readonly attempts: IntegerColumn
  readonly max_attempts: IntegerColumn
  readonly event_type: string
  readonly channels: JsonColumn
  readonly organization_id: string | null
  /** The organization's flag; NULL for a message of none, or of an organization not stored. */
  readonly organization_disabled: FlagColumn | null
  readonly payload: string
  readonly message_created_at: IntegerColumn
  readonly url: string
  readonly rate_limit: IntegerColumn | null
  readonly secret: string
  readonly previous_secret: string | null
  readonly previous_secret_until: IntegerColumn | null
  readonly kind: string
  readonly auth_token: string | null
}

/** One `webhook_attempts` row. */
interface AttemptSqlRow {
  readonly api_key: string
  readonly id: string
  readonly message_id: string
  readonly endpoint_id: string
  readonly url: string
  readonly attempt_number: IntegerColumn
  readonly status: AttemptRow["status"]
  readonly response_status_code: IntegerColumn
  readonly response_body: string
  readonly duration_ms: IntegerColumn
  readonly error: string | null
  readonly created_at: IntegerColumn
  readonly next_attempt_at: IntegerColumn | null
}

/** Keys with pending deliveries one look of a claim passes, at most: a claim's cost stays bounded however many keys wait. */
const KEYS_LOOKED_AT = 256

const toClaimed = (box: SecretBoxShape, now: number) => (r: ClaimedSqlRow): ClaimedDelivery => {
  const previousUntil = numOrNull(r.previous_secret_until)
  return {
    apiKey: r.api_key,
    messageId: r.message_id,
    endpointId: r.endpoint_id,
    attempts: num(r.attempts),
    maxAttempts: num(r.max_attempts),
    eventType: r.event_type,
    channels: fromJson(r.channels, []),
    organizationId: strOrNull(r.organization_id),
    organizationDisabled: bool(r.organization_disabled),
    payloadJson: r.payload,
    messageCreatedAt: num(r.message_created_at),
    url: r.url,
    rateLimit: numOrNull(r.rate_limit),
    secrets: r.previous_secret !== null && previousUntil !== null && previousUntil > now
      ? [box.open(r.secret), box.open(r.previous_secret)]
      : [box.open(r.secret)],
    ...(r.kind === "basic" && { basic: { authToken: r.auth_token === null ? "" : box.open(r.auth_token) } })
  }
}

const toAttempt = (r: AttemptSqlRow): AttemptRow => ({
  apiKey: r.api_key,
  id: r.id,
  messageId: r.message_id,
  endpointId: r.endpoint_id,
  url: r.url,
  attemptNumber: num(r.attempt_number),
  status: r.status,
  responseStatusCode: num(r.response_status_code),
  responseBody: r.response_body,
  durationMs: num(r.duration_ms),
  error: strOrNull(r.error),
  createdAt: num(r.created_at),
  nextAttemptAt: numOrNull(r.next_attempt_at)
})

export const SqlDeliveriesRepo = Layer.effect(
  DeliveriesRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const box = yield* SecretBox
    const skipLocked = sql.onDialectOrElse({ pg: () => sql.literal("FOR UPDATE SKIP LOCKED"), orElse: () => sql.literal("") })
    // PostgreSQL may run a subquery of the UPDATE again for each row it joins, and a locking
    // LIMIT run again after the update picks more rows: what a claim picks is picked once.
    const materialized = sql.onDialectOrElse({ pg: () => sql.literal("MATERIALIZED"), orElse: () => sql.literal("") })
    // A literal status (not a parameter), so both dialects match the partial index `webhook_deliveries_due_by_key`.
    const due = (now: number) => sql`status = 'pending' AND next_attempt_at <= ${now}`
    const held = (claim: string, d: { readonly apiKey: string; readonly messageId: string; readonly endpointId: string }) =>
      sql`api_key = ${d.apiKey} AND message_id = ${d.messageId} AND endpoint_id = ${d.endpointId} AND status = 'pending' AND lease_owner = ${claim}`
    /** Whether the message of a row of `table` (its `message_id`) is of no organization or of an enabled one. */
    const messageInEnabledOrganization = (table: string, apiKey: string) =>
      sql`EXISTS (SELECT 1 FROM webhook_messages WHERE webhook_messages.api_key = ${apiKey} AND webhook_messages.id = ${
        sql(table)
      }.message_id AND ${inEnabledOrganization(sql, "webhook_messages", apiKey)})`
    const nextKey = (after: Statement.Fragment) =>
      sql`SELECT api_key FROM webhook_deliveries WHERE status = 'pending' AND ${after} ORDER BY api_key LIMIT 1`

    /** Where this process's next claim starts: after the key the last one took from (keys take turns). */
    let turn = ""

    /**
     * The keys with deliveries due at `now` after `from` (up to `upTo`), in key order, with how
     * many are due (up to `most`): one index seek per key with pending rows, however long its
     * backlog, and at most KEYS_LOOKED_AT keys. `ended`: the look passed the last key; `bound`:
     * the key it stopped at when it looked at as many as it may.
     */
    const lookKeys = (now: number, from: string, upTo: string | undefined, most: number, skip: ReadonlyArray<string>, limit: number) =>
      sql`WITH RECURSIVE keys(k, step) AS (
          SELECT (${nextKey(sql`api_key > ${from}`)}), 1
          UNION ALL
          SELECT (${nextKey(sql`api_key > keys.k`)}), step + 1 FROM keys
          WHERE keys.k IS NOT NULL AND step < ${sql.literal(String(KEYS_LOOKED_AT))}${upTo === undefined ? sql.literal("") : sql` AND keys.k < ${upTo}`}
        )
        SELECT k, n, step FROM (
          SELECT k, step, (SELECT COUNT(*) FROM (
            SELECT 1 AS one FROM webhook_deliveries WHERE api_key = keys.k AND ${due(now)} ${limitRows(sql, most)}
          ) AS d) AS n
          FROM keys WHERE k IS NOT NULL${upTo === undefined ? sql.literal("") : sql` AND k <= ${upTo}`}
        ) AS counted
        WHERE (n > 0${skip.length === 0 ? sql.literal("") : sql` AND k NOT IN ${sql.in(skip)}`}) OR step = ${sql.literal(String(KEYS_LOOKED_AT))}
        ${limitRows(sql, limit + 1)}`.pipe(
        mapRows((rows: ReadonlyArray<{ readonly k: string; readonly n: IntegerColumn; readonly step: IntegerColumn }>) => {
          const last = rows.at(-1)
          const bound = last !== undefined && num(last.step) === KEYS_LOOKED_AT ? last.k : undefined
          return {
            keys: rows.filter((r) => num(r.n) > 0 && !skip.includes(r.k)).map((r): DueKey => ({ apiKey: r.k, due: num(r.n) })),
            bound,
            ended: bound === undefined && rows.length <= limit
          }
        })
      )
    return {
      // The keys with due deliveries first (lookKeys), then one statement for the claim and one
      // for what the claimed rows need. The claim picks each key's oldest due rows in a subquery
      // of its own and updates them by primary key (WITH … UPDATE … FROM, on both dialects); on
      // PostgreSQL each subquery locks what it picks and skips rows other servers are claiming.
      // The outer condition re-checks each row, which keeps SQLite (one writer at a time) correct
      // too. A claim pushes next_attempt_at to the lease's end: a worker that dies leaves its
      // rows due then.
      claim: (claim, now, leaseUntil, limit, share) =>
        Effect.gen(function*() {
          const skip = withoutRoom(share)
          const first = yield* lookKeys(now, turn, undefined, share.most, skip, limit)
          // Past the last key: round again from the first, up to where this turn started.
          const second = first.ended && first.keys.length < limit && turn !== ""
            ? yield* lookKeys(now, "", turn, share.most, skip, limit - first.keys.length)
            : undefined
          const { full, takes } = takesOf([...first.keys, ...(second?.keys ?? [])], share, limit)
          const bound = (second ?? first).bound
          turn = full || bound === undefined ? takes.at(-1)?.apiKey ?? turn : bound
          const none = { deliveries: [], more: bound !== undefined }
          if (takes.length === 0) return none
          // LIMITs bound, not written in (limitRows): the text then depends on the number of keys only.
          const count = yield* sql`WITH picked AS ${materialized} (${
            sql.join(" UNION ALL ", false)(takes.map(({ apiKey, due: take }, i) =>
              sql`SELECT * FROM (
                SELECT api_key AS k, message_id AS m, endpoint_id AS e FROM webhook_deliveries
                WHERE api_key = ${apiKey} AND ${due(now)} ORDER BY next_attempt_at LIMIT ${take} ${skipLocked}
              ) AS ${sql.literal(`k${i}`)}`
            ))
          })
            UPDATE webhook_deliveries SET lease_owner = ${claim}, next_attempt_at = ${leaseUntil} FROM picked
            WHERE api_key = picked.k AND message_id = picked.m AND endpoint_id = picked.e AND ${due(now)}
            RETURNING api_key`.pipe(mapRows((rows) => rows.length))
          if (count === 0) return none
          const deliveries = yield* sql`SELECT d.api_key, d.message_id, d.endpoint_id, d.attempts, d.max_attempts,
              m.event_type, m.channels, m.organization_id, o.disabled AS organization_disabled, m.payload,
              m.created_at AS message_created_at, e.url, e.rate_limit, e.secret, e.previous_secret, e.previous_secret_until,
              e.kind, e.auth_token
            FROM webhook_deliveries d
            JOIN webhook_messages m ON m.api_key = d.api_key AND m.id = d.message_id
            JOIN webhook_endpoints e ON e.api_key = d.api_key AND e.id = d.endpoint_id
            LEFT JOIN organizations o ON o.api_key = m.api_key AND o.id = m.organization_id
            WHERE d.lease_owner = ${claim} AND d.status = 'pending'`.pipe(allRows(toClaimed(box, now)))
          return { deliveries, more: full || bound !== undefined }
        }),
      // One INSERT for every attempt and one UPDATE for every success: a batch costs a few
      // statements, not three per attempt. Failures move on one by one (each may retry or end).
      recordAttempts: (items) =>
        Effect.gen(function*() {
          if (items.length === 0) return []
          yield* sql`INSERT INTO webhook_attempts ${sql.insert(items.map(({ attempt: a }) => ({
            api_key: a.apiKey,
            id: a.id,
            message_id: a.messageId,
            endpoint_id: a.endpointId,
            url: a.url,
            attempt_number: a.attemptNumber,
            status: a.status,
            response_status_code: a.responseStatusCode,
            response_body: a.responseBody,
            duration_ms: a.durationMs,
            error: a.error,
            created_at: a.createdAt,
            next_attempt_at: a.nextAttemptAt
          })))}`.pipe(ignoreRows)
          const succeeded = items.filter((item) => item.next.status === "success")
          if (succeeded.length > 0) {
            const latest = Math.max(...succeeded.map((item) => item.attempt.createdAt))
            yield* sql`UPDATE webhook_deliveries SET status = 'success', attempts = attempts + 1, next_attempt_at = NULL,
                lease_owner = NULL, updated_at = ${latest}
              WHERE status = 'pending' AND (api_key, message_id, endpoint_id, lease_owner) IN (VALUES ${
              sql.csv(succeeded.map(({ attempt: a, claim }) => sql`(${a.apiKey}, ${a.messageId}, ${a.endpointId}, ${claim})`))
            })`.pipe(ignoreRows)
          }
          return yield* Effect.forEach(items, ({ attempt: a, claim, next }) =>
            next.status === "success"
              ? Effect.succeed(true)
              : sql`UPDATE webhook_deliveries SET status = ${next.status}, attempts = attempts + 1,
                  next_attempt_at = ${next.status === "pending" ? next.at : null}, lease_owner = NULL, updated_at = ${a.createdAt}
                WHERE ${held(claim, a)} RETURNING api_key`.pipe(mapRows((rows) => rows.length > 0)))
        }),
      postpone: (claim, d, at) =>
        sql`UPDATE webhook_deliveries SET next_attempt_at = ${at}, lease_owner = NULL WHERE ${held(claim, d)}`.pipe(ignoreRows),
      releaseAll: (claimPrefix, now) =>
        sql`UPDATE webhook_deliveries SET next_attempt_at = ${now}, lease_owner = NULL
          WHERE status = 'pending' AND substr(lease_owner, 1, ${claimPrefix.length}) = ${claimPrefix}
          RETURNING api_key`.pipe(mapRows((rows) => rows.length)),
      cancelEndpoint: (apiKey, endpointId, now) =>
        sql`UPDATE webhook_deliveries SET status = 'cancelled', next_attempt_at = NULL, lease_owner = NULL, updated_at = ${now}
          WHERE api_key = ${apiKey} AND endpoint_id = ${endpointId} AND status = 'pending'`.pipe(ignoreRows),
      forgetEndpoint: (apiKey, endpointId) =>
        sql`DELETE FROM webhook_deliveries WHERE api_key = ${apiKey} AND endpoint_id = ${endpointId}`.pipe(
          ignoreRows,
          Effect.zipRight(sql`DELETE FROM webhook_attempts WHERE api_key = ${apiKey} AND endpoint_id = ${endpointId}`.pipe(ignoreRows))
        ),
      markSucceeded: (endpoints) =>
        endpoints.length === 0 ? Effect.void : sql`UPDATE webhook_endpoints SET failing_since = NULL
          WHERE failing_since IS NOT NULL AND (api_key, id) IN (VALUES ${
          sql.csv(endpoints.map((e) => sql`(${e.apiKey}, ${e.endpointId})`))
        })`.pipe(ignoreRows),
      markFailed: (apiKey, endpointId, now) =>
        sql`UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, ${now})
          WHERE api_key = ${apiKey} AND id = ${endpointId} RETURNING failing_since`.pipe(
          mapRows((rows: ReadonlyArray<{ readonly failing_since: IntegerColumn | null }>) => numOrNull(rows[0]?.failing_since))
        ),
      resend: (apiKey, messageId, endpointId, now) =>
        sql`INSERT INTO webhook_deliveries ${
          sql.insert({
            api_key: apiKey,
            message_id: messageId,
            endpoint_id: endpointId,
            status: "pending",
            attempts: 0,
            max_attempts: 1,
            next_attempt_at: now,
            lease_owner: null,
            created_at: now,
            updated_at: now
          })
        } ON CONFLICT (api_key, message_id, endpoint_id) DO UPDATE SET status = 'pending',
          max_attempts = webhook_deliveries.attempts + 1, next_attempt_at = ${now}, lease_owner = NULL, updated_at = ${now}`.pipe(ignoreRows),
      recover: (apiKey, endpointId, since, now) =>
        sql`UPDATE webhook_deliveries SET status = 'pending', max_attempts = attempts + 1, next_attempt_at = ${now},
            lease_owner = NULL, updated_at = ${now}
          WHERE api_key = ${apiKey} AND endpoint_id = ${endpointId} AND status = 'failed' AND updated_at >= ${since}
            AND ${messageInEnabledOrganization("webhook_deliveries", apiKey)}
          RETURNING api_key`.pipe(mapRows((rows) => rows.length)),
      listAttempts: (apiKey, filters, { before, limit }) =>
        sql`SELECT * FROM webhook_attempts WHERE ${
          sql.and([
            sql`api_key = ${apiKey}`,
            messageInEnabledOrganization("webhook_attempts", apiKey),
            ...(filters.messageId !== undefined ? [sql`message_id = ${filters.messageId}`] : []),
            ...(filters.endpointId !== undefined ? [sql`endpoint_id = ${filters.endpointId}`] : []),
            ...(filters.status !== undefined ? [sql`status = ${filters.status}`] : []),
            ...(before !== undefined
              ? [sql`(created_at < ${before.createdAt} OR (created_at = ${before.createdAt} AND id < ${before.id}))`]
              : [])
          ])
        } ORDER BY created_at DESC, id DESC ${limitRows(sql, limit)}`.pipe(allRows(toAttempt))
    }
  })
)
