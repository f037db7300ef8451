import * as Effect from "effect/Effect"
import { answer } from "../protocol/Envelope.js"
import { defineOperation } from "../protocol/Operation.js"
import {
  GetNotificationConfigInput,
  NotificationConfigSetResult,
  NotificationConfigsResult,
  SetNotificationConfigInput
} from "./NotificationPreferenceSchemas.js"
import { NotificationPreferences } from "./NotificationPreferences.js"

export const notificationOperations = [
  defineOperation({
    name: "notifications.config.get",
    paths: ["/v2/notifications/config/get"],
    auth: "apiKey",
    summary: "Read a user's notification preferences for documents, or their organization-level default.",
    input: GetNotificationConfigInput,
    output: NotificationConfigsResult,
    organization: (input) => input.organizationId,
    service: NotificationPreferences,
    handler: (notificationPreferences, input, caller) =>
      Effect.map(notificationPreferences.get(caller.apiKey, input), answer("User config fetched successfully."))
  }),
  defineOperation({
    name: "notifications.config.set",
    paths: ["/v2/notifications/config/set"],
    auth: "apiKey",
    summary: "Set users' notification preferences (inbox, email, slack) for documents, or as their organization-level default.",
    input: SetNotificationConfigInput,
    output: NotificationConfigSetResult,
    organization: (input) => input.organizationId,
    service: NotificationPreferences,
    handler: (notificationPreferences, input, caller) =>
      Effect.map(notificationPreferences.set(caller.apiKey, input), answer("User config set successfully."))
  })
] as const
