import * as Effect from "effect/Effect"
import { answer, answerPage } from "../protocol/Envelope.js"
import { defineOperation } from "../protocol/Operation.js"
import {
  GetNotificationConfigInput,
  NotificationConfigSetResult,
  NotificationConfigsResult,
  SetNotificationConfigInput
} from "./NotificationPreferenceSchemas.js"
import { NotificationPreferences } from "./NotificationPreferences.js"
import { Notifications } from "./Notifications.js"
import {
  AddNotificationInput,
  AddNotificationResult,
  DeleteNotificationsInput,
  GetNotificationsInput,
  NotificationsPage,
  PerIdResult,
  UpdateNotificationsInput
} from "./NotificationSchemas.js"

export const notificationOperations = [
  defineOperation({
    name: "notifications.add",
    paths: ["/v2/notifications/add"],
    auth: "apiKey",
    summary: "Add a notification for users (notifyUsers) or every user of the organization who may read the document (notifyAll); a notificationId given twice adds it once.",
    input: AddNotificationInput,
    output: AddNotificationResult,
    organization: (input) => input.organizationId,
    service: Notifications,
    handler: (notifications, input, caller) => Effect.map(notifications.add(caller.apiKey, input), answer("Notification added successfully."))
  }),
  defineOperation({
    name: "notifications.get",
    paths: ["/v2/notifications/get"],
    auth: "apiKey",
    summary: "A document's notifications, or a user's view of them (forYou: addressed to them; all: every one of documents they may read), newest first, in pages.",
    input: GetNotificationsInput,
    output: NotificationsPage,
    errors: ["INVALID_ARGUMENT"],
    organization: (input) => input.organizationId,
    service: Notifications,
    handler: (notifications, input, caller) =>
      Effect.map(notifications.get(caller.apiKey, input), answerPage("Notification(s) retrieved successfully.", "pageToken"))
  }),
  defineOperation({
    name: "notifications.update",
    paths: ["/v2/notifications/update"],
    auth: "apiKey",
    summary: "Change notifications' content, or mark them read for users (readByUserIds; persistReadForUsers keeps them in the users' for-you view); answered per id.",
    input: UpdateNotificationsInput,
    output: PerIdResult,
    organization: (input) => input.organizationId,
    service: Notifications,
    handler: (notifications, input, caller) => Effect.map(notifications.update(caller.apiKey, input), answer("Notification(s) updated successfully."))
  }),
  defineOperation({
    name: "notifications.delete",
    paths: ["/v2/notifications/delete"],
    auth: "apiKey",
    summary: "Delete notifications by id, document or location (with userId: from that user's inbox only); answered per id.",
    input: DeleteNotificationsInput,
    output: PerIdResult,
    errors: ["INVALID_ARGUMENT"],
    organization: (input) => input.organizationId,
    service: Notifications,
    handler: (notifications, input, caller) => Effect.map(notifications.delete(caller.apiKey, input), answer("Notification(s) deleted successfully."))
  }),
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
