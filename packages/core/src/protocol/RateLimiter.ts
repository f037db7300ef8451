import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { RateLimit } from "../Config.js"
import { type ApiError, resourceExhausted } from "./ApiError.js"
import { RateLimitsRepo } from "./RateLimitsRepo.js"

export const RATE_LIMITED = "Rate limit exceeded for this endpoint. Try again later."

/** Fixed-window rate limits for the public operations (login link, workspace creation). */
export class RateLimiter extends Context.Tag("@atrium/core/RateLimiter")<RateLimiter, {
  /** Counts one call against every `[key, limit]`; RESOURCE_EXHAUSTED once any is over its limit. */
  readonly consume: (checks: ReadonlyArray<readonly [key: string, limit: RateLimit]>) => Effect.Effect<void, ApiError<"RESOURCE_EXHAUSTED">>
}>() {
  static readonly layer = Layer.effect(
    RateLimiter,
    Effect.map(RateLimitsRepo, (repo) => ({
      consume: (checks) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.forEach(checks, ([key, limit]) =>
            Effect.map(repo.hit(key, now - (now % limit.windowMillis)), (count) => count > limit.limit)).pipe(
              Effect.flatMap((over) => over.some(Boolean) ? Effect.fail(resourceExhausted(RATE_LIMITED)) : Effect.void)
            ))
    }))
  )
}
