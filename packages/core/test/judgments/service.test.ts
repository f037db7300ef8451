import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/TestClock"
import { atriumLayer } from "../../src/Atrium.js"
import { Judgments } from "../../src/judgments/Judgments.js"
import { Ids } from "../../src/ports/Ids.js"
import { MemoryStorage } from "../../src/testing/index.js"

const DAY = 24 * 60 * 60 * 1000
const layer = atriumLayer({ storage: MemoryStorage, ids: Ids.Sequential })

const rejection = (reviewerId: string) => ({
  content: "Ad copy: clinically proven to reduce wrinkles",
  reasoning: "Unsupported medical claim",
  decision: "rejected" as const,
  judgeType: "human" as const,
  reviewerId
})

describe("Judgments (service)", () => {
  it.effect("stamps judgments with the Clock and warns when the supporting pattern has gone stale", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.UTC(2025, 0, 1))
      yield* Judgments.add("ak_1", { judgments: [rejection("r1"), rejection("r2")] })
      const { results } = yield* Judgments.query("ak_1", {})
      expect(results.map((r) => r.createdAt)).toEqual([Date.UTC(2025, 0, 1), Date.UTC(2025, 0, 1)])

      const fresh = yield* Judgments.suggest("ak_1", { query: "clinically proven" })
      expect(fresh.primary?.caveats).toEqual(["Limited precedent: based on 2 judgments"])

      // Just under the engine's six months (183 days) nothing changes; past it the pattern is stale.
      yield* TestClock.adjust(183 * DAY)
      expect((yield* Judgments.suggest("ak_1", { query: "clinically proven" })).primary?.caveats).toEqual([
        "Limited precedent: based on 2 judgments"
      ])
      yield* TestClock.adjust(1)
      expect((yield* Judgments.suggest("ak_1", { query: "clinically proven" })).primary?.caveats).toEqual([
        "Stale pattern: >70% of supporting data is older than 6 months",
        "Limited precedent: based on 2 judgments"
      ])
    }).pipe(Effect.provide(layer)))

  it.effect("keeps only the judgments of the key it is asked for", () =>
    Effect.gen(function*() {
      yield* Judgments.add("ak_other", { judgments: [rejection("r1"), rejection("r2")] })
      expect(yield* Judgments.suggest("ak_1", { query: "clinically proven" })).toEqual({ primary: null, conflict: null })
      expect((yield* Judgments.suggest("ak_other", { query: "clinically proven" })).primary?.basedOn).toBe(2)
    }).pipe(Effect.provide(layer)))
})
