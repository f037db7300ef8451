import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { firstRow, ignoreRows } from "../sql/MapRows.js"
import { fromJson, type JsonColumn, toJson } from "../sql/Rows.js"
import { SettingsRepo } from "./SettingsRepo.js"
import { SecretBox } from "../crypto/SecretBox.js"

export const SqlSettingsRepo = Layer.effect(
  SettingsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // Settings hold the permission provider's token: sealed like every secret read back.
    const box = yield* SecretBox
    return {
      get: (apiKey, name) =>
        sql`SELECT value FROM workspace_settings WHERE api_key = ${apiKey} AND name = ${name}`.pipe(
          firstRow((row: { readonly value: JsonColumn }) => fromJson<unknown>(box.open(row.value as string), undefined))
        ),
      put: (apiKey, name, value) =>
        sql`INSERT INTO workspace_settings ${sql.insert({ api_key: apiKey, name, value: box.seal(toJson(value)) })}
          ON CONFLICT (api_key, name) DO UPDATE SET value = excluded.value`.pipe(ignoreRows)
    }
  })
)
