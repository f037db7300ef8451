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
