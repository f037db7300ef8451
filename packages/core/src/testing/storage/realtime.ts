/** realtime/: RealtimeLogRepo. */
import * as Effect from "effect/Effect"
import { RealtimeLogRepo } from "../../realtime/RealtimeLogRepo.js"
import { Transactions } from "../../ports/Transactions.js"
import { type StorageCases, T0, unique } from "./fixtures.js"

export const cases: StorageCases = (it, expect) => {
  it.effect("RealtimeLogRepo: numbers each document's events in order, reads after a number, prunes by time", () =>
    Effect.gen(function*() {
      const log = yield* RealtimeLogRepo
      const doc = { apiKey: unique("key"), organizationId: "org", documentId: "doc" }
      const other = { ...doc, documentId: "other" }
      expect(yield* log.lastSeq(doc)).toBe(0)
      expect(yield* log.append(doc, [{ type: "comment.add", data: { n: 1 } }, { type: "comment.update", data: { n: 2, text: "é 😀" } }], T0)).toBe(2)
      expect(yield* log.append(other, [{ type: "comment.add", data: {} }], T0)).toBe(1)
      expect(yield* log.append(doc, [{ type: "comment.delete", data: { n: 3 } }], T0 + 10)).toBe(3)
      expect(yield* log.append(doc, [], T0 + 20)).toBe(3)
      expect(yield* log.lastSeq(doc)).toBe(3)
      expect(yield* log.since(doc, 0, 10)).toEqual([
        { seq: 1, type: "comment.add", payloadJson: "{\"n\":1}", at: T0 },
        { seq: 2, type: "comment.update", payloadJson: "{\"n\":2,\"text\":\"é 😀\"}", at: T0 },
        { seq: 3, type: "comment.delete", payloadJson: "{\"n\":3}", at: T0 + 10 }
      ])
      expect((yield* log.since(doc, 1, 1)).map((e) => e.seq)).toEqual([2])
      expect(yield* log.since(doc, 3, 10)).toEqual([])
      // Another key's document of the same ids is its own log.
      expect(yield* log.since({ ...doc, apiKey: unique("key") }, 0, 10)).toEqual([])
      yield* log.pruneBefore(T0 + 10)
      expect((yield* log.since(doc, 0, 10)).map((e) => e.seq)).toEqual([3])
      // Pruning keeps the numbers: the next event is the fourth.
      expect(yield* log.append(doc, [{ type: "comment.add", data: {} }], T0 + 30)).toBe(4)
    }))

  it.effect("RealtimeLogRepo: a rolled-back change gives its numbers back", () =>
    Effect.gen(function*() {
      const log = yield* RealtimeLogRepo
      const { withTransaction } = yield* Transactions
      const doc = { apiKey: unique("key"), organizationId: "org", documentId: "doc" }
      yield* log.append(doc, [{ type: "a", data: {} }], T0)
      yield* withTransaction(Effect.zipRight(log.append(doc, [{ type: "b", data: {} }], T0), Effect.fail("rolled back"))).pipe(Effect.ignore)
      expect(yield* log.append(doc, [{ type: "c", data: {} }], T0)).toBe(2)
      expect((yield* log.since(doc, 0, 10)).map((e) => `${e.seq}:${e.type}`)).toEqual(["1:a", "2:c"])
    }))

  it.effect("RealtimeLogRepo: followers per server, renewed, expired", () =>
    Effect.gen(function*() {
      const log = yield* RealtimeLogRepo
      const [a, b, c] = [unique("key"), unique("key"), unique("key")]
      const [s1, s2] = [unique("server"), unique("server")]
      const mine = (keys: ReadonlyArray<string>) => keys.filter((key) => [a, b, c].includes(key))
      yield* log.follow(s1, [a, b], T0, T0 + 100)
      yield* log.follow(s2, [b], T0, T0 + 100)
      expect(mine(yield* log.followedKeys(T0))).toEqual([a, b].sort())
      yield* log.follow(s1, [a], T0 + 50, T0 + 300) // renewed
      yield* log.follow(s2, [c], T0 + 50, T0 + 300)
      expect(mine(yield* log.followedKeys(T0 + 200))).toEqual([a, c].sort())
      yield* log.forgetExpiredFollows(T0 + 400)
      expect(mine(yield* log.followedKeys(T0 + 200))).toEqual([])
    }))

  it.effect("RealtimeLogRepo: a key's unbroken run of follows, across servers, and a new one after a break", () =>
    Effect.gen(function*() {
      const log = yield* RealtimeLogRepo
      const key = unique("key")
      const [s1, s2] = [unique("server"), unique("server")]
      expect(yield* log.followedSince(key, T0)).toBeUndefined()
      yield* log.follow(s1, [key], T0, T0 + 30)
      expect(yield* log.followedSince(key, T0 + 10)).toBe(T0)
      // Renewed in time: the run goes on.
      yield* log.follow(s1, [key], T0 + 20, T0 + 50)
      expect(yield* log.followedSince(key, T0 + 40)).toBe(T0)
      // Another server joins while s1's row lives: it takes the run's start, and keeps it after s1's row ran out.
      yield* log.follow(s2, [key], T0 + 40, T0 + 100)
      expect(yield* log.followedSince(key, T0 + 60)).toBe(T0)
      // Nobody for a while (every row ran out): a follow then starts a new run, and so does s2 renewing late.
      expect(yield* log.followedSince(key, T0 + 200)).toBeUndefined()
      yield* log.follow(s1, [key], T0 + 200, T0 + 230)
      expect(yield* log.followedSince(key, T0 + 210)).toBe(T0 + 200)
      yield* log.follow(s2, [key], T0 + 300, T0 + 330)
      expect(yield* log.followedSince(key, T0 + 310)).toBe(T0 + 300)
    }))
}
