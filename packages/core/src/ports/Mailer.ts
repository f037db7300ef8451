import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"

export interface Mail {
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

/** Outgoing mail port. Hosts provide their own (SMTP, SES, …); the default logs the mail. */
export class Mailer extends Context.Tag("@atrium/core/Mailer")<Mailer, {
  readonly send: (mail: Mail) => Effect.Effect<void>
}>() {
  /**
   * Writes every mail to the log, for local development, with the values of every link's query
   * redacted: a sign-in link's token must never reach a log. Send real mail to use the links.
   */
  static readonly Log = Layer.succeed(Mailer, {
    send: (mail) => Effect.logInfo(`mail to ${mail.to}: ${mail.subject}\n${redactLinks(mail.text)}`)
  })
}

/** A mailer that keeps what it was asked to send, for tests and examples. */
export class CapturedMail extends Context.Tag("@atrium/core/CapturedMail")<CapturedMail, Ref.Ref<ReadonlyArray<Mail>>>() {
  static readonly layer = Layer.effectContext(
    Effect.gen(function*() {
      const ref = yield* Ref.make<ReadonlyArray<Mail>>([])
      return Context.make(CapturedMail, ref).pipe(
        Context.add(Mailer, { send: (mail) => Ref.update(ref, (all) => [...all, mail]) })
      )
    })
  )
}
