/**
 * Email's delay, seen check, digests and retries (docs/notifications.md, "Delay and digests"),
 * under TestClock, through the real SMTP mailer to a real SMTP server on loopback, on memory
 * (SQLite) and PostgreSQL storage. The services are called directly; time moves only when told.
 */
import { testDatabase } from "@atrium/sql-pg/testing"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/TestClock"
import { pgStorage } from "../../../../test-support/backends.js"
import { type MailServer, startMailServer } from "../../../../test-support/smtp.js"
import { atriumLayer } from "../../src/Atrium.js"
import { Comments } from "../../src/comments/Comments.js"
import { AddAnnotationsInput, MarkReadInput } from "../../src/comments/CommentSchemas.js"
import { Emails } from "../../src/emails/Emails.js"
import { EmailsRepo } from "../../src/emails/EmailsRepo.js"
import { Notifications } from "../../src/notifications/Notifications.js"
import { AddNotificationInput } from "../../src/notifications/NotificationSchemas.js"
import type { StorageServices } from "../../src/Storage.js"
import { MemoryStorage } from "../../src/testing/index.js"
import { Users } from "../../src/users/Users.js"
import { AddUsersInput } from "../../src/users/UserSchemas.js"
import { WorkspaceSettings } from "../../src/workspace/WorkspaceSettings.js"
import { UpdateNotificationServiceInput } from "../../src/workspace/WorkspaceSettingsSchemas.js"

const START = Date.UTC(2026, 0, 1)
const SECOND = 1000

let smtp: MailServer
const db = await testDatabase()
beforeAll(async () => {
  smtp = await startMailServer()
})
afterAll(async () => {
  await smtp.close()
  await db.drop()
})
beforeEach(() => {
  smtp.refuse = () => undefined
})

const storages: ReadonlyArray<readonly [string, () => Layer.Layer<StorageServices, unknown>]> = [
  ["memory", () => MemoryStorage],
  ["postgres", () => pgStorage(db)]
]

