/** activities/: ActivitiesRepo. */
import * as Effect from "effect/Effect"
import { compareText } from "../../TextOrder.js"
import { ActivitiesRepo, type ActivityCursor } from "../../activities/ActivitiesRepo.js"
import type { Activity } from "../../activities/ActivitySchemas.js"
import { activity, allPages, MIXED_IDS, type StorageCases, T0, unique } from "./fixtures.js"

export const cases: StorageCases = (it, expect) => {
  it.effect("ActivitiesRepo.page orders by (timestamp, id) both ways, ties broken by id", () =>
    Effect.gen(function*() {
      const activities = yield* ActivitiesRepo
      const apiKey = unique("key")
      const written = MIXED_IDS.map((id, i) => activity(apiKey, "org", id, T0 + (i % 4) * 1000))
      for (const a of written) yield* activities.put(a)
      const byTime = (a: Activity, b: Activity) => a.timestamp - b.timestamp || compareText(a.id, b.id)
      const cursor = (a: Activity) => ({ timestamp: a.timestamp, id: a.id })
      const asc = yield* allPages((after?: ActivityCursor) => activities.page(apiKey, "org", {}, { order: "asc", limit: 4, ...(after && { after }) }), cursor, 4)
      expect(asc).toEqual([...written].sort(byTime))
      const desc = yield* allPages((after?: ActivityCursor) => activities.page(apiKey, "org", {}, { order: "desc", limit: 3, ...(after && { after }) }), cursor, 3)
      expect(desc).toEqual([...written].sort(byTime).reverse())
    }))

  it.effect("ActivitiesRepo.updateRecord writes an existing activity's record, and does not bring back one deleted meanwhile", () =>
    Effect.gen(function*() {
      const activities = yield* ActivitiesRepo
      const apiKey = unique("key")
      const kept = activity(apiKey, "org", "kept", T0)
      const gone = activity(apiKey, "org", "gone", T0, { targetEntityId: "t" })
      yield* activities.put(kept)
      yield* activities.put(gone)
      // As activities/update does: read, then (after a delete by filter took one) write.
      const read = yield* activities.find(apiKey, "org", "gone")
      expect(yield* activities.delete(apiKey, "org", { targetEntityId: "t" })).toEqual(["gone"])
      expect(yield* activities.updateRecord({ ...read!, actionIcon: "late" })).toBe(false)
      expect(yield* activities.find(apiKey, "org", "gone")).toBeUndefined()
      expect(yield* activities.updateRecord({ ...kept, actionIcon: "icon" })).toBe(true)
      expect((yield* activities.find(apiKey, "org", "kept"))?.actionIcon).toBe("icon")
    }))

  it.effect("ActivitiesRepo.page applies every filter", () =>
    Effect.gen(function*() {
      const activities = yield* ActivitiesRepo
      const apiKey = unique("key")
      yield* activities.put(activity(apiKey, "org", "a1", T0, { featureType: "reaction", actionType: "x" }))
      yield* activities.put(activity(apiKey, "org", "a2", T0 + 1, { targetEntityId: "target", actionType: "y" }))
      yield* activities.put(activity(apiKey, "org", "a3", T0 + 2, { actionUser: { userId: "user-2" }, metadata: { apiKey, organizationId: "org", documentId: "doc-2" } }))
      const ids = (filters: Parameters<typeof activities.page>[2]) =>
        activities.page(apiKey, "org", filters, { order: "asc", limit: 10 }).pipe(Effect.map((rows) => rows.map((a) => a.id)))
      expect(yield* ids({ featureTypes: ["reaction", "crdt"] })).toEqual(["a1"])
      expect(yield* ids({ actionTypes: ["y", "z"] })).toEqual(["a2"])
      expect(yield* ids({ targetEntityId: "target" })).toEqual(["a2"])
      expect(yield* ids({ userId: "user-2" })).toEqual(["a3"])
      expect(yield* ids({ documentId: "doc-2" })).toEqual(["a3"])
      expect(yield* ids({ ids: ["a3", "a1", "zz"] })).toEqual(["a1", "a3"])
      expect(yield* ids({ documentId: "doc-1", ids: ["a3"] })).toEqual([])
    }))

  it.effect("ActivitiesRepo.page: a keyset walk under concurrent inserts returns every row that was there once, in order", () =>
    Effect.gen(function*() {
      const activities = yield* ActivitiesRepo
      const apiKey = unique("key")
      const present = Array.from({ length: 30 }, (_, i) => `m${String(i).padStart(2, "0")}`)
      yield* Effect.forEach(present, (id, i) => activities.put(activity(apiKey, "org", id, T0 + i * 10)), { concurrency: "unbounded" })
      // Between pages, other writers add rows before and after the walk's position, all at once.
      const insertActivities = (pageNumber: number) =>
        Effect.forEach(
          [T0 - 1 - pageNumber, T0 + 145, T0 + 1000 + pageNumber],
          (timestamp, i) => activities.put(activity(apiKey, "org", `new-${pageNumber}-${i}`, timestamp)),
          { concurrency: "unbounded", discard: true }
        )
      const pages = yield* allPages(
        (after?: ActivityCursor) => activities.page(apiKey, "org", {}, { order: "asc", limit: 6, ...(after && { after }) }),
        (a) => ({ timestamp: a.timestamp, id: a.id }),
        6,
        insertActivities
      )
      const keys = pages.map((a) => [a.timestamp, a.id] as const)
      expect(keys).toEqual([...keys].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1)))
      expect(new Set(pages.map((a) => a.id)).size).toBe(pages.length)
      expect(pages.map((a) => a.id).filter((id) => present.includes(id))).toEqual(present)
      expect(pages.some((a) => a.timestamp < T0)).toBe(false)
    }))

  it.effect("ActivitiesRepo.put replaces the record with the same id", () =>
    Effect.gen(function*() {
      const activities = yield* ActivitiesRepo
      const apiKey = unique("key")
      yield* activities.put(activity(apiKey, "org", "a", T0))
      const replaced = activity(apiKey, "org", "a", T0 + 7, { actionType: "edited", entityData: { text: "ü" }, isActivityResolverUsed: true })
      yield* activities.put(replaced)
      expect(yield* activities.find(apiKey, "org", "a")).toEqual(replaced)
      expect(yield* activities.page(apiKey, "org", { actionTypes: ["added"] }, { order: "asc", limit: 10 })).toEqual([])
    }))
}
