import * as Schema from "effect/Schema"
import { SuccessResult } from "../protocol/Envelope.js"
import { optional, Text } from "../schema/Common.js"

/** As the hosted service (docs/compatibility.md, "Advanced webhooks"): every field is optional; the service refuses an empty update with the hosted service's message. */
export const UpdateWebhookConfigInput = Schema.Struct({
  isEnabled: optional(Schema.Boolean),
  encryptData: optional(Schema.Boolean),
  encodeData: optional(Schema.Boolean),
  /** Base64 RSA public key without PEM headers; a 16384-bit key is about 2800 characters. */
  publicKey: optional(Text(4096)),
  enableDataProtection: optional(Schema.Boolean)
  // An empty update is refused (by the service, for its message): the published schema says so.
}).annotations({ jsonSchema: { minProperties: 1 } })

export const WebhookConfig = Schema.Struct({
  isEnabled: Schema.Boolean,
  encryptData: Schema.Boolean,
  encodeData: Schema.Boolean,
  publicKey: Schema.String,
  enableDataProtection: Schema.Boolean
}).annotations({ identifier: "AdvancedWebhookConfig" })
export type AdvancedWebhookConfig = typeof WebhookConfig.Type

export const WebhookConfigResult = SuccessResult(WebhookConfig)
