import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

/** Answers whether storage is reachable (`GET /healthz`). */
export class StorageHealth extends Context.Tag("@atrium/core/StorageHealth")<StorageHealth, {
  readonly ping: Effect.Effect<void, unknown>
}>() {}
