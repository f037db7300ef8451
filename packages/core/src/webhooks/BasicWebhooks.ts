import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { BASIC_ACTION_TYPES } from "../deliveries/BasicDeliveryBody.js"
import { DeliveriesRepo } from "../deliveries/DeliveriesRepo.js"
import { invalidArgument } from "../protocol/ApiError.js"
import { Transactions } from "../ports/Transactions.js"
import { isHttpUrl } from "../schema/Common.js"
import { SettingsRepo } from "../workspace/SettingsRepo.js"
import type { BasicWebhookSettings, UpdateBasicWebhookInput } from "./BasicWebhookSchemas.js"
import { newSigningSecret } from "./SigningSecret.js"
import { BASIC_ENDPOINT_ID, WebhookEndpointsRepo } from "./WebhookEndpointsRepo.js"

export type BasicWebhook = typeof BasicWebhookSettings.Type

/** The settings document's name (SettingsRepo). */
const BASIC_WEBHOOK = "basicWebhook"

/** Never configured: the hosted service's answer (compatibility facts §1.3). */
export const DEFAULT_BASIC_WEBHOOK: BasicWebhook = {
  useWebhookService: false,
  webhookServiceConfig: { authToken: "", rawNotificationUrl: "", processedNotificationUrl: "" }
}

/** The first enable turns on the comment and huddle triggers and leaves crdt and recorder off (the facts). */
const FIRST_ENABLE_TRIGGERS = { comment: true, huddle: true, crdt: false, recorder: false }

const invalid = (why: string) => invalidArgument(`Invalid webhook service configuration: ${why}`)

/** The comment events the triggers let through: an event type's own trigger (`comment.add`), else the source's (`comment`). */
export const triggeredTypes = (triggers: Readonly<Record<string, boolean>>): ReadonlyArray<string> =>
  Object.keys(BASIC_ACTION_TYPES).filter((type) => triggers[type] ?? triggers.comment ?? false)

/**
 * Basic (v1) webhooks (docs/webhooks.md, "Basic webhooks"): `webhookconfig`, kept as settings and
 * as the key's basic endpoint, which the outbox fans out to and the delivery worker sends to
 * (unsigned, v1 body, `Authorization: Basic`), with the advanced endpoints' retries and records.
 */
export class BasicWebhooks extends Effect.Service<BasicWebhooks>()("@atrium/core/BasicWebhooks", {
  accessors: true,
  effect: Effect.gen(function*() {
    const settings = yield* SettingsRepo
    const endpoints = yield* WebhookEndpointsRepo
    const deliveries = yield* DeliveriesRepo
    const { lock, withTransaction } = yield* Transactions

    const stored = (apiKey: string) => Effect.map(settings.get(apiKey, BASIC_WEBHOOK), (value) => value as BasicWebhook | undefined)

    return {
      get: (apiKey: string) => Effect.map(stored(apiKey), (value) => value ?? DEFAULT_BASIC_WEBHOOK),

      /** webhookconfig/update: merged, checked, stored with the endpoint in one transaction; answers the state. */
      update: (apiKey: string, input: typeof UpdateBasicWebhookInput.Type) =>
        Effect.gen(function*() {
          const patch = input.webhookServiceConfig ?? {}
          if (input.useWebhookService === undefined && input.webhookServiceConfig === undefined) {
            return yield* invalid("at least one of useWebhookService or webhookServiceConfig must be provided.")
          }
          if (patch.encodeData === true || patch.encryptData === true) {
            return yield* invalid("encodeData and encryptData are not supported: Atrium sends the payload as JSON (use an https URL).")
          }
          if (patch.processedNotificationUrl !== undefined && patch.processedNotificationUrl !== "") {
            return yield* invalid("processedNotificationUrl is not supported: Atrium sends every event to rawNotificationUrl.")
          }
          if (patch.rawNotificationUrl !== undefined && patch.rawNotificationUrl !== "" && !isHttpUrl(patch.rawNotificationUrl)) {
            return yield* invalid("rawNotificationUrl must be a valid http(s) URL.")
          }
          return yield* withTransaction(Effect.gen(function*() {
            yield* lock("settings", apiKey, BASIC_WEBHOOK)
            const before = yield* stored(apiKey)
            const current = before ?? DEFAULT_BASIC_WEBHOOK
            const useWebhookService = input.useWebhookService ?? current.useWebhookService
            // The first enable: no `comment` trigger yet, even if event types' triggers were set before (they stay, over it).
            const firstEnable = useWebhookService && current.webhookServiceConfig.triggers?.comment === undefined
            const triggers = { ...(firstEnable ? FIRST_ENABLE_TRIGGERS : {}), ...current.webhookServiceConfig.triggers, ...patch.triggers }
            const next: BasicWebhook = {
              useWebhookService,
              webhookServiceConfig: {
                authToken: patch.authToken ?? current.webhookServiceConfig.authToken,
                rawNotificationUrl: patch.rawNotificationUrl ?? current.webhookServiceConfig.rawNotificationUrl,
                processedNotificationUrl: "",
                ...(Object.keys(triggers).length > 0 && { triggers })
              }
            }
            const { authToken, rawNotificationUrl } = next.webhookServiceConfig
            if (useWebhookService && rawNotificationUrl === "") {
              return yield* invalid("rawNotificationUrl is required to use the webhook service.")
            }
            yield* settings.put(apiKey, BASIC_WEBHOOK, next)
            const now = yield* Clock.currentTimeMillis
            // Always written, so turning it off (or clearing the URL, which needs it off) disables the endpoint.
            yield* endpoints.putBasic(apiKey, { url: rawNotificationUrl, filterTypes: triggeredTypes(triggers), disabled: !useWebhookService, authToken }, newSigningSecret(), now)
            // Turned off: what waits to be sent is not sent.
            if (before?.useWebhookService === true && !useWebhookService) yield* deliveries.cancelEndpoint(apiKey, BASIC_ENDPOINT_ID, now)
            return next
          }))
        })
    }
  })
}) {}
