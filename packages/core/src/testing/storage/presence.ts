/** presence/: PresenceRepo. */
import * as Effect from "effect/Effect"
import { PresenceRepo, type PresenceRow } from "../../presence/PresenceRepo.js"
import { type StorageCases, T0, unique } from "./fixtures.js"

const entryOf = (apiKey: string, userId: string, fields: Partial<PresenceRow> = {}): PresenceRow => ({
  apiKey,
  organizationId: "org",
  documentId: "doc",
  userId,
  name: null,
  email: null,
  status: "online",
  data: null,
  heldBy: null,
  updatedAt: T0,
  lastSeenAt: T0,
  ...fields
})

export const cases: StorageCases = (it, expect) => {
  it.effect("PresenceRepo: replace, list, delete (saying who was there)", () =>
    Effect.gen(function*() {
      const presence = yield* PresenceRepo
      const apiKey = unique("key")
      const entry = entryOf(apiKey, "u2")
      yield* presence.put(entry)
      yield* presence.put({ ...entry, userId: "u1" })
      yield* presence.put({ ...entry, userId: "u3" })
      const changed = { ...entry, name: "N", email: "e@x.com", status: "away" as const, data: "{\"x\":1}", heldBy: "srv", updatedAt: T0 + 1, lastSeenAt: T0 + 2 }
      yield* presence.put(changed)
      expect(yield* presence.find(apiKey, "org", "doc", "u2")).toEqual(changed)
      expect((yield* presence.list(apiKey, "org", "doc", T0)).map((p) => p.userId)).toEqual(["u1", "u2", "u3"])
      expect(yield* presence.delete(apiKey, "org", "doc", ["u1", "u3", "nobody"])).toEqual(expect.arrayContaining(["u1", "u3"]))
      expect((yield* presence.list(apiKey, "org", "doc", T0)).map((p) => p.userId)).toEqual(["u2"])
      expect(yield* presence.delete(apiKey, "org", "doc", ["u1"])).toEqual([])
    }))

  it.effect("PresenceRepo: the list leaves out entries last seen before the time asked", () =>
    Effect.gen(function*() {
      const presence = yield* PresenceRepo
      const apiKey = unique("key")
      yield* presence.put(entryOf(apiKey, "old", { lastSeenAt: T0 }))
      yield* presence.put(entryOf(apiKey, "recent", { lastSeenAt: T0 + 10 }))
      expect((yield* presence.list(apiKey, "org", "doc", T0 + 10)).map((p) => p.userId)).toEqual(["recent"])
      expect((yield* presence.list(apiKey, "org", "doc", T0 + 11)).map((p) => p.userId)).toEqual([])
    }))

  it.effect("PresenceRepo: a server renews only the entries it names and still holds; release takes only its own", () =>
    Effect.gen(function*() {
      const presence = yield* PresenceRepo
      const apiKey = unique("key")
      yield* presence.put(entryOf(apiKey, "mine", { heldBy: "a" }))
      yield* presence.put(entryOf(apiKey, "mine-too", { heldBy: "a", documentId: "doc-2" }))
      yield* presence.put(entryOf(apiKey, "let-go", { heldBy: "a" }))
      yield* presence.put(entryOf(apiKey, "theirs", { heldBy: "b" }))
      yield* presence.put(entryOf(apiKey, "api", { heldBy: null }))
      const key = (userId: string, documentId = "doc") => ({ apiKey, organizationId: "org", documentId, userId })
      yield* presence.renew("a", [key("mine"), key("mine-too", "doc-2"), key("theirs")], T0 + 5)
      const seen = (userId: string, documentId = "doc") => Effect.map(presence.find(apiKey, "org", documentId, userId), (row) => row?.lastSeenAt)
      expect(yield* seen("mine")).toBe(T0 + 5)
      expect(yield* seen("mine-too", "doc-2")).toBe(T0 + 5)
      expect(yield* seen("let-go")).toBe(T0)
      expect(yield* seen("theirs")).toBe(T0)
      expect(yield* seen("api")).toBe(T0)
      expect(yield* presence.release(key("theirs"), "a")).toBe(false)
      expect(yield* presence.release(key("mine"), "a")).toBe(true)
      expect(yield* presence.release(key("mine"), "a")).toBe(false)
      expect(yield* presence.find(apiKey, "org", "doc", "mine")).toBeUndefined()
      expect(yield* presence.find(apiKey, "org", "doc", "theirs")).toBeDefined()
    }))

  it.effect("PresenceRepo: renewing more entries than a statement takes renews them all", () =>
    Effect.gen(function*() {
      const presence = yield* PresenceRepo
      const apiKey = unique("key")
      const userIds = Array.from({ length: 1_200 }, (_, i) => `u${i}`)
      for (const userId of userIds) yield* presence.put(entryOf(apiKey, userId, { heldBy: "a" }))
      yield* presence.renew("a", userIds.map((userId) => ({ apiKey, organizationId: "org", documentId: "doc", userId })), T0 + 7)
      expect(yield* presence.list(apiKey, "org", "doc", T0 + 7)).toHaveLength(1_200)
    }))

  it.effect("PresenceRepo: a sweep removes the expired entries and names each once, however many sweep at once", () =>
    Effect.gen(function*() {
      const presence = yield* PresenceRepo
      const apiKey = unique("key")
      // Times long past, so the sweep takes nothing of other tests sharing the database.
      yield* presence.put(entryOf(apiKey, "gone-1", { lastSeenAt: 1_000 }))
      yield* presence.put(entryOf(apiKey, "gone-2", { lastSeenAt: 1_001, documentId: "doc-2" }))
      yield* presence.put(entryOf(apiKey, "alive", { lastSeenAt: 1_002 }))
      const swept = (yield* Effect.all([presence.sweep(1_002), presence.sweep(1_002)], { concurrency: 2 })).flat()
        .filter((key) => key.apiKey === apiKey)
      expect(swept.map((key) => key.userId).sort()).toEqual(["gone-1", "gone-2"])
      expect(swept.find((key) => key.userId === "gone-2")).toEqual({ apiKey, organizationId: "org", documentId: "doc-2", userId: "gone-2" })
      expect((yield* presence.list(apiKey, "org", "doc", 0)).map((p) => p.userId)).toEqual(["alive"])
    }))
}
