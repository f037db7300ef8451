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
    errors: ["INVALID_ARGUMENT", "FAILED_PRECONDITION", "NOT_FOUND"],
    service: Attempts,
    handler: (attempts, input, caller) => attempts.list(caller.apiKey, input)
  }),
  defineOperation({
    name: "workspace.advancedwebhook.messages.resend",
    paths: ["/v2/workspace/advancedwebhook/messages/resend"],
    auth: "apiKey",
    summary: "Deliver a message to an endpoint once more, now, whatever its earlier attempts did.",
    input: ResendInput,
    output: ResendResult,
    errors: ["INVALID_ARGUMENT", "FAILED_PRECONDITION", "NOT_FOUND"],
    service: Attempts,
    handler: (attempts, input, caller) => attempts.resend(caller.apiKey, input)
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
    handler: (attempts, input, caller) => attempts.recover(caller.apiKey, input)
  })
] as const
