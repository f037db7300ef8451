/**
 * A mail server on loopback: a real SMTP server (the `smtp-server` package) that parses every
 * message it accepts with `mailparser`, and answers what the test tells it to (accept, or refuse
 * with a code). Atrium's mail reaches it through its real SMTP mailer (nodemailer).
 */
import { SmtpMailer } from "@atrium/server"
import { type ParsedMail, simpleParser } from "mailparser"
import type { AddressInfo } from "node:net"
import { SMTPServer } from "smtp-server"

export interface ReceivedMail {
  readonly from: string
  readonly to: ReadonlyArray<string>
  readonly subject: string
  readonly text: string
  readonly html: string
  readonly parsed: ParsedMail
}

export interface MailServer {
  /** `smtp://127.0.0.1:<port>`: ATRIUM_SMTP_URL for it. */
  readonly url: string
  readonly mails: Array<ReceivedMail>
  /** What the next messages get: undefined accepts; a number refuses with that SMTP code. */
  refuse: (mail: { readonly to: ReadonlyArray<string> }) => number | undefined
  /** Messages refused so far. */
  refused: number
  /** While true, a message's data is taken and never answered: the sender waits (a server that hangs). */
  hold: boolean
  /** Resolves once `count` mails have been accepted (rejects after `timeoutMillis`). */
  readonly waitFor: (count: number, timeoutMillis?: number) => Promise<void>
  /** Atrium's SMTP mailer pointed at it. */
  readonly mailer: () => ReturnType<typeof SmtpMailer>
  readonly close: () => Promise<void>
}

export const startMailServer = async (): Promise<MailServer> => {
  const mails: Array<ReceivedMail> = []
  const waiters: Array<() => void> = []
  const state: Pick<MailServer, "refuse" | "refused" | "hold"> = { refuse: () => undefined, refused: 0, hold: false }
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const to = session.envelope.rcptTo.map((rcpt) => rcpt.address)
      simpleParser(stream).then((parsed) => {
        if (state.hold) return
        const code = state.refuse({ to })
        if (code !== undefined) {
          state.refused++
          return callback(Object.assign(new Error(`refused with ${code}`), { responseCode: code }))
        }
        mails.push({
          from: parsed.from?.text ?? "",
          to,
          subject: parsed.subject ?? "",
          text: parsed.text ?? "",
          html: typeof parsed.html === "string" ? parsed.html : "",
          parsed
        })
        for (const wake of waiters.splice(0)) wake()
        callback()
      }, (error: Error) => callback(error))
    }
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const { port } = server.server.address() as AddressInfo
  const url = `smtp://127.0.0.1:${port}`
  const self: MailServer = {
    url,
    mails,
    get refuse() {
      return state.refuse
    },
    set refuse(f) {
      state.refuse = f
    },
    get refused() {
      return state.refused
    },
    set refused(n) {
      state.refused = n
    },
    get hold() {
      return state.hold
    },
    set hold(on) {
      state.hold = on
    },
    waitFor: (count, timeoutMillis = 20_000) =>
      new Promise((resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error(`waited ${timeoutMillis} ms for ${count} mail(s), got ${mails.length}`)), timeoutMillis)
        const check = () => {
          if (mails.length >= count) {
            clearTimeout(deadline)
            resolve()
          } else waiters.push(check)
        }
        check()
      }),
    mailer: () => SmtpMailer({ url, from: "Atrium Test <atrium@test.example>" }),
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
  return self
}
