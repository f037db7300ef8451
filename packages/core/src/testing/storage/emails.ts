/** emails/: EmailsRepo (the email queue; its claim order is not per API key, so one case touches it). */
import * as Effect from "effect/Effect"
import { EmailsRepo, type EmailItem } from "../../emails/EmailsRepo.js"
import { type StorageCases, T0, unique } from "./fixtures.js"

export const cases: StorageCases = (it, expect) => {
  it.effect("EmailsRepo: items wait per recipient until checked; an email is claimed by one owner, sent, failed, retried, handed back", () =>
    Effect.gen(function*() {
      const repo = yield* EmailsRepo
      const apiKey = unique("key")
      const ann = { apiKey, userId: "ann" }
      const item = (notificationId: string, dueAt: number, userId = "ann"): EmailItem =>
        ({ apiKey, organizationId: "org", notificationId, userId, documentId: "doc", createdAt: T0, dueAt, nextCheckAt: dueAt })
      yield* repo.insertItems([item("n2", T0 + 20), item("n1", T0 + 10), item("n1", T0 + 10, "bob")])
      // A second insert of the same (notification, user) keeps the first.
      yield* repo.insertItems([{ ...item("n1", T0 + 99), documentId: "other" }])
      expect((yield* repo.itemsOf(ann)).map((i) => [i.notificationId, i.dueAt, i.documentId])).toEqual([["n1", T0 + 10, "doc"], ["n2", T0 + 20, "doc"]])
      const mine = (recipients: ReadonlyArray<{ readonly apiKey: string; readonly userId: string }>) =>
        recipients.filter((r) => r.apiKey === apiKey).map((r) => r.userId).sort()
      expect(mine(yield* repo.recipientsToCheck(T0 + 9, 100))).toEqual([])
      expect(mine(yield* repo.recipientsToCheck(T0 + 10, 100))).toEqual(["ann", "bob"])
      yield* repo.recheckItems(ann, [item("n1", 0)], T0 + 50)
      expect(mine(yield* repo.recipientsToCheck(T0 + 15, 100))).toEqual(["bob"])
      expect(mine(yield* repo.recipientsToCheck(T0 + 20, 100))).toEqual(["ann", "bob"])
      yield* repo.deleteItems(ann, [item("n1", 0), item("n2", 0)])
      expect(yield* repo.itemsOf(ann)).toEqual([])
      expect((yield* repo.itemsOf({ apiKey, userId: "bob" })).length).toBe(1)

      const mail = { to: "ann@example.com", subject: "Hi é 😀", text: "text", html: "<p>html</p>" }
      const email = { apiKey, id: "e1", organizationId: "org", userId: "ann", mail, notificationIds: ["n1", "n2"], attempts: 0, nextAttemptAt: T0, createdAt: T0 }
      yield* repo.insertOutgoing(email)
      yield* repo.insertOutgoing({ ...email, id: "e2", nextAttemptAt: T0 + 1 })
      // Other cases' emails are not in these tables: the claims see these two only.
      const ids = (emails: ReadonlyArray<{ readonly id: string }>) => emails.map((e) => e.id)
      expect(yield* repo.claimOutgoing("a", T0 - 1, T0 + 100, 10)).toEqual([])
      // Oldest first, up to the limit; one owner takes them, another is refused until the lease runs out.
      expect(yield* repo.claimOutgoing("a", T0 + 1, T0 + 100, 1)).toEqual([email])
      expect(ids(yield* repo.claimOutgoing("b", T0 + 2, T0 + 102, 10))).toEqual(["e2"])
      // b sends e2: gone.
      yield* repo.sentOutgoing("b", [{ apiKey, id: "e2" }])
      expect(yield* repo.claimOutgoing("c", T0 + 50, T0 + 150, 10)).toEqual([])
      expect(ids(yield* repo.claimOutgoing("c", T0 + 101, T0 + 201, 10))).toEqual(["e1"])
      // A's late outcome does not count: c holds e1 now.
      yield* repo.sentOutgoing("a", [email])
      yield* repo.failedOutgoing(apiKey, "e1", "c", "421 busy", T0 + 500)
      expect(yield* repo.claimOutgoing("d", T0 + 499, T0 + 600, 10)).toEqual([])
      expect(yield* repo.claimOutgoing("d", T0 + 500, T0 + 600, 10)).toEqual([{ ...email, attempts: 1, nextAttemptAt: T0 + 500 }])
      expect(yield* repo.releaseAll("d")).toBe(1)
      expect(ids(yield* repo.claimOutgoing("e", T0 + 501, T0 + 601, 10))).toEqual(["e1"])
      yield* repo.failedOutgoing(apiKey, "e1", "e", "550 no such user", undefined)
      expect((yield* repo.failedEmails(apiKey, 10)).map((e) => [e.id, e.attempts, e.lastError])).toEqual([["e1", 2, "550 no such user"]])
      // A failed email is never claimed again.
      expect(yield* repo.claimOutgoing("f", Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 10)).toEqual([])
    }))
}
