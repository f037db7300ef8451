import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { firstRow, ignoreRows } from "../sql/MapRows.js"
import { bool, flag, type FlagColumn, type IntegerColumn, num } from "../sql/Rows.js"
import { WebhookConfigRepo, type WebhookConfigRow } from "./WebhookConfigRepo.js"

/** One `advanced_webhook_configs` row as the drivers return it (column types: sql/Rows.ts). */
interface WebhookConfigSqlRow {
  readonly api_key: string
  readonly is_enabled: FlagColumn
  readonly encrypt_data: FlagColumn
  readonly encode_data: FlagColumn
  readonly public_key: string
  readonly enable_data_protection: FlagColumn
  readonly created_at: IntegerColumn
  readonly updated_at: IntegerColumn
}

const toRow = (r: WebhookConfigSqlRow): WebhookConfigRow => ({
  apiKey: r.api_key,
  isEnabled: bool(r.is_enabled),
  encryptData: bool(r.encrypt_data),
  encodeData: bool(r.encode_data),
  publicKey: r.public_key,
  enableDataProtection: bool(r.enable_data_protection),
  createdAt: num(r.created_at),
  updatedAt: num(r.updated_at)
})

export const SqlWebhookConfigRepo = Layer.effect(
  WebhookConfigRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      find: (apiKey) =>
        sql`SELECT * FROM advanced_webhook_configs WHERE api_key = ${apiKey}`.pipe(
          firstRow(toRow)
        ),
      upsert: (c) =>
        sql`INSERT INTO advanced_webhook_configs ${
          sql.insert({
            api_key: c.apiKey,
            is_enabled: flag(c.isEnabled),
            encrypt_data: flag(c.encryptData),
            encode_data: flag(c.encodeData),
            public_key: c.publicKey,
            enable_data_protection: flag(c.enableDataProtection),
            created_at: c.createdAt,
            updated_at: c.updatedAt
          })
        } ON CONFLICT (api_key) DO UPDATE SET is_enabled = excluded.is_enabled, encrypt_data = excluded.encrypt_data,
          encode_data = excluded.encode_data, public_key = excluded.public_key,
          enable_data_protection = excluded.enable_data_protection, updated_at = excluded.updated_at`
          .pipe(ignoreRows)
    }
  })
)
