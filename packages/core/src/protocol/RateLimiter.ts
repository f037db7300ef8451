import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { RateLimit } from "../Config.js"
import { ApiError } from "./ApiError.js"
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
          Effect.forEach(checks, ([key, limit]) => {
            const windowStart = now - (now % limit.windowMillis)
            // Over the limit: how long until this window ends and the count starts again.
            return Effect.map(repo.hit(key, windowStart), (count) => count > limit.limit ? windowStart + limit.windowMillis - now : 0)
          }).pipe(
            Effect.flatMap((waits) => {
              const wait = Math.max(...waits)
              return wait > 0
                ? Effect.fail(new ApiError({ status: "RESOURCE_EXHAUSTED", message: RATE_LIMITED, retryAfterSeconds: Math.ceil(wait / 1000) }))
                : Effect.void
            })
          ))
    }))
  )
}
