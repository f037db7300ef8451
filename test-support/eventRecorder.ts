/** A listener of domain events for tests: what was emitted per API key, once committed. */
import type { EmittedEvents, EventListener } from "@atrium/core"
import * as Effect from "effect/Effect"

export const eventRecorder = () => {
  const emitted: Array<EmittedEvents> = []
  const listener: EventListener = {
    name: "test recorder",
    follows: () => Effect.succeed(true),
    afterCommit: (events) => Effect.sync(() => void emitted.push(events))
  }
  return {
    listener,
    eventsOf: (apiKey: string) => emitted.filter((e) => e.apiKey === apiKey).flatMap((e) => e.events),
    /** Forgets what it was told: the backends' sequential ids make the same API keys again. */
    reset: () => void (emitted.length = 0)
  }
}
