import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/TestClock"
import { Activities } from "../../src/activities/Activities.js"
import { atriumLayer } from "../../src/Atrium.js"
import { Ids } from "../../src/ports/Ids.js"
import { MemoryStorage } from "../../src/testing/index.js"

const layer = atriumLayer({ storage: MemoryStorage, ids: Ids.Sequential })

const API_KEY = "key"

const add = (...activities: ReadonlyArray<{ id?: string; timestamp?: number }>) =>
  Activities.add(API_KEY, {
    organizationId: "org",
    documentId: "doc",
    activities: activities.map((a) => ({
      ...a,
      featureType: "comment" as const,
      actionType: "comment.add",
      actionUser: { userId: "u1" }
    }))
  })

const page = (order: "asc" | "desc", pageToken?: string) =>
  Activities.get(API_KEY, { organizationId: "org", order, pageSize: 2, ...(pageToken !== undefined && { pageToken }) })
    .pipe(Effect.map((result) => ({
      ids: result.items.map((a) => a.id),
      keys: result.items.map((a) => [a.timestamp, a.id] as const),
      pageToken: result.next
    })))

/** Three activities at each of the timestamps 100, 200 and 300. */
const originals = [100, 200, 300].flatMap((timestamp) => ["a", "b", "c"].map((suffix) => ({ id: `${timestamp}${suffix}`, timestamp })))

const strictlyOrdered = (keys: ReadonlyArray<readonly [number, string]>, order: "asc" | "desc") =>
  keys.every((key, i) => {
    if (i === 0) return true
    const [t0, id0] = keys[i - 1]!
    const [t1, id1] = key
    const ascending = t0 < t1 || (t0 === t1 && id0 < id1)
    return order === "asc" ? ascending : !ascending && !(t0 === t1 && id0 === id1)
  })

describe("activities/get keyset pages", () => {
  it.effect("stay stable in desc order while activities are added between fetches", () =>
    Effect.gen(function*() {
      yield* add(...originals)
      const first = yield* page("desc")
      expect(first.ids).toEqual(["300c", "300b"])

      // Ahead of the cursor (newer, or the cursor's timestamp with a larger id): never shown now.
      // Behind it (older, or the same timestamp with a smaller id): shown once, in place.
      yield* add({ id: "400a", timestamp: 400 }, { id: "300bz", timestamp: 300 }, { id: "300ab", timestamp: 300 }, { id: "050a", timestamp: 50 })
      const seen = [...first.ids]
      const keys = [...first.keys]
      let pageToken = first.pageToken
      let fetched = 1
      while (pageToken !== undefined) {
        const next = yield* page("desc", pageToken)
        seen.push(...next.ids)
        keys.push(...next.keys)
        pageToken = next.pageToken
        // Keep adding between fetches: a newer one each time, never seen.
        yield* add({ id: `500-${fetched++}`, timestamp: 500 })
      }
      expect(seen).toEqual(["300c", "300b", "300ab", "300a", "200c", "200b", "200a", "100c", "100b", "100a", "050a"])
      expect(new Set(seen).size).toBe(seen.length)
      expect(strictlyOrdered(keys, "desc")).toBe(true)
    }).pipe(Effect.provide(layer)))

  it.effect("stay stable in asc order while activities are added and updated between fetches", () =>
    Effect.gen(function*() {
      yield* add(...originals)
      const first = yield* page("asc")
      expect(first.ids).toEqual(["100a", "100b"])

      yield* add({ id: "050a", timestamp: 50 }, { id: "100ab", timestamp: 100 }, { id: "100bz", timestamp: 100 }, { id: "400a", timestamp: 400 })
      // An update keeps the timestamp, so an activity already seen does not come back.
      yield* Activities.update(API_KEY, { organizationId: "org", activities: [{ id: "100a", actionIcon: "edited" }] })
      const seen = [...first.ids]
      const keys = [...first.keys]
      let pageToken = first.pageToken
      while (pageToken !== undefined) {
        const next = yield* page("asc", pageToken)
        seen.push(...next.ids)
        keys.push(...next.keys)
        pageToken = next.pageToken
        // Re-adding an id already seen, with its own timestamp, does not repeat it either.
        yield* add({ id: "100b", timestamp: 100 })
      }
      expect(seen).toEqual(["100a", "100b", "100bz", "100c", "200a", "200b", "200c", "300a", "300b", "300c", "400a"])
      expect(new Set(seen).size).toBe(seen.length)
      expect(strictlyOrdered(keys, "asc")).toBe(true)
    }).pipe(Effect.provide(layer)))

  it.effect("time-stamps activities without a timestamp with the Clock, so later ones sort first", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(1_000)
      yield* add({ id: "early" })
      yield* TestClock.adjust(5_000)
      yield* add({ id: "late" })
      const all = yield* Activities.get(API_KEY, { organizationId: "org" })
      expect(all.items.map((a) => [a.id, a.timestamp])).toEqual([["late", 6_000], ["early", 1_000]])
    }).pipe(Effect.provide(layer)))
})
