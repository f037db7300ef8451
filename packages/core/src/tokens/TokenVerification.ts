import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { errors, type JWK } from "jose"
import { keepLatest } from "../BoundedMap.js"
import { unauthenticated } from "../protocol/ApiError.js"
import { type VerifiedToken, verifyToken } from "./Jwt.js"

/** How many verified tokens one server keeps (about 1 KB each with a token's worth of resources). */
export const VERIFIED_TOKENS_CAPACITY = 20_000

/** How long an unknown `kid` waits before the keys are read from storage again (another server may have made one). */
const KEYS_RELOAD_MILLIS = 10_000

/** The spec's answers (client-api.md, "Conventions" 3): one message for every bad token, another for an expired one. */
export const invalidToken = (details?: Readonly<Record<string, unknown>>) => unauthenticated("Invalid token.", details)
export const tokenExpired = () => unauthenticated("Token expired.", { reason: "token_expired" })
export type TokenRefusal = ReturnType<typeof invalidToken>

/**
 * Verifying the tokens `generate_token` issued, cheaply: ES256 verification is the costly part of
 * a bearer call (about 100 µs), so each token is verified once and kept, by its text, until it
 * expires (least recently used out past the capacity); a kept token is still refused once past
 * `exp`. Only ES256, only this server's issuer, only the stored keys: `alg: none`, HS256, another
 * issuer and an unknown `kid` are "Invalid token." (docs/decisions.md, "Client API").
 */
export const makeTokenVerification = (options: {
  readonly issuer: string
  /** The public keys, read from storage. */
  readonly loadKeys: Effect.Effect<{ keys: JWK[] }>
  readonly capacity?: number
}) => {
  const capacity = options.capacity ?? VERIFIED_TOKENS_CAPACITY
  const verified = new Map<string, VerifiedToken>()
  let keys: { keys: JWK[] } | undefined
  let keysReadAt = -Infinity

  const keep = (token: string, payload: VerifiedToken) => keepLatest(verified, token, payload, capacity)

  /** jose's verdict on the token against `set`: the payload, "expired", "unknown key" or "invalid". */
  const check = (token: string, set: { keys: JWK[] }, now: number) =>
    Effect.promise(() =>
      verifyToken(token, { jwks: set, issuer: options.issuer, currentDate: new Date(now) }).then(
        (payload) => payload,
        (error: unknown) =>
          error instanceof errors.JWTExpired ? "expired" as const
          : error instanceof errors.JWKSNoMatchingKey ? "unknown key" as const
          : "invalid" as const
      )
    )

  const currentKeys = (now: number, reload: boolean) =>
    keys !== undefined && !(reload && now - keysReadAt >= KEYS_RELOAD_MILLIS)
      ? Effect.succeed(keys)
      : Effect.map(options.loadKeys, (loaded) => {
        keys = loaded
        keysReadAt = now
        return loaded
      })

  return {
    /** The token's payload, or UNAUTHENTICATED as the spec words it. */
    verify: (token: string): Effect.Effect<VerifiedToken, TokenRefusal> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const kept = verified.get(token)
        if (kept !== undefined) {
          if (kept.expiresAt * 1000 <= now) {
            verified.delete(token)
            return Effect.fail(tokenExpired())
          }
          keep(token, kept)
          return Effect.succeed(kept)
        }
        const verifyWith = (reload: boolean): Effect.Effect<VerifiedToken, TokenRefusal> =>
          Effect.flatMap(currentKeys(now, reload), (set) =>
            Effect.flatMap(check(token, set, now), (verdict) => {
              if (verdict === "unknown key" && !reload) return verifyWith(true)
              if (verdict === "expired") return Effect.fail(tokenExpired())
              if (typeof verdict === "string") return Effect.fail(invalidToken())
              keep(token, verdict)
              return Effect.succeed(verdict)
            }))
        return verifyWith(false)
      }),
    get size() {
      return verified.size
    }
  }
}
