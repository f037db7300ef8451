import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/TestClock"
import { errors } from "jose"
import { atriumLayer } from "../../src/Atrium.js"
import { Ids } from "../../src/ports/Ids.js"
import { MemoryStorage } from "../../src/testing/index.js"
import { verifyToken } from "../../src/tokens/Jwt.js"
import { Tokens } from "../../src/tokens/Tokens.js"

const ISSUER = "https://atrium.test"
const layer = atriumLayer({ storage: MemoryStorage, ids: Ids.Sequential, options: { issuer: ISSUER } })

const input = {
  userId: "u1",
  userProperties: { name: "Ada", email: "ada@example.com" },
  permissions: { resources: [{ type: "organization" as const, id: "org1" }] }
}

/** The verification outcome at `seconds` since the epoch: the payload, or the jose error. */
const verifyAt = (token: string, jwks: Effect.Effect.Success<typeof Tokens.jwks>, seconds: number) =>
  Effect.promise(() =>
    verifyToken(token, { jwks, issuer: ISSUER, audience: "ak_1", currentDate: new Date(seconds * 1000) }).then(
      (verified) => verified,
      (error: unknown) => error
    )
  )

describe("Tokens.generate", () => {
  it.effect("takes iat from the Clock: valid until the last second of 48 hours, expired at 48 hours", () =>
    Effect.gen(function*() {
      // Half a second past a whole second: iat is rounded down.
      yield* TestClock.setTime(1_800_000_000_500)
      const data = yield* Tokens.generate("ak_1", input)
      const jwks = yield* Tokens.jwks
      const iat = 1_800_000_000

      const valid = yield* verifyAt(data.token, jwks, iat + 48 * 3600 - 1)
      expect(valid).toMatchObject({ issuer: ISSUER, apiKey: "ak_1", userId: "u1", issuedAt: iat, expiresAt: iat + 172800 })
      expect(yield* verifyAt(data.token, jwks, iat + 48 * 3600)).toBeInstanceOf(errors.JWTExpired)
    }).pipe(Effect.provide(layer)))

  it.effect("makes one signing key at first use and keeps signing with it", () =>
    Effect.gen(function*() {
      const jwksBefore = yield* Tokens.jwks
      expect(jwksBefore.keys).toHaveLength(1)
      yield* TestClock.adjust(1000)
      const first = yield* Tokens.generate("ak_1", input)
      const second = yield* Tokens.generate("ak_1", input)
      expect(yield* Tokens.jwks).toEqual(jwksBefore)
      for (const data of [first, second]) {
        expect(yield* verifyAt(data.token, jwksBefore, 1)).toMatchObject({ userId: "u1" })
      }
    }).pipe(Effect.provide(layer)))
})
