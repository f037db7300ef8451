import * as Schema from "effect/Schema"
import { SuccessResult } from "../protocol/Envelope.js"
import { HTTP_URL_PATTERN, optional, Text } from "../schema/Common.js"
import { Triggers } from "../workspace/WorkspaceSettingsSchemas.js"


export const BasicWebhookSettings = Schema.Struct({
  useWebhookService: Schema.Boolean,
  webhookServiceConfig: Schema.Struct({
    authToken: Schema.String,
    rawNotificationUrl: Schema.String,
    processedNotificationUrl: Schema.String,
    /** Event type (`comment.add`) or `comment` (also `huddle`, `crdt`, `recorder`) → on/off. */
    triggers: optional(Triggers)
  })
}).annotations({ identifier: "BasicWebhookSettings" })

/**
 * webhookconfig/update: merged over the stored settings. `encodeData` and `encryptData` are taken
 * only as false, and `processedNotificationUrl` only empty: Atrium sends every event plain to
 * `rawNotificationUrl` (docs/decisions.md, "Advanced webhooks"), and a switch that changed nothing
 * would say a setting holds when it does not.
 */
export const UpdateBasicWebhookInput = Schema.Struct({
  useWebhookService: optional(Schema.Boolean),
  webhookServiceConfig: optional(Schema.Struct({
    authToken: optional(Text(2000)),
    rawNotificationUrl: optional(Text(2000).annotations({ jsonSchema: { maxLength: 2000, pattern: `^$|${HTTP_URL_PATTERN}` } })),
    processedNotificationUrl: optional(Text(2000)),
    encodeData: optional(Schema.Boolean),
    encryptData: optional(Schema.Boolean),
    triggers: optional(Triggers)
  }))
})

export const BasicWebhookResult = SuccessResult(BasicWebhookSettings)
