/** notifications/: NotificationPreferencesRepo. */
import * as Effect from "effect/Effect"
import { NotificationPreferencesRepo } from "../../notifications/NotificationPreferencesRepo.js"
import { type StorageCases, T0, unique } from "./fixtures.js"

export const cases: StorageCases = (it, expect) => {
  it.effect("NotificationPreferencesRepo: replace, list, organization level", () =>
    Effect.gen(function*() {
      const preferences = yield* NotificationPreferencesRepo
      const apiKey = unique("key")
      const base = { apiKey, organizationId: "org", userId: "u", inbox: null, email: null, slack: null, updatedAt: T0 }
      yield* preferences.put({ ...base, documentId: null, inbox: "ALL" })
      yield* preferences.put({ ...base, documentId: "d1", email: "MINE" })
      yield* preferences.put({ ...base, documentId: "d2", slack: "NONE" })
      yield* preferences.put({ ...base, documentId: "d1", email: "NONE", updatedAt: T0 + 1 })
      const listed = [...(yield* preferences.list(apiKey, "org", ["u"], ["d1", "d3"]))]
        .sort((a, b) => (a.documentId ?? "") < (b.documentId ?? "") ? -1 : 1)
      expect(listed).toEqual([{ ...base, documentId: null, inbox: "ALL" }, { ...base, documentId: "d1", email: "NONE", updatedAt: T0 + 1 }])
    }))
  it.effect("NotificationPreferencesRepo: several users' rows in one list (a comment event's involved users)", () =>
    Effect.gen(function*() {
      const preferences = yield* NotificationPreferencesRepo
      const apiKey = unique("key")
      const row = { apiKey, organizationId: "org", inbox: null, email: null, slack: null, updatedAt: T0 }
      yield* preferences.put({ ...row, userId: "u", documentId: null, inbox: "NONE" })
      yield* preferences.put({ ...row, userId: "v", documentId: "d1", slack: "ALL" })
      yield* preferences.put({ ...row, userId: "v", documentId: "d2", slack: "MINE" })
      yield* preferences.put({ ...row, userId: "w", documentId: "d1", email: "ALL" })
      const listed = (yield* preferences.list(apiKey, "org", ["u", "v", "nobody"], ["d1"])).map((r) => [r.userId, r.documentId]).sort()
      expect(listed).toEqual([["u", null], ["v", "d1"]])
      expect(yield* preferences.list(apiKey, "org", [], ["d1"])).toEqual([])
    }))
}
