/** tokens/: SigningKeysRepo. */
import * as Effect from "effect/Effect"
import { SigningKeysRepo } from "../../tokens/SigningKeysRepo.js"
import { type StorageCases, T0, unique } from "./fixtures.js"

export const cases: StorageCases = (it, expect) => {
  it.effect("SigningKeysRepo keeps the first active key", () =>
    Effect.gen(function*() {
      const keys = yield* SigningKeysRepo
      const key = (kid: string, createdAt: number) => ({
        kid,
        alg: "ES256",
        privateJwk: { kty: "EC", d: kid },
        publicJwk: { kty: "EC", x: kid },
        createdAt,
        active: true
      })
      const first = key(unique("kid-a"), T0)
      yield* keys.insertIfNoneActive(first)
      yield* keys.insertIfNoneActive(key(unique("kid-b"), T0 + 1))
      expect(yield* keys.active).toEqual(first)
      expect(yield* keys.list).toEqual([first])
    }))
}
