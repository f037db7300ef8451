import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { Mail } from "../ports/Mailer.js"

/** A notification one user is to be mailed, waiting for its delay and its digest. */
export interface EmailItem {
  readonly apiKey: string
  readonly organizationId: string
  readonly notificationId: string
  readonly userId: string
  readonly documentId: string
  readonly createdAt: number
  /** When its delay ends (its creation, without one). */
  readonly dueAt: number
  /** When a pass looks at it again: its due time, then when the digest it waits in closes. */
  readonly nextCheckAt: number
}

/** A composed email until SMTP took it. */
export interface OutgoingEmail {
  readonly apiKey: string
  readonly id: string
  readonly organizationId: string
  readonly userId: string
  readonly mail: Mail
  /** The notifications it tells of. */
  readonly notificationIds: ReadonlyArray<string>
  readonly attempts: number
  readonly nextAttemptAt: number
  readonly createdAt: number
}

/** One recipient: the unit a pass composes for, under its lock. */
export interface Recipient {
  readonly apiKey: string
  readonly userId: string
}

/** Storage port: the email queue (docs/notifications.md, "Email"). */
export class EmailsRepo extends Context.Tag("@atrium/core/EmailsRepo")<EmailsRepo, {
  /** Adds the items; one the user already has for that notification is kept as it is. */
  readonly insertItems: (items: ReadonlyArray<EmailItem>) => Effect.Effect<void>
  /** Recipients with an item to look at by `now`, at most `limit`. */
  readonly recipientsToCheck: (now: number, limit: number) => Effect.Effect<ReadonlyArray<Recipient>>
  /** Every waiting item of the recipient, by due time. */
  readonly itemsOf: (recipient: Recipient) => Effect.Effect<ReadonlyArray<EmailItem>>
  /** Removes these items of the recipient (mailed or dropped). */
  readonly deleteItems: (recipient: Recipient, items: ReadonlyArray<Pick<EmailItem, "organizationId" | "notificationId">>) => Effect.Effect<void>
  /** Sets when these items of the recipient are looked at again. */
  readonly recheckItems: (recipient: Recipient, items: ReadonlyArray<Pick<EmailItem, "organizationId" | "notificationId">>, at: number) => Effect.Effect<void>
  readonly insertOutgoing: (email: OutgoingEmail) => Effect.Effect<void>
  /**
   * Takes up to `limit` pending emails due by `now` and not held by a live lease for `owner` until
   * `leaseUntil`, oldest first: those taken (of servers racing for one, exactly one takes it).
   */
  readonly claimOutgoing: (owner: string, now: number, leaseUntil: number, limit: number) => Effect.Effect<ReadonlyArray<OutgoingEmail>>
  /** SMTP took them: removed (those `owner` still holds). */
  readonly sentOutgoing: (owner: string, emails: ReadonlyArray<Pick<OutgoingEmail, "apiKey" | "id">>) => Effect.Effect<void>
  /** It failed: tried again at `nextAttemptAt`, or, undefined, failed for good; the lease is released. */
  readonly failedOutgoing: (apiKey: string, id: string, owner: string, error: string, nextAttemptAt: number | undefined) => Effect.Effect<void>
  /** Releases every lease of `owner` (a server stopping). */
  readonly releaseAll: (owner: string) => Effect.Effect<number>
  /** Emails that failed for good, newest first: for operators. */
  readonly failedEmails: (apiKey: string, limit: number) => Effect.Effect<ReadonlyArray<OutgoingEmail & { readonly lastError: string }>>
}>() {}