for (const [name, storage] of storages) {
  describe(`email delay, seen check and digests [${name}]`, () => {
    let run = 0
    /** Each test under a key of its own, its users' addresses unique to it. */
    const scenario = <A, E, R>(body: (world: World) => Effect.Effect<A, E, R>) => {
      const apiKey = `key_${name}_${++run}_${Math.random().toString(36).slice(2, 8)}`
      const address = (userId: string) => `${userId}.${apiKey}@example.com`
      const layer = atriumLayer({ storage: storage(), mailer: Layer.suspend(() => smtp.mailer()) })
      return Effect.gen(function*() {
        yield* TestClock.setTime(START)
        yield* Users.add(apiKey, Schema.decodeUnknownSync(AddUsersInput)({
          organizationId: "org",
          users: ["ann", "bob", "cat"].map((userId) => ({ userId, name: userId.toUpperCase(), email: address(userId) }))
        }))
        return yield* body(world(apiKey, address))
      }).pipe(Effect.provide(layer), Effect.scoped)
    }

    type World = ReturnType<typeof world>
    const world = (apiKey: string, address: (userId: string) => string) => ({
      apiKey,
      address,
      configure: (config: unknown) => WorkspaceSettings.updateNotificationConfig(apiKey, Schema.decodeUnknownSync(UpdateNotificationServiceInput)(config)),
      /** A host's notification to these users about the document; its id. */
      notify: (documentId: string, userIds: ReadonlyArray<string>, headline: string) =>
        Effect.map(
          Notifications.add(apiKey, Schema.decodeUnknownSync(AddNotificationInput)({
            organizationId: "org",
            documentId,
            notifyUsers: userIds.map((userId) => ({ userId })),
            notifyAll: false,
            actionUser: { userId: "ci", name: "CI" },
            displayHeadlineMessageTemplate: headline,
            displayBodyMessage: `About ${headline}.`
          })),
          (answer) => answer.notificationId
        ),
      at: (seconds: number) => TestClock.setTime(START + seconds * SECOND),
      /** Sends what is due; the subjects each user got since the start, by user. */
      mailed: Effect.gen(function*() {
        yield* Effect.flatMap(Emails, (emails) => emails.runDue("test"))
        const got: Record<string, Array<string>> = {}
        for (const userId of ["ann", "bob", "cat"]) {
          const subjects = smtp.mails.filter((mail) => mail.to.includes(address(userId))).map((mail) => mail.subject)
          if (subjects.length > 0) got[userId] = subjects
        }
        return got
      })
    })

    it.effect("a delay holds the email for delaySeconds, not a second less", () =>
      scenario((w) =>
        Effect.gen(function*() {
          yield* w.configure({ useNotificationService: true, notificationServiceConfig: { delayConfig: { isEnabled: true, delaySeconds: 60 } } })
          yield* w.notify("A", ["bob"], "one")
          expect(yield* w.mailed).toEqual({})
          yield* w.at(59.999)
          expect(yield* w.mailed).toEqual({})
          yield* w.at(60)
          expect(yield* w.mailed).toEqual({ bob: ["one (A)"] })
          // The delay acts only while the notification service is on.
          yield* w.configure({ useNotificationService: false })
          yield* w.notify("A", ["bob"], "two")
          expect(yield* w.mailed).toEqual({ bob: ["one (A)", "two (A)"] })
        })))

    it.effect("the seen check: a notification read during the delay is not mailed, to that user only", () =>
      scenario((w) =>
        Effect.gen(function*() {
          yield* w.configure({ useNotificationService: true, notificationServiceConfig: { delayConfig: { isEnabled: true, delaySeconds: 30 } } })
          const id = yield* w.notify("A", ["bob", "cat"], "both")
          yield* w.at(10)
          yield* Notifications.markRead({ apiKey: w.apiKey, userId: "bob" }, "org", [id])
          yield* w.at(30)
          expect(yield* w.mailed).toEqual({ cat: ["both (A)"] })
        })))

    it.effect("the seen check: a thread read during the delay is not mailed", () =>
      scenario((w) =>
        Effect.gen(function*() {
          yield* w.configure({ useNotificationService: true, notificationServiceConfig: { delayConfig: { isEnabled: true, delaySeconds: 30 } } })
          const mention = (annotationId: string) =>
            Comments.addAnnotations(w.apiKey, Schema.decodeUnknownSync(AddAnnotationsInput)({
              organizationId: "org",
              documentId: "A",
              createDocument: true,
              commentAnnotations: [{
                annotationId,
                commentData: [{ commentText: "look", from: { userId: "ann", name: "ANN" }, taggedUserContacts: [{ userId: "bob", text: "@bob" }, { userId: "cat", text: "@cat" }], triggerNotification: true }]
              }]
            }))
          yield* mention("t1")
          yield* w.at(5)
          yield* Comments.markRead(w.apiKey, Schema.decodeUnknownSync(MarkReadInput)({ organizationId: "org", documentId: "A", annotationIds: ["t1"], userId: "bob" }))
          yield* w.at(30)
          expect(yield* w.mailed).toEqual({ cat: ["ANN started a comment thread (A)"] })
        })))

    it.effect("a document digest closes when its window ends, with what came in it; each document its own", () =>
      scenario((w) =>
        Effect.gen(function*() {
          yield* w.configure({ useNotificationService: true, notificationServiceConfig: { batchConfig: { document: { isEnabled: true, batchWindowSeconds: 60, maxActivities: 50 } } } })
          yield* w.notify("A", ["bob"], "a1")
          yield* w.at(10)
          yield* w.notify("A", ["bob"], "a2")
          yield* w.at(20)
          yield* w.notify("B", ["bob"], "b1")
          yield* w.at(59.999)
          expect(yield* w.mailed).toEqual({})
          yield* w.at(60)
          expect(yield* w.mailed).toEqual({ bob: ["2 new notifications in A"] })
          const [digest] = smtp.mails.filter((mail) => mail.to.includes(w.address("bob")))
          expect(digest!.text).toContain("- a1 (A)")
          expect(digest!.text).toContain("- a2 (A)")
          yield* w.at(80)
          expect(yield* w.mailed).toEqual({ bob: ["2 new notifications in A", "b1 (B)"] })
        })))

    it.effect("a digest closes early on maxActivities", () =>
      scenario((w) =>
        Effect.gen(function*() {
          yield* w.configure({ useNotificationService: true, notificationServiceConfig: { batchConfig: { document: { isEnabled: true, batchWindowSeconds: 3600, maxActivities: 3 } } } })
          for (const [second, headline] of [[0, "a1"], [1, "a2"], [2, "a3"], [3, "a4"]] as const) {
            yield* w.at(second)
            yield* w.notify("A", ["bob"], headline)
          }
          expect(yield* w.mailed).toEqual({ bob: ["3 new notifications in A"] })
          yield* w.at(3603)
          expect(yield* w.mailed).toEqual({ bob: ["3 new notifications in A", "a4 (A)"] })
        })))

    it.effect("a user digest gathers every document; with both on, each item goes once, with the digest that closes first", () =>
      scenario((w) =>
        Effect.gen(function*() {
          yield* w.configure({
            useNotificationService: true,
            notificationServiceConfig: { batchConfig: { document: { isEnabled: true, batchWindowSeconds: 600, maxActivities: 2 }, user: { isEnabled: true, batchWindowSeconds: 100, maxActivities: 50 } } }
          })
          yield* w.notify("A", ["bob"], "a1")
          yield* w.at(5)
          yield* w.notify("A", ["bob"], "a2")
          // A's digest is full at its second item; b1 and c1 wait for the user digest.
          expect(yield* w.mailed).toEqual({ bob: ["2 new notifications in A"] })
          yield* w.at(10)
          yield* w.notify("B", ["bob"], "b1")
          yield* w.at(20)
          yield* w.notify("C", ["bob"], "c1")
          yield* w.at(109.999)
          expect(yield* w.mailed).toEqual({ bob: ["2 new notifications in A"] })
          yield* w.at(110)
          expect(yield* w.mailed).toEqual({ bob: ["2 new notifications in A", "2 new notifications"] })
          yield* w.at(10_000)
          expect(yield* w.mailed).toEqual({ bob: ["2 new notifications in A", "2 new notifications"] })
        })))

    it.effect("an email the SMTP server refuses for now goes at its next attempt; one refused for good is kept as failed", () =>
      scenario((w) =>
        Effect.gen(function*() {
          let refusals = 0
          smtp.refuse = ({ to }) => to.includes(w.address("bob")) && refusals++ === 0 ? 421 : to.includes(w.address("cat")) ? 550 : undefined
          yield* w.notify("A", ["bob", "cat"], "hello")
          expect(yield* w.mailed).toEqual({})
          yield* w.at(29.999)
          expect(yield* w.mailed).toEqual({})
          // The schedule's second delay: 30 s.
          yield* w.at(30)
          expect(yield* w.mailed).toEqual({ bob: ["hello (A)"] })
          yield* w.at(100_000)
          expect(yield* w.mailed).toEqual({ bob: ["hello (A)"] })
          const failed = yield* Effect.flatMap(EmailsRepo, (repo) => repo.failedEmails(w.apiKey, 10))
          expect(failed.map((email) => [email.mail.to, email.attempts, email.lastError.includes("550")])).toEqual([[w.address("cat"), 1, true]])
        })))
  })
}
