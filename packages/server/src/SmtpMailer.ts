import { MailError, Mailer } from "@atrium/core"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import nodemailer from "nodemailer"

export interface SmtpSettings {
  /** `smtp://user:pass@host:587` (STARTTLS when the server offers it) or `smtps://…:465` (ATRIUM_SMTP_URL). */
  readonly url: string
  /** The sender of every mail a workspace does not give its own (ATRIUM_EMAIL_FROM). */
  readonly from: string
}

/** SMTP answers that name the message or its recipient: sending it again cannot help. Others (busy, auth, network) are tried again. */
const isPermanent = (error: { readonly responseCode?: number; readonly code?: string }) =>
  error.code === "EENVELOPE" || (error.responseCode !== undefined && error.responseCode >= 500 && error.code !== "EAUTH")

/**
 * Mail through an SMTP server with nodemailer (a pool of up to 5 connections), for `atrium serve`
 * and embedding hosts: `createAtrium({ mailer: SmtpMailer({ url, from }) })`. Closed with the runtime.
 */
export const SmtpMailer = (settings: SmtpSettings): Layer.Layer<Mailer> =>
  Layer.scoped(
    Mailer,
    Effect.map(
      Effect.acquireRelease(
        Effect.sync(() =>
          nodemailer.createTransport({
            url: settings.url,
            pool: true,
            maxConnections: 5,
            // A server that does not answer is a failure to try again, not a send that hangs.
            connectionTimeout: 10_000,
            greetingTimeout: 10_000,
            socketTimeout: 30_000
          } as Parameters<typeof nodemailer.createTransport>[0])
        ),
        (transport) => Effect.sync(() => transport.close())
      ),
      (transport) => ({
        delivers: true,
        send: (mail) =>
          Effect.tryPromise({
            try: () => transport.sendMail({ from: mail.from ?? settings.from, to: mail.to, subject: mail.subject, text: mail.text, ...(mail.html !== undefined && { html: mail.html }) }),
            catch: (error) => {
              const failure = error as { readonly message?: string; readonly responseCode?: number; readonly code?: string }
              return new MailError({ message: `SMTP: ${failure.message ?? String(error)}`, permanent: isPermanent(failure) })
            }
          }).pipe(Effect.asVoid)
      })
    )
  )
