/** presence/: PresenceRepo. */
import * as Effect from "effect/Effect"
import { PresenceRepo } from "../../presence/PresenceRepo.js"
import { type StorageCases, T0, unique } from "./fixtures.js"

export const cases: StorageCases = (it, expect) => {
  it.effect("PresenceRepo: replace, list, delete", () =>
    Effect.gen(function*() {
      const presence = yield* PresenceRepo
      const apiKey = unique("key")
      const entry = { apiKey, organizationId: "org", documentId: "doc", userId: "u2", name: null, email: null, status: "online" as const, updatedAt: T0 }
      yield* presence.put(entry)
      yield* presence.put({ ...entry, userId: "u1" })
      yield* presence.put({ ...entry, userId: "u3" })
      yield* presence.put({ ...entry, name: "N", email: "e@x.com", status: "away", updatedAt: T0 + 1 })
      expect(yield* presence.find(apiKey, "org", "doc", "u2")).toEqual({ ...entry, name: "N", email: "e@x.com", status: "away", updatedAt: T0 + 1 })
      expect((yield* presence.list(apiKey, "org", "doc")).map((p) => p.userId)).toEqual(["u1", "u2", "u3"])
      yield* presence.delete(apiKey, "org", "doc", ["u1", "u3", "nobody"])
      expect((yield* presence.list(apiKey, "org", "doc")).map((p) => p.userId)).toEqual(["u2"])
    }))
}
