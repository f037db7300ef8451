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

/** Outgoing mail port. Hosts provide their own (SMTP, SES, …); the default logs the mail. */
export class Mailer extends Context.Tag("@atrium/core/Mailer")<Mailer, {
  readonly send: (mail: Mail) => Effect.Effect<void>
}>() {
  /** Writes every mail to the log: for local development. */
  static readonly Log = Layer.succeed(Mailer, {
    send: (mail) => Effect.logInfo(`mail to ${mail.to}: ${mail.subject}\n${mail.text}`)
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
