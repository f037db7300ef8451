import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"

export interface Mail {
  /** The sender (`"Name" <address>` or an address); absent: the mailer's own (ATRIUM_EMAIL_FROM). */
  readonly from?: string
  readonly to: string
  readonly subject: string
  readonly text: string
  readonly html?: string
}

const LINK = /https?:\/\/[^\s]+/g

/** `text` with the value of every query parameter of every link replaced by `redacted`. */
export const redactLinks = (text: string) =>
  text.replace(LINK, (link) => {
    try {
      const url = new URL(link)
      for (const name of [...url.searchParams.keys()]) url.searchParams.set(name, "redacted")
      url.hash = ""
      return url.toString()
    } catch {
      return "<link>"
    }
  })

/**
 * A mail that did not go out. `permanent`: sending it again cannot help (the server refused the
 * address or the message, a 5xx answer); otherwise it is tried again later (docs/notifications.md).
 */
export class MailError extends Data.TaggedError("MailError")<{ readonly message: string; readonly permanent: boolean }> {}

/** Outgoing mail port. Hosts provide their own (SMTP, SES, …); the default logs the mail. */
export class Mailer extends Context.Tag("@atrium/core/Mailer")<Mailer, {
  readonly send: (mail: Mail) => Effect.Effect<void, MailError>
  /**
   * Whether mail reaches people. False for the log: notification emails are then not even
   * queued (nothing would ever send them), and a login link only shows in the log.
   */
  readonly delivers: boolean
}>() {
  /**
   * Writes every mail to the log, for local development, with the values of every link's query
   * redacted: a sign-in link's token must never reach a log. Send real mail to use the links.
   */
  static readonly Log = Layer.succeed(Mailer, {
    delivers: false,
    send: (mail) => Effect.logInfo(`mail to ${mail.to}: ${mail.subject}\n${redactLinks(mail.text)}`)
  })
}

/** A mailer that keeps what it was asked to send, for tests and examples. */
export class CapturedMail extends Context.Tag("@atrium/core/CapturedMail")<CapturedMail, Ref.Ref<ReadonlyArray<Mail>>>() {
  static readonly layer = Layer.effectContext(
    Effect.gen(function*() {
      const ref = yield* Ref.make<ReadonlyArray<Mail>>([])
      return Context.make(CapturedMail, ref).pipe(
        Context.add(Mailer, { delivers: true, send: (mail) => Ref.update(ref, (all) => [...all, mail]) })
      )
    })
  )
}
