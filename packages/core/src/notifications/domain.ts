import { defineDomain } from "../Domain.js"
import { NotificationPreferences } from "./NotificationPreferences.js"
import { notificationOperations } from "./operations.js"
import { SqlNotificationPreferencesRepo } from "./SqlNotificationPreferencesRepo.js"

/** Per-user notification settings. */
export const notificationsDomain = defineDomain({
  name: "notifications",
  operations: notificationOperations,
  services: [NotificationPreferences.Default],
  repositories: [SqlNotificationPreferencesRepo],
  dataTables: [
    // Per-user settings; the organization-level default has document_id ''.
    { name: "notification_preferences", apiKey: "api_key", organization: "organization_id", user: "user_id", document: "document_id", documentInKey: true }
  ],
  tags: [{ name: "notifications", description: "Per-user notification settings." }]
})
