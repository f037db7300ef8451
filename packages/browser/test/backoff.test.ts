/** The realtime socket's reconnect waits: 250 ms doubling to 10 s, each drawn between half of it and all of it. */
import { describe, expect, it } from "vitest"
import { MAX_RETRY_MILLIS, retryDelay } from "../src/Realtime.js"

describe("retryDelay", () => {
  it("doubles from 250 ms to 10 s, each wait between half and all of its ceiling", () => {
    const ceilings = [1, 2, 3, 4, 5, 6, 7, 8, 20].map((failures) => [retryDelay(failures, () => 0), retryDelay(failures, () => 1)])
    expect(ceilings).toEqual([
      [125, 250],
      [250, 500],
      [500, 1000],
      [1000, 2000],
      [2000, 4000],
      [4000, 8000],
      [5000, 10_000],
      [5000, 10_000],
      [5000, MAX_RETRY_MILLIS]
    ])
    const drawn = Array.from({ length: 200 }, () => retryDelay(3))
    expect(Math.min(...drawn)).toBeGreaterThanOrEqual(500)
    expect(Math.max(...drawn)).toBeLessThanOrEqual(1000)
    expect(new Set(drawn).size).toBeGreaterThan(100) // jittered, not one value
  })
})
