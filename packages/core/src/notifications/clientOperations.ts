import * as Effect from "effect/Effect"
import { answer, successPage } from "../protocol/Envelope.js"
import { defineOperation } from "../protocol/Operation.js"
import {
  ClientGetNotificationConfigInput,
  ClientSetNotificationConfigInput,
  NotificationConfigSetResult,
  NotificationConfigsResult
} from "./NotificationPreferenceSchemas.js"
import { NotificationPreferences } from "./NotificationPreferences.js"
import { Notifications } from "./Notifications.js"
import {
  ClientGetNotificationsInput,
  ClientNotificationsPage,
  ClientUpdateNotificationsInput,
  ClientUpdateNotificationsResult
} from "./NotificationSchemas.js"

/**
 * The client API's notification operations (spec client-api.md, "Operations"): the user's own
 * inbox and preferences, as the token's user (its token's entries count for the access rule).
 */
export const clientNotificationOperations = [
  defineOperation({
    name: "client.notifications.get",
    paths: ["/v2/client/notifications/get"],
    auth: "user",
    summary: "The acting user's notifications (forYou, the default, or all), each with readAt, and their unread count beside data.",
    input: ClientGetNotificationsInput,
    output: ClientNotificationsPage,
    errors: ["INVALID_ARGUMENT"],
    organization: (input) => input.organizationId,
    service: Notifications,
    handler: (notifications, input, caller) =>
      Effect.gen(function*() {
        const filters = {
          ...(input.documentId !== undefined && { documentId: input.documentId }),
          ...(input.locationId !== undefined && { locationId: input.locationId }),
          ...(input.notificationIds !== undefined && { ids: [...new Set(input.notificationIds)].sort() })
        }
        const page = yield* notifications.pageOfView(caller, input.organizationId, input.view ?? "forYou", filters, input.order ?? "desc", input.pageToken, input.pageSize ?? 1000)
        const unreadCount = yield* notifications.unreadCount(caller, input.organizationId)
        return { ...successPage("Notification(s) retrieved successfully.", page.items, page.next, "pageToken"), unreadCount }
      })
  }),
  defineOperation({
    name: "client.notifications.update",
    paths: ["/v2/client/notifications/update"],
    auth: "user",
    summary: "Mark notifications read for the acting user (notificationIds, answered per id), or all of their unread ones (all: true).",
    input: ClientUpdateNotificationsInput,
    output: ClientUpdateNotificationsResult,
    organization: (input) => input.organizationId,
    service: Notifications,
    handler: (notifications, input, caller) =>
      Effect.gen(function*() {
        const data = yield* notifications.markRead(caller, input.organizationId, input.notificationIds ?? "all")
        const unreadCount = yield* notifications.unreadCount(caller, input.organizationId)
        return { ...answer("Notification(s) updated successfully.")(data), unreadCount }
      })
  }),
  defineOperation({
    name: "client.notifications.config.get",
    paths: ["/v2/client/notifications/config/get"],
    auth: "user",
    summary: "The acting user's notification preferences for documents, or their organization-level default.",
    input: ClientGetNotificationConfigInput,
    output: NotificationConfigsResult,
    organization: (input) => input.organizationId,
    service: NotificationPreferences,
    handler: (preferences, input, caller) =>
      Effect.map(preferences.get(caller.apiKey, { ...input, userId: caller.userId }), answer("User config fetched successfully."))
  }),
  defineOperation({
    name: "client.notifications.config.set",
    paths: ["/v2/client/notifications/config/set"],
    auth: "user",
    summary: "Set the acting user's notification preferences (inbox, email, slack) for documents, or as their organization-level default.",
    input: ClientSetNotificationConfigInput,
    output: NotificationConfigSetResult,
    organization: (input) => input.organizationId,
    service: NotificationPreferences,
    handler: (preferences, input, caller) =>
      Effect.map(preferences.set(caller.apiKey, { ...input, userIds: [caller.userId] }), answer("User config set successfully."))
  })
] as const
