import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { CommentsRepo } from "../comments/CommentsRepo.js"
import { AtriumConfig } from "../Config.js"
import { Notifications } from "../notifications/Notifications.js"
import { type NotificationRow, NotificationsRepo } from "../notifications/NotificationsRepo.js"
import { Ids } from "../ports/Ids.js"
import { MailError, Mailer } from "../ports/Mailer.js"
import { lockInOrder, Transactions } from "../ports/Transactions.js"
import { UsersRepo } from "../users/UsersRepo.js"
import { type EmailService, storedEmailService } from "../workspace/EmailServiceConfig.js"
import { type NotificationService, storedNotificationService } from "../workspace/NotificationServiceConfig.js"
import { SettingsRepo } from "../workspace/SettingsRepo.js"
import { planDigests } from "./Digests.js"
import { composeMail } from "./EmailContent.js"
import { type EmailItem, EmailsRepo, type OutgoingEmail, type Recipient } from "./EmailsRepo.js"

/** Recipients one look composes for at most; the pass looks again while it finds that many. */
const RECIPIENTS_PER_LOOK = 100

/** What a key's email and notification-service settings say, as a look composes with them. */
interface KeySettings {
  readonly email: EmailService
  readonly service: NotificationService
}

const OFF = { isEnabled: false, batchWindowSeconds: 10, maxActivities: 2 }

/**
 * Email (docs/notifications.md, "Email"): items become emails once their delay is over and the
 * user has not seen them meanwhile, alone or gathered in digests; emails go out through the
 * Mailer, each claimed by one server, retried on failure. Every step is a row in storage, so many
 * servers share the work and a crash loses nothing (an email sent just before a crash, its
 * success not yet written, is sent once more: at least once, never lost).
 */
