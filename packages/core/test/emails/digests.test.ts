/** planDigests (emails/Digests.ts): which emails one recipient's due items make, by the batching rules and the time. */
import { describe, expect, it } from "vitest"
import { type BatchRule, planDigests } from "../../src/emails/Digests.js"

const OFF: BatchRule = { isEnabled: false, batchWindowSeconds: 10, maxActivities: 2 }
const rule = (batchWindowSeconds: number, maxActivities: number): BatchRule => ({ isEnabled: true, batchWindowSeconds, maxActivities })
const item = (id: string, documentId: string, dueSeconds: number) => ({ id, organizationId: "org", documentId, dueAt: dueSeconds * 1000 })
const ids = (plan: ReturnType<typeof planDigests<ReturnType<typeof item>>>) => plan.sends.map((send) => [send.scope, send.items.map((i) => i.id).join(",")])

describe("planDigests", () => {
  const a1 = item("a1", "A", 0), a2 = item("a2", "A", 3), b1 = item("b1", "B", 4), a3 = item("a3", "A", 5), a4 = item("a4", "A", 12)

  it("without batching, one email per item at once", () => {
    const plan = planDigests([a1, a2, b1], { document: OFF, user: OFF }, 4000)
    expect(ids(plan)).toEqual([["single", "a1"], ["single", "a2"], ["single", "b1"]])
    expect(plan.nextCheckAt).toBeUndefined()
  })

  it("a document digest waits for its window, then takes what came in it; each document its own", () => {
    const rules = { document: rule(10, 50), user: OFF }
    const early = planDigests([a1, a2, b1, a3], rules, 9999)
    expect(ids(early)).toEqual([])
    expect(early.nextCheckAt).toBe(10_000)
    const closed = planDigests([a1, a2, b1, a3, a4], rules, 10_000)
    expect(ids(closed)).toEqual([["document", "a1,a2,a3"]])
    // a4 came after A's window: it opens the next one; B's closes 10 s after b1.
    expect(closed.nextCheckAt).toBe(14_000)
    expect(ids(planDigests([b1, a4], rules, 22_000))).toEqual([["single", "b1"], ["single", "a4"]])
  })

  it("a digest closes early on its maxActivities-th item, with that many", () => {
    const plan = planDigests([a1, a2, a3], { document: rule(600, 2), user: OFF }, 5000)
    expect(ids(plan)).toEqual([["document", "a1,a2"]])
    expect(plan.nextCheckAt).toBe(605_000)
  })

  it("a user digest gathers every document", () => {
    expect(ids(planDigests([a1, b1, a3], { document: OFF, user: rule(10, 50) }, 10_000))).toEqual([["user", "a1,b1,a3"]])
  })

  it("with both, an item goes with whichever digest closes first, never twice", () => {
    // A's digest fills at a2 (3 s). The user digest's window is then held open by what is left
    // (b1, at 4 s): it closes at 14 s, so no item waits more than one window once due.
    const rules = { document: rule(60, 2), user: rule(10, 50) }
    const plan = planDigests([a1, a2, b1, a3], rules, 10_000)
    expect(ids(plan)).toEqual([["document", "a1,a2"]])
    expect(plan.nextCheckAt).toBe(14_000)
    expect(ids(planDigests([b1, a3], rules, 14_000))).toEqual([["user", "b1,a3"]])
    // The user digest first, when it closes first: A's then holds nothing.
    expect(ids(planDigests([a1, a2, b1], { document: rule(60, 50), user: rule(5, 50) }, 60_000))).toEqual([["user", "a1,a2,b1"]])
  })
})
