/**
 * The order every storage keeps text in: by code point, which is UTF-8's byte order (SQLite's,
 * and PostgreSQL's under `COLLATE "C"`). JavaScript's `<` compares UTF-16 units, which puts
 * U+E000 to U+FFFF after every character past U+FFFF (emoji). The memory repositories order and
 * page by it, and SQL repositories by it where they sort in JavaScript, so every storage lists
 * the same ids in the same order.
 */
export const compareText = (a: string, b: string): number => {
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x === y) continue
    // A surrogate is half of a code point above U+FFFF: after every unit that is a whole one.
    const xSurrogate = x >= 0xd800 && x <= 0xdfff
    const ySurrogate = y >= 0xd800 && y <= 0xdfff
    return xSurrogate === ySurrogate ? x - y : xSurrogate ? 1 : -1
  }
  return a.length - b.length
}
