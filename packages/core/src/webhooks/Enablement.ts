import * as Effect from "effect/Effect"
import { type ApiError, failedPrecondition } from "../protocol/ApiError.js"
import type { WebhookConfigRow } from "./WebhookConfigRepo.js"

/** The hosted service's messages, word for word (docs/compatibility.md, "Advanced webhooks"). */
export const NOT_CONFIGURED =
  "Advanced webhooks are not configured for this workspace. Enable them first via POST /v2/workspace/advancedwebhookconfig/update with { \"isEnabled\": true }."
export const DISABLED =
  "Advanced webhooks are disabled for this workspace. Enable them via POST /v2/workspace/advancedwebhookconfig/update with { \"isEnabled\": true }."

/**
 * The precondition of every endpoint operation (spec "Advanced webhooks": FAILED_PRECONDITION
 * unless enabled, also when never configured), given the key's settings row.
 */
export const requireEnabled = (config: WebhookConfigRow | undefined): Effect.Effect<void, ApiError<"FAILED_PRECONDITION">> =>
  config === undefined
    ? Effect.fail(failedPrecondition(NOT_CONFIGURED))
    : config.isEnabled
    ? Effect.void
    : Effect.fail(failedPrecondition(DISABLED))
