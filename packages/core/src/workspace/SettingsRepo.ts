import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

/**
 * Storage port: per-API-key settings documents (permission provider, notification
 * service, …), each a JSON value under a name. A missing document reads as undefined.
 */
export class SettingsRepo extends Context.Tag("@atrium/core/SettingsRepo")<SettingsRepo, {
  readonly get: (apiKey: string, name: string) => Effect.Effect<unknown>
  /** Inserts or replaces the document. */
  readonly put: (apiKey: string, name: string, value: unknown) => Effect.Effect<void>
}>() {}
