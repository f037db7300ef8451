import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { DocumentAccessLayer } from "../access/domain.js"
import { defineDomain } from "../Domain.js"
import { clientNotificationOperations } from "./clientOperations.js"
import { commentEventPreferences } from "./CommentEventPreferences.js"
import { CommentNotifications } from "./CommentNotifications.js"
import { NotificationPreferences } from "./NotificationPreferences.js"
import { Notifications } from "./Notifications.js"
import { notificationOperations } from "./operations.js"
import { SqlNotificationPreferencesRepo } from "./SqlNotificationPreferencesRepo.js"
import { SqlNotificationsRepo } from "./SqlNotificationsRepo.js"

/** The Notifications service, one instance however many domains use it (Layers are shared by reference): realtime pushes with it. */
export const NotificationsLayer = Notifications.Default.pipe(Layer.provide(NotificationPreferences.Default))

/** Notifications (docs/notifications.md): those comment changes make and hosts add, each user's inbox, and per-user settings. */
export const notificationsDomain = defineDomain({
  name: "notifications",
  operations: [...notificationOperations, ...clientNotificationOperations],
  // The same Layers as the access domain's and this list's (Layers are shared by reference): one instance of each.
  services: [NotificationPreferences.Default, NotificationsLayer],
  repositories: [SqlNotificationPreferencesRepo, SqlNotificationsRepo],
  dataTables: [
    // Per-user settings; the organization-level default has document_id ''.
    { name: "notification_preferences", apiKey: "api_key", organization: "organization_id", user: "user_id", document: "document_id", documentInKey: true },
    // Notifications of a document move with it; a user's state in them is theirs.
    {
      name: "notifications",
      apiKey: "api_key",
      organization: "organization_id",
      document: "document_id",
      json: ["record"],
      // A notification whose content carries a user (who acted, whose comment) is that user's data too.
      mentions: { column: "record", user: (userId) => [`"userId":${JSON.stringify(userId)}`] },
      children: [{ table: "notification_recipients", on: [["api_key", "api_key"], ["organization_id", "organization_id"], ["notification_id", "id"]] }]
    },
    { name: "notification_recipients", apiKey: "api_key", organization: "organization_id", user: "user_id" }
  ],
  events: {
    services: Layer.merge(CommentNotifications.Default.pipe(Layer.provide(DocumentAccessLayer)), NotificationPreferences.Default),
    listeners: Effect.map(CommentNotifications, (notifications) => [notifications.listener]),
    // Comment events carry the involved users' preferences, whoever listens (docs/notifications.md, "Slack and other channels").
    enrichers: Effect.map(NotificationPreferences, (preferences) => [commentEventPreferences(preferences)])
  },
  tags: [{ name: "notifications", description: "Notifications, each user's inbox of them, and per-user notification settings." }]
})
