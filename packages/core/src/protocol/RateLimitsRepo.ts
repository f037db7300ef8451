import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

/** Storage port for fixed-window counters, so limits hold across restarts and across servers. */
export class RateLimitsRepo extends Context.Tag("@atrium/core/RateLimitsRepo")<RateLimitsRepo, {
  /** Adds one hit to `key` in the window starting at `windowStart`; returns the window's count including it. */
  readonly hit: (key: string, windowStart: number) => Effect.Effect<number>
}>() {}