export class Emails extends Effect.Service<Emails>()("@atrium/core/Emails", {
  effect: Effect.gen(function*() {
    const repo = yield* EmailsRepo
    const notificationsRepo = yield* NotificationsRepo
    const notifications = yield* Notifications
    const comments = yield* CommentsRepo
    const users = yield* UsersRepo
    const settings = yield* SettingsRepo
    const mailer = yield* Mailer
    const ids = yield* Ids
    const { lock, withTransaction } = yield* Transactions
    const config = (yield* AtriumConfig).emails

    /**
     * The due items the user may still be mailed, with their notifications; the others (the
     * notification gone or no longer theirs to read, or read, or its thread read since: the seen
     * check) are dropped.
     */
    const judge = (recipient: Recipient, due: ReadonlyArray<EmailItem>) =>
      Effect.gen(function*() {
        const kept: Array<{ readonly item: EmailItem; readonly row: NotificationRow } & EmailItem> = []
        const organizations = [...new Set(due.map((item) => item.organizationId))]
        for (const organizationId of organizations) {
          const items = due.filter((item) => item.organizationId === organizationId)
          const idList = [...new Set(items.map((item) => item.notificationId))].sort()
          const views = yield* notificationsRepo.pageFor(recipient.apiKey, organizationId, recipient.userId, "all", { ids: idList }, { order: "asc", limit: idList.length })
          const readable = new Map((yield* notifications.readableBy(recipient, organizationId)(views)).map((view) => [view.row.id, view]))
          const annotationIds = [...new Set([...readable.values()].flatMap((view) => view.row.annotationId ?? []))]
          const threadReadAt = yield* comments.readAtOf(recipient.apiKey, organizationId, recipient.userId, annotationIds)
          for (const item of items) {
            const view = readable.get(item.notificationId)
            if (view === undefined || view.state?.readAt != null || view.state?.deletedAt != null) continue
            const annotationId = view.row.annotationId
            if (annotationId !== null && (threadReadAt.get(annotationId) ?? -1) >= view.row.createdAt) continue
            kept.push({ ...item, item, row: view.row })
          }
        }
        return kept
      })

    /** Under the recipient's lock: what is due becomes emails (or is dropped); what waits for its digest is looked at when that closes. */
    const composeFor = (recipient: Recipient, now: number, settingsOf: (apiKey: string) => Effect.Effect<KeySettings>) =>
      Effect.gen(function*() {
        const items = yield* repo.itemsOf(recipient)
        const due = items.filter((item) => item.dueAt <= now)
        if (due.length === 0) return 0
        const address = (yield* users.findUser(recipient.apiKey, recipient.userId))?.email
        const { email, service } = yield* settingsOf(recipient.apiKey)
        const kept = address && email.useEmailService ? yield* judge(recipient, due) : []
        const rules = service.useNotificationService ? service.notificationServiceConfig.batchConfig : { document: OFF, user: OFF }
        const plan = planDigests(kept, rules, now)
        for (const send of plan.sends) {
          yield* repo.insertOutgoing({
            apiKey: recipient.apiKey,
            id: yield* ids.make("email"),
            organizationId: send.items[0]!.organizationId,
            userId: recipient.userId,
            mail: composeMail(address!, send.items.map((item) => item.row), send.scope, email.emailServiceConfig),
            notificationIds: send.items.map((item) => item.notificationId),
            attempts: 0,
            nextAttemptAt: now,
            createdAt: now
          })
        }
        const taken = new Set(plan.sends.flatMap((send) => send.items.map((item) => item.item)))
        const waiting = kept.filter((entry) => !taken.has(entry.item)).map((entry) => entry.item)
        const waitingSet = new Set(waiting)
        yield* repo.deleteItems(recipient, due.filter((item) => !waitingSet.has(item)))
        if (waiting.length > 0) yield* repo.recheckItems(recipient, waiting, plan.nextCheckAt ?? now + config.pollIntervalMillis)
        return plan.sends.length
      })

    /**
     * Every recipient with something to look at now: the emails composed. A look's recipients are
     * composed in one transaction under their locks (taken in one order): one commit for many, and
     * two servers never compose one user's emails at once.
     */
    const compose = Effect.gen(function*() {
      let composed = 0
      for (;;) {
        const now = yield* Clock.currentTimeMillis
        const recipients = yield* repo.recipientsToCheck(now, RECIPIENTS_PER_LOOK)
        // Each key's settings read once a look, however many of its users it composes for.
        const read = new Map<string, KeySettings>()
        const settingsOf = (apiKey: string) =>
          read.has(apiKey) ? Effect.succeed(read.get(apiKey)!) : Effect.tap(
            Effect.all({ email: storedEmailService(settings, apiKey), service: storedNotificationService(settings, apiKey) }),
            (found) => Effect.sync(() => read.set(apiKey, found))
          )
        composed += yield* withTransaction(Effect.gen(function*() {
          yield* lockInOrder(lock, recipients.map((recipient) => ["emails", recipient.apiKey, recipient.userId]))
          let made = 0
          for (const recipient of recipients) made += yield* composeFor(recipient, now, settingsOf)
          return made
        }))
        if (recipients.length < RECIPIENTS_PER_LOOK) return composed
      }
    })

    /** One claimed email through the mailer: undefined when it went out, else why not. */
    const attempt = (email: OutgoingEmail) =>
      Effect.map(
        Effect.either(mailer.send(email.mail).pipe(
          Effect.catchAllDefect((defect) => Effect.fail(new MailError({ message: String(defect), permanent: false })))
        )),
        (outcome) => Either.isRight(outcome) ? undefined : outcome.left
      )

    /** A failed email: due again after the schedule's next delay, or failed for good. */
    const recordFailure = (owner: string, email: OutgoingEmail, error: MailError) =>
      Effect.gen(function*() {
        const attempts = email.attempts + 1
        const delay = config.retrySchedule[attempts]
        const next = error.permanent || delay === undefined ? undefined : (yield* Clock.currentTimeMillis) + delay * 1000
        yield* repo.failedOutgoing(email.apiKey, email.id, owner, error.message, next)
        yield* next === undefined
          ? Effect.logError(`Email ${email.id} to ${email.mail.to} failed for good after ${attempts} attempt(s): ${error.message}`)
          : Effect.logWarning(`Email ${email.id} to ${email.mail.to} failed (attempt ${attempts}), tried again in ${delay}s: ${error.message}`)
      })

    /**
     * Every email due now, sent by `owner`: claimed a batch at a time, `concurrency` in flight, those
     * sent removed in one statement. How many went out.
     */
    const send = (owner: string) =>
      Effect.gen(function*() {
        const batch = config.concurrency * 4
        let sent = 0
        for (;;) {
          const now = yield* Clock.currentTimeMillis
          const claimed = yield* repo.claimOutgoing(owner, now, now + config.leaseMillis, batch)
          const failures = yield* Effect.forEach(claimed, attempt, { concurrency: config.concurrency })
          const delivered = claimed.filter((_, i) => failures[i] === undefined)
          yield* repo.sentOutgoing(owner, delivered)
          yield* Effect.forEach(claimed, (email, i) => failures[i] === undefined ? Effect.void : recordFailure(owner, email, failures[i]!), { discard: true })
          sent += delivered.length
          if (claimed.length < batch) return sent
        }
      })

    return {
      compose,
      send,
      /** Composes what is due, then sends what is due: how many emails went out. For the worker, and `runDue()` where there is none. */
      runDue: (owner: string) => Effect.zipRight(compose, send(owner)),
      /** Hands back the emails `owner` holds (a server stopping). */
      releaseAll: (owner: string) => repo.releaseAll(owner)
    }
  })
}) {}
