import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { failedPrecondition, invalidArgument } from "../protocol/ApiError.js"
import { Transactions } from "../ports/Transactions.js"
import { NOT_CONFIGURED } from "./Enablement.js"
import { WebhookConfigRepo, type WebhookConfigRow } from "./WebhookConfigRepo.js"
import type { AdvancedWebhookConfig, UpdateWebhookConfigInput } from "./WebhookConfigSchemas.js"

/** What `get` answers before any configuration (docs/compatibility.md, "Advanced webhooks"). */
const DEFAULTS: AdvancedWebhookConfig = {
  isEnabled: false,
  encryptData: false,
  encodeData: false,
  publicKey: "",
  enableDataProtection: false
}

const toConfig = (row: WebhookConfigRow): AdvancedWebhookConfig => ({
  isEnabled: row.isEnabled,
  encryptData: row.encryptData,
  encodeData: row.encodeData,
  publicKey: row.publicKey,
  enableDataProtection: row.enableDataProtection
})

/** Advanced-webhook settings of an API key: whether endpoints may be used, and how payloads are protected. */
export class WebhookConfigs extends Effect.Service<WebhookConfigs>()("@atrium/core/WebhookConfigs", {
  accessors: true,
  effect: Effect.gen(function*() {
    const repo = yield* WebhookConfigRepo
    const { lock, withTransaction } = yield* Transactions

    return {
      get: (apiKey: string) =>
        Effect.map(repo.find(apiKey), (row) => row === undefined ? DEFAULTS : toConfig(row)),

      /**
       * Partial update that echoes the full settings. The first one must enable the feature
       * (`isEnabled: true`); anything else sent before that is FAILED_PRECONDITION (docs/compatibility.md, "Advanced webhooks").
       */
      update: (apiKey: string, input: typeof UpdateWebhookConfigInput.Type) =>
        Effect.gen(function*() {
          if (Object.keys(input).length === 0) {
            return yield* invalidArgument(
              "At least one of isEnabled, encryptData, encodeData, publicKey or enableDataProtection must be provided."
            )
          }
          return yield* withTransaction(Effect.gen(function*() {
            yield* lock("webhook-config", apiKey) // a partial update: concurrent ones apply one after the other
            const existing = yield* repo.find(apiKey)
            if (existing === undefined && input.isEnabled !== true) return yield* failedPrecondition(NOT_CONFIGURED)
            const now = yield* Clock.currentTimeMillis
            const row: WebhookConfigRow = { ...(existing ?? { apiKey, ...DEFAULTS, createdAt: now }), ...input, updatedAt: now }
            yield* repo.upsert(row)
            return toConfig(row)
          }))
        })
    }
  })
}) {}
