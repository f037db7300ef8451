import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { limitRows } from "../sql/Limit.js"
import { allRows, firstRow, ignoreRows, mapRows } from "../sql/MapRows.js"
import { bool, flag, type FlagColumn, fromJson, type IntegerColumn, type JsonColumn, num, numOrNull, strOrNull, toJson } from "../sql/Rows.js"
import { BASIC_ENDPOINT_ID, type WebhookEndpointRow, WebhookEndpointsRepo } from "./WebhookEndpointsRepo.js"
import { SecretBox } from "../crypto/SecretBox.js"

/** Every column but the secret: a listed or found row never carries it. */
const COLUMNS = "api_key, id, url, description, filter_types, channels, disabled, rate_limit, uid, metadata, created_at, updated_at, kind"

/** One `webhook_endpoints` row as the drivers return it (column types: sql/Rows.ts). */
interface WebhookEndpointSqlRow {
  readonly api_key: string
  readonly id: string
  readonly url: string
  readonly description: string | null
  readonly filter_types: JsonColumn | null
  readonly channels: JsonColumn | null
  readonly disabled: FlagColumn
  readonly rate_limit: IntegerColumn | null
  readonly uid: string | null
  readonly metadata: JsonColumn
  readonly created_at: IntegerColumn
  readonly updated_at: IntegerColumn
  readonly kind: string
}

const toRow = (r: WebhookEndpointSqlRow): WebhookEndpointRow => ({
  apiKey: r.api_key,
  id: r.id,
  url: r.url,
  description: strOrNull(r.description),
  filterTypes: fromJson(r.filter_types, null),
  channels: fromJson(r.channels, null),
  disabled: bool(r.disabled),
  rateLimit: numOrNull(r.rate_limit),
  uid: strOrNull(r.uid),
  metadata: fromJson(r.metadata, {}),
  createdAt: num(r.created_at),
  updatedAt: num(r.updated_at),
  ...(r.kind === "basic" && { kind: "basic" as const })
})

const jsonOrNull = (value: unknown) => value === null ? null : toJson(value)

/** The columns an update may change: everything but the key, the uid, the secret and the creation time. */
const editable = (e: WebhookEndpointRow) => ({
  url: e.url,
  description: e.description,
  filter_types: jsonOrNull(e.filterTypes),
  channels: jsonOrNull(e.channels),
  disabled: flag(e.disabled),
  rate_limit: e.rateLimit,
  metadata: toJson(e.metadata),
  updated_at: e.updatedAt
})

export const SqlWebhookEndpointsRepo = Layer.effect(
  WebhookEndpointsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const box = yield* SecretBox
    const columns = sql.literal(COLUMNS)
    // The advanced endpoints only, in every statement the advanced operations reach: the basic webhook is webhookconfig's.
    const advanced = sql.literal("kind = 'advanced'")
    return {
      // The unique index on (api_key, uid) decides a uid clash, so two concurrent creates cannot both win.
      insert: (e, secret) =>
        sql`INSERT INTO webhook_endpoints ${
          sql.insert({ api_key: e.apiKey, id: e.id, uid: e.uid, secret: box.seal(secret), created_at: e.createdAt, ...editable(e) })
        } ON CONFLICT DO NOTHING RETURNING id`.pipe(mapRows((rows) => rows.length > 0)),
      putBasic: (apiKey, basic, secret, now) =>
        sql`INSERT INTO webhook_endpoints ${
          sql.insert({
            api_key: apiKey,
            id: BASIC_ENDPOINT_ID,
            kind: "basic",
            url: basic.url,
            description: null,
            filter_types: toJson(basic.filterTypes),
            channels: null,
            disabled: flag(basic.disabled),
            rate_limit: null,
            uid: null,
            metadata: "{}",
            secret: box.seal(secret),
            auth_token: box.seal(basic.authToken),
            created_at: now,
            updated_at: now
          })
        } ON CONFLICT (api_key, id) DO UPDATE SET url = ${basic.url}, filter_types = ${toJson(basic.filterTypes)},
          disabled = ${flag(basic.disabled)}, auth_token = ${box.seal(basic.authToken)}, updated_at = ${now}`.pipe(ignoreRows),
      count: (apiKey) =>
        sql`SELECT COUNT(*) AS n FROM webhook_endpoints WHERE api_key = ${apiKey} AND ${advanced}`.pipe(
          mapRows((rows: ReadonlyArray<{ readonly n: IntegerColumn }>) => num(rows[0]!.n))
        ),
      find: (apiKey, id) =>
        sql`SELECT ${columns} FROM webhook_endpoints WHERE api_key = ${apiKey} AND id = ${id} AND ${advanced}`.pipe(
          firstRow(toRow)
        ),
      list: (apiKey, { after, before, limit }) =>
        (before !== undefined
          ? sql`SELECT ${columns} FROM webhook_endpoints WHERE api_key = ${apiKey} AND ${advanced}
              AND (created_at < ${before.createdAt} OR (created_at = ${before.createdAt} AND id < ${before.id}))
              ORDER BY created_at DESC, id DESC ${limitRows(sql, limit)}`
          : sql`SELECT ${columns} FROM webhook_endpoints WHERE ${
            sql.and([
              sql`api_key = ${apiKey}`,
              advanced,
              ...(after !== undefined
                ? [sql`(created_at > ${after.createdAt} OR (created_at = ${after.createdAt} AND id > ${after.id}))`]
                : [])
            ])
          } ORDER BY created_at, id ${limitRows(sql, limit)}`).pipe(allRows(toRow)),
      update: (e) =>
        sql`UPDATE webhook_endpoints SET ${
          sql.update(editable(e))
        } WHERE api_key = ${e.apiKey} AND id = ${e.id} AND ${advanced}`.pipe(ignoreRows),
      delete: (apiKey, id) =>
        sql`DELETE FROM webhook_endpoints WHERE api_key = ${apiKey} AND id = ${id} AND ${advanced} RETURNING id`.pipe(
          mapRows((rows) => rows.length > 0)
        ),
      findSecret: (apiKey, id) =>
        sql`SELECT secret FROM webhook_endpoints WHERE api_key = ${apiKey} AND id = ${id} AND ${advanced}`.pipe(
          firstRow((row: { readonly secret: string }) => box.open(row.secret))
        ),
      listEnabled: (apiKey) =>
        sql`SELECT ${columns} FROM webhook_endpoints WHERE api_key = ${apiKey} AND disabled = 0`.pipe(allRows(toRow)),
      rotateSecret: (apiKey, id, secret, previousUntil, now) =>
        sql`UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = ${previousUntil},
            secret = ${box.seal(secret)}, updated_at = ${now}
          WHERE api_key = ${apiKey} AND id = ${id} AND ${advanced} RETURNING id`.pipe(mapRows((rows) => rows.length > 0)),
      disable: (apiKey, id, now) =>
        sql`UPDATE webhook_endpoints SET disabled = 1, updated_at = ${now} WHERE api_key = ${apiKey} AND id = ${id}`.pipe(ignoreRows)
    }
  })
)
