import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { randomBytes } from "node:crypto"

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

/** `length` random base62 characters. */
export const randomBase62 = (length: number): string => {
  const bytes = randomBytes(length * 2)
  let out = ""
  for (let i = 0; out.length < length; i++) {
    const b = bytes[i % bytes.length]!
    if (b < 248) out += ALPHABET[b % 62] // 248 = 4 * 62: no modulo bias
    if (i >= bytes.length - 1 && out.length < length) return out + randomBase62(length - out.length)
  }
  return out
}

/** `n` in base62, left-padded to `width`: ALPHABET is in ASCII order, so these sort as the numbers do. */
const base62 = (n: number, width: number): string => {
  let out = ""
  for (let rest = Math.floor(n); rest > 0; rest = Math.floor(rest / 62)) out = ALPHABET[rest % 62] + out
  return out.padStart(width, "0")
}

/**
 * An id that starts with the time (`now`, base62 ms, 8 characters) and ends with the port's
 * random characters: ids made later sort later, so a table keyed by them grows at its end, as
 * with the KSUIDs Svix uses for messages. For rows written in bulk (webhook messages, attempts).
 */
export const timeOrderedId = (ids: Ids["Type"], prefix: string, now: number, length = 27): Effect.Effect<string> =>
  Effect.map(ids.make(undefined, length - 8), (random) => `${prefix}_${base62(now, 8)}${random}`)

/** Id generation port: server-made ids (`ep_…`, job ids, execution ids). */
export class Ids extends Context.Tag("@atrium/core/Ids")<Ids, {
  /** A new unique id, `prefix` + `_` + random characters (or just random characters without a prefix). */
  readonly make: (prefix?: string, length?: number) => Effect.Effect<string>
}>() {
  /** Random ids (production). */
  static readonly Random = Layer.succeed(Ids, {
    make: (prefix, length = 24) => Effect.sync(() => (prefix ? `${prefix}_` : "") + randomBase62(length))
  })

  /** Sequential, predictable ids for tests: `ep_000001`, `job_000002`, … */
  static readonly Sequential = Layer.sync(Ids, () => {
    let n = 0
    return {
      make: (prefix) => Effect.sync(() => (prefix ? `${prefix}_` : "") + String(++n).padStart(6, "0"))
    }
  })
}
