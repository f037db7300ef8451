import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import { describe, expect, it } from "vitest"
import { Mailer, redactLinks } from "../../src/ports/Mailer.js"

describe("Mailer.Log", () => {
  it("logs the mail without the values of its links' query (a sign-in token never reaches the log)", async () => {
    const lines: Array<string> = []
    const capture = Logger.replace(Logger.defaultLogger, Logger.make(({ message }) => void lines.push(String(message))))
    const token = "tok_3f9a8b7c6d5e4f3a2b1c"
    await Effect.runPromise(
      Effect.flatMap(Mailer, (mailer) =>
        mailer.send({ to: "owner@example.com", subject: "Your sign-in link", text: `Use this link:\n\nhttps://console.example.com/login?continue=%2Fhome&atriumLoginToken=${token}#frag\n\nThanks` })
      ).pipe(Effect.provide(Mailer.Log), Effect.provide(capture))
    )
    const logged = lines.join("\n")
    expect(logged).toContain("mail to owner@example.com: Your sign-in link")
    expect(logged).toContain("https://console.example.com/login?continue=redacted&atriumLoginToken=redacted")
    expect(logged).not.toContain(token)
    expect(logged).toContain("Thanks")
  })

  it("leaves text without links as it is", () => {
    expect(redactLinks("no links here")).toBe("no links here")
  })
})
