import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import { accessEvents } from "../access/AccessEvents.js"
import { AtriumConfig } from "../Config.js"
import { hashSecret, newSecret } from "../crypto/Secrets.js"
import { internal, invalidArgument, notFound } from "../protocol/ApiError.js"
import { RateLimiter } from "../protocol/RateLimiter.js"
import { Events } from "../events/Events.js"
import { Mailer } from "../ports/Mailer.js"
import { Transactions } from "../ports/Transactions.js"
import { ACTIVITY_SERVICE, type ActivityService, mergeActivityService, storedActivityService } from "./ActivityServiceConfig.js"
import { API_KEY_CONFIG_SETTING, storedApiKeyConfig } from "./ApiKeyConfig.js"
import { DomainOrigins } from "./DomainOrigins.js"
import { normalizeDomains } from "./Domains.js"
import { DomainsRepo } from "./DomainsRepo.js"
import { EMAIL_SERVICE, mergeEmailService, storedEmailService } from "./EmailServiceConfig.js"
import { continueUrlCheck, isDisposableEmail } from "./EmailRules.js"
import { LoginLinksRepo } from "./LoginLinksRepo.js"
import { mergeNotificationService, NOTIFICATION_SERVICE, storedNotificationService } from "./NotificationServiceConfig.js"
import { masked, mergePermissionProvider, PERMISSION_PROVIDER_SETTING, storedPermissionProvider } from "./PermissionProviderConfig.js"
import { SettingsRepo } from "./SettingsRepo.js"
import { DISPOSABLE_EMAIL } from "./Workspaces.js"
import type {
  DomainsInput,
  EmailStatusInput,
  SendLoginLinkInput,
  UpdateActivityServiceInput,
  UpdateApiKeyConfigInput,
  UpdateEmailServiceInput,
  UpdateNotificationServiceInput,
  UpdatePermissionProviderInput
} from "./WorkspaceSettingsSchemas.js"
import { WorkspaceRepo } from "./WorkspaceRepo.js"

export const DOMAINS_ADDED = "Domain(s) added successfully to allowed domains."
export const DOMAINS_REMOVED = "Domain(s) removed successfully from allowed domains."

/** A login link works for 15 minutes. */
export const LOGIN_LINK_TTL_MILLIS = 15 * 60 * 1000
/** The query parameter of `continueUrl` that carries the one-time token. */
export const LOGIN_TOKEN_PARAMETER = "loginToken"

const signInMail = (email: string, link: string) => ({
  to: email,
  subject: "Your sign-in link",
  text: `Use this link to sign in. It works once, for the next 15 minutes:\n\n${link}\n\n` +
    "If you did not ask for it, ignore this mail: nothing changes until the link is used."
})

/**
 * Per-API-key workspace settings (allowed domains, permission provider, notification service)
 * and the public login link for workspace owners.
 */
