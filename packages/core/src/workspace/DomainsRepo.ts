import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

/** Storage port: the allowed domains of an API key (normalized entries, see `Domains.ts`). */
export class DomainsRepo extends Context.Tag("@atrium/core/DomainsRepo")<DomainsRepo, {
  /** In the order they were added (alphabetical among those added by one call). */
  readonly list: (apiKey: string) => Effect.Effect<ReadonlyArray<string>>
  /** Adds the domains; returns those that were not in the list yet, in the given order. */
  readonly add: (apiKey: string, domains: ReadonlyArray<string>, now: number) => Effect.Effect<ReadonlyArray<string>>
  /** Removes the domains; returns those that were in the list, in the given order. */
  readonly remove: (apiKey: string, domains: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<string>>
  /** Whether the API key's list (any key's, when `apiKey` is undefined) holds one of `domains`. */
  readonly includesAny: (apiKey: string | undefined, domains: ReadonlyArray<string>) => Effect.Effect<boolean>
}>() {}
