import * as FastCheck from "effect/FastCheck"
import { describe, expect, it } from "vitest"
import { compareText } from "../src/TextOrder.js"

/** The order SQLite and PostgreSQL (`COLLATE "C"`) keep text in: the bytes of its UTF-8. */
const byBytes = (a: string, b: string) => Math.sign(Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8")))

describe("compareText", () => {
  it("orders text as its UTF-8 bytes do, for any characters", () => {
    const text = FastCheck.string({ unit: "grapheme", maxLength: 6 }) // letters, emoji, private use, U+FFFD
    FastCheck.assert(FastCheck.property(text, text, (a, b) => Math.sign(compareText(a, b)) === byBytes(a, b)), { numRuns: 5000 })
  })

  it("puts U+E000 to U+FFFF before emoji, where JavaScript's < puts them after", () => {
    const ids = ["😀", "\ufffd", "a", "\ue000", "é", "a😀", "a\uffff"]
    expect([...ids].sort(compareText)).toEqual(["a", "a\uffff", "a😀", "é", "\ue000", "\ufffd", "😀"])
    expect("😀" < "\ufffd").toBe(true) // the order it replaces
  })
})
