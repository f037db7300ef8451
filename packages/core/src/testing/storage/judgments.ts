/** judgments/: JudgmentsRepo. */
import * as Effect from "effect/Effect"
import { JudgmentsRepo } from "../../judgments/JudgmentsRepo.js"
import { OrganizationsRepo } from "../../organizations/OrganizationsRepo.js"
import { judgment, type StorageCases, T0, unique } from "./fixtures.js"

export const cases: StorageCases = (it, expect) => {
  it.effect("JudgmentsRepo.latest orders by time then id", () =>
    Effect.gen(function*() {
      const judgments = yield* JudgmentsRepo
      const apiKey = unique("key")
      const ids = ["e3", "e1", "e4", "e2", "e5"]
      for (const [i, id] of ids.entries()) {
        yield* judgments.upsert(judgment(apiKey, id, T0 + (i % 2)))
      }
      expect((yield* judgments.latest(apiKey, {}, 3)).map((j) => j.id)).toEqual(["e2", "e1", "e5"])
    }))

  it.effect("JudgmentsRepo keeps exact fractions, and counts by every filter", () =>
    Effect.gen(function*() {
      const judgments = yield* JudgmentsRepo
      const apiKey = unique("key")
      const exact = judgment(apiKey, "j", T0, { confidence: 0.123456789012345, contentType: "text", documentId: "doc", judgeType: "agent" })
      yield* judgments.upsert(exact)
      yield* judgments.upsert(judgment(apiKey, "k", T0 + 1, { decision: "reject", reviewerId: null }))
      expect(yield* judgments.latest(apiKey, { documentId: "doc", judgeType: "agent", contentType: "text" }, 5)).toEqual([exact])
      expect(yield* judgments.count(apiKey, { decision: "reject" })).toBe(1)
      expect(yield* judgments.count(apiKey, { reviewerId: "reviewer-1", organizationId: "org-1" })).toBe(1)
      yield* judgments.upsert({ ...exact, decision: "reject" })
      expect(yield* judgments.count(apiKey, { decision: "reject" })).toBe(2)
    }))

  it.effect("JudgmentsRepo neither reads nor counts a disabled organization's judgments, with or without its filter", () =>
    Effect.gen(function*() {
      const judgments = yield* JudgmentsRepo
      const organizations = yield* OrganizationsRepo
      const apiKey = unique("key")
      yield* judgments.upsert(judgment(apiKey, "on", T0, { organizationId: "org-on" }))
      yield* judgments.upsert(judgment(apiKey, "off", T0 + 1, { organizationId: "org-off" }))
      yield* judgments.upsert(judgment(apiKey, "none", T0 + 2, { organizationId: null, documentId: null }))
      yield* organizations.ensure(apiKey, "org-off", T0)
      yield* organizations.setDisabled(apiKey, "org-off", true, T0)
      expect((yield* judgments.latest(apiKey, {}, 10)).map((j) => j.id)).toEqual(["none", "on"])
      expect(yield* judgments.count(apiKey, {})).toBe(2)
      expect(yield* judgments.latest(apiKey, { organizationId: "org-off" }, 10)).toEqual([])
      expect(yield* judgments.count(apiKey, { organizationId: "org-off" })).toBe(0)
      yield* organizations.setDisabled(apiKey, "org-off", false, T0)
      expect(yield* judgments.count(apiKey, {})).toBe(3)
      // What the service asks before replacing a judgment by id.
      expect([yield* judgments.organizationOf(apiKey, "off"), yield* judgments.organizationOf(apiKey, "none"), yield* judgments.organizationOf(apiKey, "gone")])
        .toEqual(["org-off", null, undefined])
    }))
}
