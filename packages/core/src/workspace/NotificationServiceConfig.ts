import * as Effect from "effect/Effect"
import type { SettingsRepo } from "./SettingsRepo.js"
import type { NotificationServiceSettings, UpdateNotificationServiceInput } from "./WorkspaceSettingsSchemas.js"

export type NotificationService = typeof NotificationServiceSettings.Type

/** Until configured: everything off, the smallest allowed numbers (docs/compatibility.md, "Workspace settings"). */
export const DEFAULT_NOTIFICATION_SERVICE: NotificationService = {
  useNotificationService: false,
  notificationServiceConfig: {
    triggers: { comment: {}, huddle: {} },
    delayConfig: { isEnabled: false, delaySeconds: 10 },
    batchConfig: {
      document: { isEnabled: false, batchWindowSeconds: 10, maxActivities: 2 },
      user: { isEnabled: false, batchWindowSeconds: 10, maxActivities: 2 }
    }
  }
}

/** The settings document's name (SettingsRepo). */
export const NOTIFICATION_SERVICE = "notificationService"

/** The key's notification-service settings as stored, or the defaults. */
export const storedNotificationService = (settings: SettingsRepo["Type"], apiKey: string): Effect.Effect<NotificationService> =>
  Effect.map(settings.get(apiKey, NOTIFICATION_SERVICE), (stored) => (stored as NotificationService | undefined) ?? DEFAULT_NOTIFICATION_SERVICE)

/**
 * Turned on by the first enable (docs/compatibility.md, "Workspace settings": "the default comment triggers and all huddle
 * triggers"); the names are Atrium's, the hosted service does not publish its list.
 */
export const SEEDED_TRIGGERS = {
  comment: { add: true, reply: true, mention: true, reaction: false, statusChange: true },
  huddle: { create: true, join: true }
} as const

/**
 * The update merged key by key over the stored settings. An update that enables the service
 * first fills in the seeded triggers not set yet, then applies the update over them; delay and
 * batching stay as they are. Triggers are switched off, never removed, so only the first
 * enable changes anything: a trigger turned off stays off when the service is enabled again.
 */
export const mergeNotificationService = (
  current: NotificationService,
  update: typeof UpdateNotificationServiceInput.Type
): NotificationService => {
  const seed = update.useNotificationService === true
  const { batchConfig, delayConfig, triggers } = current.notificationServiceConfig
  const patch = update.notificationServiceConfig
  return {
    useNotificationService: update.useNotificationService ?? current.useNotificationService,
    notificationServiceConfig: {
      triggers: {
        comment: { ...(seed && SEEDED_TRIGGERS.comment), ...triggers.comment, ...patch?.triggers?.comment },
        huddle: { ...(seed && SEEDED_TRIGGERS.huddle), ...triggers.huddle, ...patch?.triggers?.huddle }
      },
      delayConfig: { ...delayConfig, ...patch?.delayConfig },
      batchConfig: {
        document: { ...batchConfig.document, ...patch?.batchConfig?.document },
        user: { ...batchConfig.user, ...patch?.batchConfig?.user }
      }
    }
  }
}
