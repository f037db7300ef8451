import * as Effect from "effect/Effect"
import { AtriumConfig } from "../Config.js"
import { keyedTtlCache } from "../protocol/KeyedTtlCache.js"
import { entriesAdmitting } from "./Domains.js"
import { DomainsRepo } from "./DomainsRepo.js"

/** The cache's bucket for "any API key" (a preflight names none); no API key is empty. */
const ANY_KEY = ""

/**
 * Which origins the allowed domains admit (`entriesAdmitting`), per API key or for any key,
 * each answer kept for `cacheTtlMillis`: every client call from a browser asks, and one indexed
 * read per key and origin a second is what it may cost. A change of a key's list through this
 * process forgets at once what was kept for that key and for any key; other servers see it within
 * `cacheTtlMillis` (docs/decisions.md, "Client API").
 */
export class DomainOrigins extends Effect.Service<DomainOrigins>()("@atrium/core/DomainOrigins", {
  effect: Effect.gen(function*() {
    const domains = yield* DomainsRepo
    const { cacheTtlMillis } = yield* AtriumConfig
    // Read without an Effect, as Access does: the cached answer is on every browser's call.
    const clock = yield* Effect.clock
    const now = () => clock.unsafeCurrentTimeMillis()
    const kept = keyedTtlCache<boolean>() // (apiKey or ANY_KEY, origin) -> admitted

    return {
      known: (apiKey: string | undefined, origin: string): boolean | undefined => kept.get(apiKey ?? ANY_KEY, origin, now()),
      admits: (apiKey: string | undefined, origin: string): Effect.Effect<boolean> => {
        const entries = entriesAdmitting(origin)
        const read = entries === undefined ? Effect.succeed(false) : domains.includesAny(apiKey, entries)
        return Effect.map(read, (admitted) => {
          kept.set(apiKey ?? ANY_KEY, origin, admitted, now() + cacheTtlMillis)
          return admitted
        })
      },
      /** After a change of the key's list. */
      forget: (apiKey: string): void => {
        kept.deleteApiKey(apiKey)
        kept.deleteApiKey(ANY_KEY)
      }
    }
  })
}) {}
