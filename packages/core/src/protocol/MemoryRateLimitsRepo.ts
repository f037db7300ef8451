import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MemoryDb } from "../testing/memory/MemoryDb.js"
import { RateLimitsRepo } from "./RateLimitsRepo.js"

export const MemoryRateLimitsRepo = Layer.effect(
  RateLimitsRepo,
  Effect.map(MemoryDb, (db) => {
    const table = db.table<{ windowStart: number; hits: number }>("rate_limits")
    return {
      hit: (key, windowStart) =>
        Effect.sync(() => {
          const current = table.get(key)
          const hits = current !== undefined && current.windowStart === windowStart ? current.hits + 1 : 1
          table.set(key, { windowStart, hits })
          return hits
        })
    }
  })
)
