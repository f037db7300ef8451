/**
 * Users' tokens on the request path (TokenVerification.ts; spec client-api.md, "Conventions" 3):
 * every token not issued by this Atrium is "Invalid token.", an expired one "Token expired." with
 * `details.reason: "token_expired"`, and a good one is verified once and kept until it expires.
 * The tokens are made with jose itself, the way an attacker or another issuer would make them.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/TestClock"
import { base64url, generateKeyPair, SignJWT, UnsecuredJWT } from "jose"
import { generateSigningKey, jwks, type SigningKey, signUserToken } from "../../src/tokens/Jwt.js"
import { makeTokenVerification } from "../../src/tokens/TokenVerification.js"

const ISSUER = "atrium"
const T0_SECONDS = 1_750_000_000
const claims = { issuer: ISSUER, userId: "ann", audience: "key-1", issuedAtSeconds: T0_SECONDS, jti: "j1", user: { userId: "ann", name: "Ann", email: "ann@example.com", isAdmin: false }, permissions: { resources: [] } }

const setup = Effect.gen(function*() {
  const key = yield* Effect.promise(() => generateSigningKey("k1", 0))
  let loads = 0
  let stored: ReadonlyArray<SigningKey> = [key]
  const verification = makeTokenVerification({ issuer: ISSUER, loadKeys: Effect.sync(() => (loads++, jwks(stored))), capacity: 2 })
  yield* TestClock.setTime(T0_SECONDS * 1000)
  return { key, verification, loads: () => loads, store: (keys: ReadonlyArray<SigningKey>) => (stored = keys) }
})

const refusal = (effect: Effect.Effect<unknown, { readonly message: string; readonly details?: unknown }>) =>
  Effect.map(Effect.flip(effect), (error) => ({ message: error.message, details: error.details }))

const INVALID = { message: "Invalid token.", details: undefined }

describe("token verification", () => {
  it.effect("a token this Atrium signed: its payload, verified once and then kept", () =>
    Effect.gen(function*() {
      const { key, loads, verification } = yield* setup
      const token = yield* Effect.promise(() => signUserToken(key, claims))
      const first = yield* verification.verify(token)
      expect(first).toMatchObject({ userId: "ann", apiKey: "key-1", user: { name: "Ann" } })
      expect(yield* verification.verify(token)).toBe(first) // the kept object, not verified again
      expect(loads()).toBe(1)
    }))

  it.effect("expired: 'Token expired.' with details.reason token_expired, whether kept or not", () =>
    Effect.gen(function*() {
      const { key, verification } = yield* setup
      const short = yield* Effect.promise(() => signUserToken(key, { ...claims, lifetimeSeconds: 60 }))
      yield* verification.verify(short)
      yield* TestClock.adjust("60 seconds")
      expect(yield* refusal(verification.verify(short))).toEqual({ message: "Token expired.", details: { reason: "token_expired" } })
      const unseen = yield* Effect.promise(() => signUserToken(key, { ...claims, jti: "j2", lifetimeSeconds: 60 }))
      expect(yield* refusal(verification.verify(unseen))).toEqual({ message: "Token expired.", details: { reason: "token_expired" } })
    }))

  it.effect("alg none, HS256, ES384, a tampered payload, another issuer, another key, garbage: 'Invalid token.'", () =>
    Effect.gen(function*() {
      const { key, verification } = yield* setup
      const payload = { user: claims.user, permissions: claims.permissions }
      const build = <T extends SignJWT | UnsecuredJWT>(jwt: T): T =>
        jwt.setIssuer(ISSUER).setSubject("ann").setAudience("key-1").setIssuedAt(T0_SECONDS).setExpirationTime(T0_SECONDS + 3600).setJti("x") as T
      const none = build(new UnsecuredJWT(payload)).encode()
      const hs256 = yield* Effect.promise(() =>
        build(new SignJWT(payload).setProtectedHeader({ alg: "HS256", kid: "k1", typ: "JWT" })).sign(new TextEncoder().encode("k".repeat(32)))
      )
      const es384 = yield* Effect.promise(async () => {
        const pair = await generateKeyPair("ES384")
        return build(new SignJWT(payload).setProtectedHeader({ alg: "ES384", kid: "k1", typ: "JWT" })).sign(pair.privateKey)
      })
      const good = yield* Effect.promise(() => signUserToken(key, claims))
      const [head, body, signature] = good.split(".")
      const tampered = [head, base64url.encode(JSON.stringify({ ...JSON.parse(new TextDecoder().decode(base64url.decode(body!))), sub: "admin" })), signature].join(".")
      const otherIssuer = yield* Effect.promise(() => signUserToken(key, { ...claims, issuer: "someone-else" }))
      const stranger = yield* Effect.promise(async () => signUserToken(await generateSigningKey("k1", 0), claims)) // the same kid, another key
      for (const token of [none, hs256, es384, tampered, otherIssuer, stranger, "not a jwt", "", `${head}.${body}`]) {
        expect(yield* refusal(verification.verify(token))).toEqual(INVALID)
      }
    }))

  it.effect("an unknown kid reads the keys again (another server made one), at most every 10 s", () =>
    Effect.gen(function*() {
      const { key, loads, store, verification } = yield* setup
      yield* verification.verify(yield* Effect.promise(() => signUserToken(key, claims)))
      const newer = yield* Effect.promise(() => generateSigningKey("k2", 0))
      const byNewer = yield* Effect.promise(() => signUserToken(newer, { ...claims, jti: "j3" }))
      yield* TestClock.adjust("10 seconds")
      expect(yield* refusal(verification.verify(byNewer))).toEqual(INVALID) // not stored yet: read again, still unknown
      expect(loads()).toBe(2)
      store([key, newer])
      expect(yield* refusal(verification.verify(byNewer))).toEqual(INVALID) // within 10 s: not read again
      expect(loads()).toBe(2)
      yield* TestClock.adjust("10 seconds")
      expect(yield* verification.verify(byNewer)).toMatchObject({ userId: "ann", jti: "j3" })
      expect(loads()).toBe(3)
    }))

  it.effect("keeps at most its capacity of tokens", () =>
    Effect.gen(function*() {
      const { key, verification } = yield* setup
      for (const jti of ["a", "b", "c"]) yield* verification.verify(yield* Effect.promise(() => signUserToken(key, { ...claims, jti })))
      expect(verification.size).toBe(2)
    }))
})
