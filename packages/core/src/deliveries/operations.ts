import * as Effect from "effect/Effect"
import { answer } from "../protocol/Envelope.js"
import { defineOperation } from "../protocol/Operation.js"
import { Attempts } from "./Attempts.js"
import { AttemptsPage, ListAttemptsInput, RecoverInput, RecoverResult, ResendInput, ResendResult } from "./DeliverySchemas.js"

export const deliveryOperations = [
  defineOperation({
    name: "workspace.advancedwebhook.attempts.get",
    paths: ["/v2/workspace/advancedwebhook/attempts/get"],
    auth: "apiKey",
    summary: "List delivery attempts, newest first, by message, endpoint or status: the answer each got, or why none came.",
    input: ListAttemptsInput,
    output: AttemptsPage,
    // A messageId of a disabled organization's message is refused, as messages/resend refuses it.
    errors: ["INVALID_ARGUMENT", "FAILED_PRECONDITION", "NOT_FOUND", "PERMISSION_DENIED"],
    service: Attempts,
    handler: (attempts, input, caller) =>
      Effect.map(attempts.list(caller.apiKey, input), (page) =>
        answer("Attempts retrieved successfully.")({ attempts: page.items, iterator: page.next ?? null }))
  }),
  defineOperation({
    name: "workspace.advancedwebhook.messages.resend",
    paths: ["/v2/workspace/advancedwebhook/messages/resend"],
    auth: "apiKey",
    summary: "Deliver a message to an endpoint once more, now, whatever its earlier attempts did.",
    input: ResendInput,
    output: ResendResult,
    // A disabled organization's message is not sent again (WebhookMessages.find).
    errors: ["INVALID_ARGUMENT", "FAILED_PRECONDITION", "NOT_FOUND", "PERMISSION_DENIED"],
    service: Attempts,
    handler: (attempts, input, caller) =>
      Effect.map(attempts.resend(caller.apiKey, input), answer("Message resend scheduled."))
  }),
  defineOperation({
    name: "workspace.advancedwebhook.endpoints.recover",
    paths: ["/v2/workspace/advancedwebhook/endpoints/recover"],
    auth: "apiKey",
    summary: "Deliver again every message whose delivery to the endpoint failed at or after `since`.",
    input: RecoverInput,
    output: RecoverResult,
    errors: ["INVALID_ARGUMENT", "FAILED_PRECONDITION", "NOT_FOUND"],
    service: Attempts,
    handler: (attempts, input, caller) =>
      Effect.map(attempts.recover(caller.apiKey, input), (recovered) =>
        answer(`${recovered.count} failed message(s) scheduled for delivery again.`)(recovered))
  })
] as const
