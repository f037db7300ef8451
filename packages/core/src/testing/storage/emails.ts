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
      const dueOf = (now: number) => Effect.map(repo.dueOutgoing(now, 100), (rows) => rows.filter((r) => r.apiKey === apiKey))
      expect(yield* dueOf(T0 - 1)).toEqual([])
      expect(yield* dueOf(T0)).toEqual([email])
      // One owner takes it; the other is refused until the lease runs out.
      expect(yield* repo.claimOutgoing(apiKey, "e1", "a", T0, T0 + 100)).toBe(true)
      expect(yield* repo.claimOutgoing(apiKey, "e1", "b", T0 + 1, T0 + 101)).toBe(false)
      expect(yield* dueOf(T0 + 50)).toEqual([])
      expect(yield* repo.claimOutgoing(apiKey, "e1", "b", T0 + 101, T0 + 201)).toBe(true)
      // A's late outcome does not count: b holds it now.
      yield* repo.sentOutgoing(apiKey, "e1", "a")
      yield* repo.failedOutgoing(apiKey, "e1", "b", "421 busy", T0 + 500)
      expect(yield* dueOf(T0 + 499)).toEqual([])
      expect(yield* dueOf(T0 + 500)).toEqual([{ ...email, attempts: 1, nextAttemptAt: T0 + 500 }])
      expect(yield* repo.claimOutgoing(apiKey, "e1", "c", T0 + 500, T0 + 600)).toBe(true)
      expect(yield* repo.releaseAll("c")).toBeGreaterThanOrEqual(1)
      expect(yield* repo.claimOutgoing(apiKey, "e1", "d", T0 + 501, T0 + 601)).toBe(true)
      yield* repo.failedOutgoing(apiKey, "e1", "d", "550 no such user", undefined)
      expect(yield* dueOf(Number.MAX_SAFE_INTEGER)).toEqual([])
      expect((yield* repo.failedEmails(apiKey, 10)).map((e) => [e.id, e.attempts, e.lastError])).toEqual([["e1", 2, "550 no such user"]])
      yield* repo.insertOutgoing({ ...email, id: "e2" })
      expect(yield* repo.claimOutgoing(apiKey, "e2", "a", T0, T0 + 100)).toBe(true)
      yield* repo.sentOutgoing(apiKey, "e2", "a")
      expect(yield* dueOf(Number.MAX_SAFE_INTEGER)).toEqual([])
    }))
}
