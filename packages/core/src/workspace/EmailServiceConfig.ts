import * as Effect from "effect/Effect"
import type { SettingsRepo } from "./SettingsRepo.js"
import type { EmailServiceSettings, UpdateEmailServiceInput } from "./WorkspaceSettingsSchemas.js"

export type EmailService = typeof EmailServiceSettings.Type

/**
 * Until configured: on, through the server's SMTP settings, every trigger on. Whether anything is
 * mailed is the operator's choice (ATRIUM_SMTP_URL); a workspace may turn its email off.
 */
export const DEFAULT_EMAIL_SERVICE: EmailService = {
  useEmailService: true,
  emailServiceConfig: { type: "default", triggers: { comment: {} } }
}

/** The settings document's name (SettingsRepo). */
export const EMAIL_SERVICE = "emailService"

/** The key's email settings as stored, or the defaults. */
export const storedEmailService = (settings: SettingsRepo["Type"], apiKey: string): Effect.Effect<EmailService> =>
  Effect.map(settings.get(apiKey, EMAIL_SERVICE), (stored) => (stored as EmailService | undefined) ?? DEFAULT_EMAIL_SERVICE)

/** The update merged key by key over the stored settings (triggers one by one). */
export const mergeEmailService = (current: EmailService, update: typeof UpdateEmailServiceInput.Type): EmailService => {
  const { triggers, ...config } = current.emailServiceConfig
  const { triggers: patchTriggers, ...patch } = update.emailServiceConfig ?? {}
  return {
    useEmailService: update.useEmailService ?? current.useEmailService,
    emailServiceConfig: { ...config, ...patch, type: "default", triggers: { comment: { ...triggers.comment, ...patchTriggers?.comment } } }
  }
}
