import * as Effect from "effect/Effect"
import { answer } from "../protocol/Envelope.js"
import { defineOperation } from "../protocol/Operation.js"
import { CreateMessageInput, ListMessagesInput, MessageResult, MessagesPage } from "./MessageSchemas.js"
import { WebhookMessages } from "./WebhookMessages.js"

export const messageOperations = [
  defineOperation({
    name: "workspace.advancedwebhook.messages.create",
    paths: ["/v2/workspace/advancedwebhook/messages/create"],
    auth: "apiKey",
    summary: "Publish an event of your own to the matching endpoints; the same eventId within 24 h answers the first message.",
    input: CreateMessageInput,
    output: MessageResult,
    errors: ["INVALID_ARGUMENT", "FAILED_PRECONDITION"],
    service: WebhookMessages,
    handler: (messages, input, caller) =>
      Effect.map(messages.publish(caller.apiKey, input), ({ created, message }) =>
        answer(created ? "Message created successfully." : "Message already created with this eventId.")(message))
  }),
  defineOperation({
    name: "workspace.advancedwebhook.messages.get",
    paths: ["/v2/workspace/advancedwebhook/messages/get"],
    auth: "apiKey",
    summary: "List recorded events (webhook messages), newest first, by id, type or channel.",
    input: ListMessagesInput,
    output: MessagesPage,
    errors: ["INVALID_ARGUMENT", "FAILED_PRECONDITION"],
    service: WebhookMessages,
    handler: (messages, input, caller) =>
      Effect.map(messages.list(caller.apiKey, input), (page) =>
        answer("Messages retrieved successfully.")({ messages: page.items, iterator: page.next ?? null }))
  })
] as const
