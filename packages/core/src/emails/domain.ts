import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { defineDomain } from "../Domain.js"
import { NotificationsLayer } from "../notifications/domain.js"
import { NotificationPreferences } from "../notifications/NotificationPreferences.js"
import { Emails } from "./Emails.js"
import { NotificationEmails } from "./NotificationEmails.js"
import { SqlEmailsRepo } from "./SqlEmailsRepo.js"

/** Email (docs/notifications.md, "Email"): notifications mailed after their delay, alone or in digests, once across servers. */
export const emailsDomain = defineDomain({
  name: "emails",
  operations: [],
  services: [Emails.Default.pipe(Layer.provide(NotificationsLayer))],
  repositories: [SqlEmailsRepo],
  dataTables: [
    // A user's waiting emails are theirs and go with a document they name.
    { name: "email_items", apiKey: "api_key", organization: "organization_id", user: "user_id", document: "document_id" },
    { name: "outgoing_emails", apiKey: "api_key", organization: "organization_id", user: "user_id", json: ["mail", "notification_ids"] }
  ],
  events: {
    // The same Layer as the notifications domain's (Layers are shared by reference): one instance.
    services: NotificationEmails.Default.pipe(Layer.provide(NotificationPreferences.Default)),
    listeners: Effect.map(NotificationEmails, (emails) => [emails.listener])
  }
})
