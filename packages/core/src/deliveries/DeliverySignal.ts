import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"

/**
 * Wakes this process's delivery worker when an event committed here has deliveries due now,
 * so it does not wait for its next poll. Waking many times before the worker looks is one wake.
 */
export class DeliverySignal extends Context.Tag("@atrium/core/DeliverySignal")<DeliverySignal, {
  readonly wake: Effect.Effect<void>
  /** Waits for the next wake, or `millis` at most. */
  readonly await: (millis: number) => Effect.Effect<void>
}>() {
  static readonly layer = Layer.effect(
    DeliverySignal,
    Effect.map(Queue.sliding<void>(1), (queue) => ({
      wake: Effect.asVoid(Queue.offer(queue, undefined)),
      await: (millis: number) => Effect.race(Queue.take(queue), Effect.sleep(millis))
    }))
  )
}
