import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

/** The advanced-webhook settings of one API key (docs/compatibility.md, "Advanced webhooks"). No row: never configured. */
export interface WebhookConfigRow {
  readonly apiKey: string
  readonly isEnabled: boolean
  readonly encryptData: boolean
  readonly encodeData: boolean
  /** Base64 RSA public key (no PEM headers) used when `encryptData` is on; "" when unset. */
  readonly publicKey: string
  readonly enableDataProtection: boolean
  readonly createdAt: number
  readonly updatedAt: number
}

/** Storage port: advanced-webhook settings, one row per API key. */
export class WebhookConfigRepo extends Context.Tag("@atrium/core/WebhookConfigRepo")<WebhookConfigRepo, {
  readonly find: (apiKey: string) => Effect.Effect<WebhookConfigRow | undefined>
  /** Inserts or replaces the key's settings. */
  readonly upsert: (row: WebhookConfigRow) => Effect.Effect<void>
}>() {}
