/** livestate/: LiveStateRepo. */
import * as Effect from "effect/Effect"
import { LiveStateRepo } from "../../livestate/LiveStateRepo.js"
import { LONG_IDS, type StorageCases, T0, unique } from "./fixtures.js"

export const cases: StorageCases = (it, expect) => {
  it.effect("LiveStateRepo: one row per document and live state, replaced whole, apart per key", () =>
    Effect.gen(function*() {
      const repo = yield* LiveStateRepo
      const key = { apiKey: unique("key"), organizationId: "org", documentId: "doc", liveStateDataId: "cursor" }
      expect(yield* repo.find(key)).toBeUndefined()
      yield* repo.put({ ...key, data: "{\"x\":1,\"text\":\"é 😀\"}", version: 1, updatedAt: T0 })
      expect(yield* repo.find(key)).toEqual({ ...key, data: "{\"x\":1,\"text\":\"é 😀\"}", version: 1, updatedAt: T0 })
      yield* repo.put({ ...key, data: "{\"y\":2}", version: 2 ** 31 + 1, updatedAt: T0 + 5 })
      expect(yield* repo.find(key)).toEqual({ ...key, data: "{\"y\":2}", version: 2 ** 31 + 1, updatedAt: T0 + 5 })
      // Another live state, document or key of the same ids is its own row.
      for (const other of [{ ...key, liveStateDataId: "other" }, { ...key, documentId: "other" }, { ...key, apiKey: unique("key") }]) {
        expect(yield* repo.find(other)).toBeUndefined()
      }
      for (const id of LONG_IDS) {
        const long = { ...key, organizationId: id, documentId: id, liveStateDataId: id }
        yield* repo.put({ ...long, data: "{}", version: 1, updatedAt: T0 })
        expect((yield* repo.find(long))?.liveStateDataId).toBe(id)
      }
    }))
}
