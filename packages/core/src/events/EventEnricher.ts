import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { NewEvent } from "./EventListener.js"

/**
 * What one domain adds to the events others emit, before any listener is told: so webhooks,
 * realtime and the host's listeners carry the same data, and the emitting domain need not know the
 * other's rules (notifications: the involved users' preferences on comment events,
 * docs/decisions.md "Notifications"). Runs in the change's transaction, once per emit, only when
 * some listener that is not plain (EventListener.plain) follows the key; the listeners' own follow-up
 * events are not enriched.
 */
export interface EventEnricher {
  /** For logs. */
  readonly name: string
  /** The events as every listener is told them: the same ones, in the same order, some with more data. */
  readonly enrich: (apiKey: string, events: ReadonlyArray<NewEvent>) => Effect.Effect<ReadonlyArray<NewEvent>>
}

/** Every enricher `Events.emit` applies, in the domains' order. */
export class EventEnrichers extends Context.Tag("@atrium/core/EventEnrichers")<EventEnrichers, ReadonlyArray<EventEnricher>>() {}