export class WorkspaceSettings extends Effect.Service<WorkspaceSettings>()("@atrium/core/WorkspaceSettings", {
  accessors: true,
  effect: Effect.gen(function*() {
    const settings = yield* SettingsRepo
    const domains = yield* DomainsRepo
    const origins = yield* DomainOrigins
    const loginLinks = yield* LoginLinksRepo
    const workspaces = yield* WorkspaceRepo
    const limiter = yield* RateLimiter
    const mailer = yield* Mailer
    const config = yield* AtriumConfig
    const events = yield* Events
    const { lock, withTransaction } = yield* Transactions

    const permissionProvider = (apiKey: string) => storedPermissionProvider(settings, apiKey)

    const notificationService = (apiKey: string) => storedNotificationService(settings, apiKey)

    return {
      /**
       * As the hosted service (docs/compatibility.md, "Workspace settings"): when some domains were already allowed the answer is an INTERNAL error
       * carrying both lists, but the new ones are added all the same (committed before failing).
       */
      addDomains: (apiKey: string, input: typeof DomainsInput.Type) =>
        Effect.gen(function*() {
          const wanted = normalizeDomains(input.domains).valid // the schema refused invalid entries
          const added = yield* domains.add(apiKey, wanted, yield* Clock.currentTimeMillis)
          origins.forget(apiKey) // a browser at a new domain is admitted at its next call
          if (added.length < wanted.length) {
            const skippedDomains = wanted.filter((domain) => !added.includes(domain))
            return yield* internal(`${DOMAINS_ADDED} Skipped existing domains.`, { domainsAdded: added, skippedDomains })
          }
          return { domainsAdded: added }
        }),

      getDomains: (apiKey: string) =>
        Effect.map(domains.list(apiKey), (allowedDomains) => ({ allowedDomains })),

      /** Spec: domains/delete. Entries not in the list are reported as INTERNAL, the others still removed. */
      deleteDomains: (apiKey: string, input: typeof DomainsInput.Type) =>
        Effect.gen(function*() {
          const wanted = normalizeDomains(input.domains).valid
          const removed = yield* domains.remove(apiKey, wanted)
          origins.forget(apiKey)
          if (removed.length < wanted.length) {
            const skippedDomains = wanted.filter((domain) => !removed.includes(domain))
            return yield* internal(`${DOMAINS_REMOVED} Skipped non-existing domains.`, { domainsRemoved: removed, skippedDomains })
          }
          return { domainsRemoved: removed }
        }),

      /** Spec: permissionproviderconfig/get. The auth token is masked. */
      getPermissionProviderConfig: (apiKey: string) =>
        Effect.map(permissionProvider(apiKey), masked),

      updatePermissionProviderConfig: (apiKey: string, input: typeof UpdatePermissionProviderInput.Type) =>
        Effect.gen(function*() {
          if (input.usePermissionProvider === undefined && input.permissionProviderConfig === undefined) {
            return yield* invalidArgument("At least one of usePermissionProvider or permissionProviderConfig must be provided")
          }
          const updated = yield* withTransaction(Effect.gen(function*() {
            yield* lock("settings", apiKey, PERMISSION_PROVIDER_SETTING) // a merge: concurrent updates apply one after the other
            const next = mergePermissionProvider(yield* permissionProvider(apiKey), input)
            yield* settings.put(apiKey, PERMISSION_PROVIDER_SETTING, next)
            // The provider decides in place of stored grants while it is on: realtime re-checks the key's readers.
            yield* events.emit(apiKey, [accessEvents.permissionProviderUpdated(next.usePermissionProvider)])
            return next
          }))
          return masked(updated)
        }),

      /** apikeyconfig/get: the key's default document access type. */
      getApiKeyConfig: (apiKey: string) => storedApiKeyConfig(settings, apiKey),

      /** apikeyconfig/update: writes the fields given and answers them (the facts); emits `access.default_type_updated`. */
      updateApiKeyConfig: (apiKey: string, input: typeof UpdateApiKeyConfigInput.Type) =>
        Effect.gen(function*() {
          const { defaultDocumentAccessType } = input
          if (defaultDocumentAccessType === undefined) return yield* invalidArgument("At least one field must be provided for update")
          yield* withTransaction(Effect.gen(function*() {
            yield* lock("settings", apiKey, API_KEY_CONFIG_SETTING)
            yield* settings.put(apiKey, API_KEY_CONFIG_SETTING, { ...(yield* storedApiKeyConfig(settings, apiKey)), defaultDocumentAccessType })
            yield* events.emit(apiKey, [accessEvents.defaultTypeUpdated(defaultDocumentAccessType)])
          }))
          return { defaultDocumentAccessType }
        }),

      /** Spec: notificationconfig/get. */
      getNotificationConfig: (apiKey: string) => notificationService(apiKey),

      getEmailConfig: (apiKey: string) => storedEmailService(settings, apiKey),

      getActivityConfig: (apiKey: string) => storedActivityService(settings, apiKey),

      /** activityconfig/update (compatibility facts §1.3): merged, under the setting's lock; the first enable stamps its time. */
      updateActivityConfig: (apiKey: string, input: typeof UpdateActivityServiceInput.Type) =>
        withTransaction(Effect.gen(function*() {
          yield* lock("settings", apiKey, ACTIVITY_SERVICE)
          const stored = (yield* settings.get(apiKey, ACTIVITY_SERVICE)) as ActivityService | undefined
          const next = mergeActivityService(stored, input, yield* Clock.currentTimeMillis)
          yield* settings.put(apiKey, ACTIVITY_SERVICE, next)
          return next
        })),

      updateEmailConfig: (apiKey: string, input: typeof UpdateEmailServiceInput.Type) =>
        Effect.gen(function*() {
          if (input.useEmailService === undefined && input.emailServiceConfig === undefined) {
            return yield* invalidArgument("Invalid email service configuration: at least one of useEmailService or emailServiceConfig must be provided.")
          }
          return yield* withTransaction(Effect.gen(function*() {
            yield* lock("settings", apiKey, EMAIL_SERVICE)
            const next = mergeEmailService(yield* storedEmailService(settings, apiKey), input)
            yield* settings.put(apiKey, EMAIL_SERVICE, next)
            return next
          }))
        }),

      updateNotificationConfig: (apiKey: string, input: typeof UpdateNotificationServiceInput.Type) =>
        Effect.gen(function*() {
          if (input.useNotificationService === undefined && input.notificationServiceConfig === undefined) {
            return yield* invalidArgument("At least one of useNotificationService or notificationServiceConfig must be provided")
          }
          const updated = yield* withTransaction(Effect.gen(function*() {
            yield* lock("settings", apiKey, NOTIFICATION_SERVICE)
            const next = mergeNotificationService(yield* notificationService(apiKey), input)
            yield* settings.put(apiKey, NOTIFICATION_SERVICE, next)
            return next
          }))
          return updated
        }),

      /**
       * workspace/email/status (public; compatibility facts §1.1): whether the email owns a workspace whose email is
       * verified. Atrium asks no verification step of an owner (workspace/create is the owner's own call, its key
       * usable at once), so an owner's email is always verified: `{verified: true}`; an email that owns none is
       * NOT_FOUND "User not found", as the hosted service answers. Rate limited per client address with the login
       * link's budget, as the facts say it is: the answer tells owners apart, so guessing must stay slow.
       */
      emailStatus: (input: typeof EmailStatusInput.Type, ip: string) =>
        Effect.gen(function*() {
          yield* limiter.consume([[`email-status:ip:${ip}`, config.rateLimits.loginLinkPerIp]])
          if ((yield* workspaces.countWorkspacesOwnedBy(input.ownerEmail)) === 0) return yield* notFound("User not found")
          return { verified: true }
        }),

      /**
       * Spec: email/send-login-link (public). The answer is the same whether or not the email owns
       * a workspace, so it cannot be used to find out who has an account; only owners get a mail.
       */
      sendLoginLink: (input: typeof SendLoginLinkInput.Type, ip: string) =>
        Effect.gen(function*() {
          switch (continueUrlCheck(input.continueUrl, config.consoleDomain)) {
            case "invalid-url":
              return yield* invalidArgument("Invalid url for continueUrl")
            case "domain-not-allowed":
              return yield* invalidArgument("The continueUrl domain is not allowed.")
          }
          if (isDisposableEmail(input.email, config.disposableEmailDomains)) return yield* invalidArgument(DISPOSABLE_EMAIL)
          // Case variants of one address share a budget.
          yield* limiter.consume([
            [`login-link:email:${input.email.toLowerCase()}`, config.rateLimits.loginLinkPerEmail],
            [`login-link:ip:${ip}`, config.rateLimits.loginLinkPerIp]
          ])
          if ((yield* workspaces.countWorkspacesOwnedBy(input.email)) > 0) {
            const now = yield* Clock.currentTimeMillis
            const token = newSecret()
            yield* loginLinks.deleteExpired(now)
            yield* loginLinks.insert({ tokenHash: hashSecret(token), email: input.email, createdAt: now, expiresAt: now + LOGIN_LINK_TTL_MILLIS })
            const link = new URL(input.continueUrl)
            link.searchParams.set(LOGIN_TOKEN_PARAMETER, token)
            // A mail that cannot go out is logged, not answered: an error only an owner's email
            // could cause would tell owners from everyone else.
            // Sent at once, not through the stored email queue: the link's token must not rest in
            // the database in clear. A passing SMTP failure is tried twice more.
            yield* mailer.send(signInMail(input.email, link.toString())).pipe(
              Effect.retry({ times: 2, schedule: Schedule.exponential("500 millis"), while: (error) => !error.permanent }),
              Effect.catchAllCause((cause) => Effect.logError("Login link mail could not be sent.", cause))
            )
          }
        })
    }
  })
}) {}
