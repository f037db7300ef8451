/**
 * The coalescer behind realtime presence (realtime/Coalescer.ts): latest wins, at most once per
 * interval and key, the last value never lost. Real timers, with intervals short enough to run fast.
 */
import { describe, expect, it } from "vitest"
import { makeCoalescer } from "../../src/realtime/Coalescer.js"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe("makeCoalescer", () => {
  it("lets the first value through at once, then only the last of each interval", async () => {
    const flushed: Array<[string, number, number]> = []
    const started = Date.now()
    const coalescer = makeCoalescer<number>(100, (key, value) => flushed.push([key, value, Date.now() - started]))
    coalescer.offer("a", 1)
    expect(flushed.map(([, value]) => value)).toEqual([1])
    for (let i = 2; i <= 30; i++) {
      coalescer.offer("a", i)
      await sleep(10)
    }
    await sleep(150)
    const values = flushed.map(([, value]) => value)
    // ~300 ms of offers at 100 ms: the first, about three more, and the last one.
    expect(values[0]).toBe(1)
    expect(values.at(-1)).toBe(30)
    expect(values.length).toBeGreaterThanOrEqual(3)
    expect(values.length).toBeLessThanOrEqual(6)
    const times = flushed.map(([, , at]) => at)
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(95)
  })

  it("keeps keys apart, waits a full interval after a touch, and drops what waits on cancel", async () => {
    const flushed: Array<string> = []
    const coalescer = makeCoalescer<string>(60, (key, value) => flushed.push(`${key}=${value}`))
    coalescer.offer("a", "1")
    coalescer.offer("b", "1")
    expect(flushed).toEqual(["a=1", "b=1"])
    coalescer.touch("c")
    coalescer.offer("c", "held")
    expect(flushed).toEqual(["a=1", "b=1"])
    coalescer.offer("a", "dropped")
    coalescer.cancel("a")
    await sleep(100)
    expect(flushed).toEqual(["a=1", "b=1", "c=held"])
    // After a quiet interval, the next value goes at once again.
    coalescer.offer("b", "2")
    expect(flushed.at(-1)).toBe("b=2")
    coalescer.offer("b", "3")
    coalescer.clear()
    await sleep(100)
    expect(flushed.at(-1)).toBe("b=2")
  })
})
