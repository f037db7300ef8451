import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { afterCommit } from "../ports/Transactions.js"
import { EventEnrichers } from "./EventEnricher.js"
import { type EventListener, EventListeners, type NewEvent } from "./EventListener.js"

export type { EventEnricher } from "./EventEnricher.js"
export type { EmittedEvents, EventListener, NewEvent } from "./EventListener.js"

/**
 * The seam between the domains and whoever follows their changes: a domain emits a typed event
 * for every change, inside the change's transaction, and knows nothing of who listens (the
 * webhook outbox, a host's own listener). docs/architecture.md, "Domain events".
 */
export class Events extends Effect.Service<Events>()("@atrium/core/Events", {
  accessors: true,
  effect: Effect.gen(function*() {
    const listeners = yield* EventListeners
    const enrichers = yield* EventEnrichers

    /** The listeners that follow the key's events now. */
    const following = (apiKey: string, notifying: boolean) =>
      Effect.filter(listeners, (listener) => listener.follows(apiKey, notifying))

    const tell = (listening: ReadonlyArray<EventListener>, apiKey: string, events: ReadonlyArray<NewEvent>, notifying: boolean): Effect.Effect<void> =>
      Effect.gen(function*() {
        const emitted = { apiKey, at: yield* Clock.currentTimeMillis, events }
        // Events of the listeners' own writes (the notifications made), told after this round to every
        // listener following notifications (email); the notifications' listener ignores them.
        const followUps: Array<NewEvent> = []
        for (const listener of listening) {
          if (listener.inTransaction === undefined) continue
          const answered = yield* listener.inTransaction(emitted)
          if (answered !== undefined) followUps.push(...answered)
        }
        if (followUps.length > 0) {
          // Those listening to a change that notifies are the ones following notifications: not asked twice.
          const next = notifying ? listening : yield* following(apiKey, true)
          if (next.length > 0) yield* tell(next, apiKey, followUps, true)
        }
        for (const listener of listening) {
          const after = listener.afterCommit
          if (after !== undefined) {
            yield* afterCommit(after(emitted).pipe(
              Effect.catchAllCause((cause) => Effect.logError(`Event listener ${listener.name} failed after commit.`, cause))
            ))
          }
        }
      })

    /** The events with what every enricher adds (events/EventEnricher.ts), before anyone is told. */
    const enrich = (apiKey: string, events: ReadonlyArray<NewEvent>): Effect.Effect<ReadonlyArray<NewEvent>> =>
      Effect.reduce(enrichers, events, (current, enricher) => enricher.enrich(apiKey, current))

    return {
      /**
       * Emits the key's `events`: call it inside the transaction of the change that causes them.
       * Lazy: with no listener following the key it does nothing, and events given as an Effect
       * are then not even built (comments re-read their thread for the payload), nor enriched (nor
       * when only plain listeners follow: EventListener.plain). `notifying`: some
       * of them ask for notifications (NewEvent.notifies), said before they are built.
       */
      emit: (apiKey: string, events: ReadonlyArray<NewEvent> | Effect.Effect<ReadonlyArray<NewEvent>>, notifying = false): Effect.Effect<void> => {
        if (listeners.length === 0 || (Array.isArray(events) && events.length === 0)) return Effect.void
        return Effect.flatMap(following(apiKey, notifying), (listening) => {
          if (listening.length === 0) return Effect.void
          return Effect.flatMap(Effect.isEffect(events) ? events : Effect.succeed(events), (built) =>
            built.length === 0 ? Effect.void
              : listening.every((listener) => listener.plain === true) ? tell(listening, apiKey, built, notifying)
              : Effect.flatMap(enrich(apiKey, built), (enriched) => tell(listening, apiKey, enriched, notifying)))
        })
      }
    }
  })
}) {}
