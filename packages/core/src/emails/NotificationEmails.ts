import * as Effect from "effect/Effect"
import type { EventListener, NewEvent } from "../events/EventListener.js"
import { triggerOf } from "../notifications/CommentNotifications.js"
import { NotificationPreferences } from "../notifications/NotificationPreferences.js"
import { NotificationPreferencesRepo } from "../notifications/NotificationPreferencesRepo.js"
import type { Notification } from "../notifications/NotificationSchemas.js"
import { Mailer } from "../ports/Mailer.js"
import { UsersRepo } from "../users/UsersRepo.js"
import { storedEmailService } from "../workspace/EmailServiceConfig.js"
import { storedNotificationService } from "../workspace/NotificationServiceConfig.js"
import { SettingsRepo } from "../workspace/SettingsRepo.js"
import { type EmailItem, EmailsRepo } from "./EmailsRepo.js"

/**
 * Email's listener of domain events (docs/notifications.md, "Email"): for each notification made
 * (`notification.add`), in its transaction, an email item for each user to be mailed, so that a
 * crash after the commit loses none. Who: its recipients whose email preference for the document
 * is MINE or ALL, and the users who set it to ALL there (less the actor); each with an email
 * address. Whether they may read it is judged when it is mailed, as it stands then.
 */
export class NotificationEmails extends Effect.Service<NotificationEmails>()("@atrium/core/NotificationEmails", {
  effect: Effect.gen(function*() {
    const emails = yield* EmailsRepo
    const preferences = yield* NotificationPreferences
    const preferencesRepo = yield* NotificationPreferencesRepo
    const users = yield* UsersRepo
    const settings = yield* SettingsRepo
    const mailer = yield* Mailer

    const itemsOf = (apiKey: string, at: number, event: NewEvent, delayMillis: number, triggers: Readonly<Record<string, boolean>>) =>
      Effect.gen(function*() {
        const notification = event.data as unknown as Notification
        const trigger = triggerOf(notification.actionType)
        if (trigger !== undefined && triggers[trigger] === false) return []
        const { documentId, organizationId } = notification.metadata as { readonly organizationId: string; readonly documentId: string }
        const actor = (notification.actionUser as { readonly userId?: string } | undefined)?.userId
        const involved = Object.keys(notification.notifyUsersByUserId ?? {})
        const everything = yield* preferencesRepo.emailAllIn(apiKey, organizationId, documentId)
        const candidates = [...new Set([...involved, ...everything])].filter((userId) => userId !== actor)
        if (candidates.length === 0) return []
        // Only users with an address are worth asking for their preferences.
        const addressed = (yield* users.findUsers(apiKey, candidates)).filter((user) => user.email).map((user) => user.userId)
        const channels = yield* preferences.usersChannelsIn(apiKey, organizationId, addressed, documentId)
        const items: Array<EmailItem> = []
        for (const userId of addressed) {
          const channel = channels.get(userId)?.email
          if (channel === "NONE" || (channel === "MINE" && !involved.includes(userId))) continue
          const dueAt = at + delayMillis
          items.push({ apiKey, organizationId, notificationId: notification.id, userId, documentId, createdAt: at, dueAt, nextCheckAt: dueAt })
        }
        return items
      })

    const listener: EventListener = {
      name: "emails",
      // Only changes that make notifications, and nothing where nothing would send it (the log
      // mailer): other writes build no events for it.
      follows: (_apiKey, notifying) => Effect.succeed(notifying && mailer.delivers),
      plain: true,
      inTransaction: ({ apiKey, at, events }) => {
        const added = events.filter((event) => event.type === "notification.add")
        if (added.length === 0) return Effect.void
        return Effect.gen(function*() {
          const email = yield* storedEmailService(settings, apiKey)
          if (!email.useEmailService) return
          const service = yield* storedNotificationService(settings, apiKey)
          const { delayConfig } = service.notificationServiceConfig
          const delayMillis = service.useNotificationService && delayConfig.isEnabled ? delayConfig.delaySeconds * 1000 : 0
          const items = yield* Effect.forEach(added, (event) => itemsOf(apiKey, at, event, delayMillis, email.emailServiceConfig.triggers.comment))
          yield* emails.insertItems(items.flat())
        })
      }
    }
    return { listener }
  })
}) {}
