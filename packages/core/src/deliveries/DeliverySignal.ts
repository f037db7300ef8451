import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"

/** Said once a process, the first time a delivery is queued where no worker runs (issue 27). */
export const UNDELIVERED_WARNING = "Webhook deliveries are queued, but this Atrium has no delivery worker (createAtrium's runDeliveries is off): " +
  "pass runDeliveries: true, run `atrium worker`, or call atrium.runDue() from a scheduler. Nothing to do if another process delivers them."

/**
 * Wakes this process's delivery worker when an event committed here has deliveries due now,
 * so it does not wait for its next poll. Waking many times before the worker looks is one wake.
 * With no worker in the process (an embedded host that did not turn it on), the first wake says
 * so in the log, once: webhooks that silently never leave were a trap (docs/decisions.md, "Webhook events and delivery").
 */
export class DeliverySignal extends Context.Tag("@atrium/core/DeliverySignal")<DeliverySignal, {
  readonly wake: Effect.Effect<void>
  /** Waits for the next wake, or `millis` at most. */
  readonly await: (millis: number) => Effect.Effect<void>
  /** Said by the delivery worker as it starts: a worker delivers here. */
  readonly workerStarted: Effect.Effect<void>
}>() {
  static readonly layer = Layer.effect(
    DeliverySignal,
    Effect.map(Queue.sliding<void>(1), (queue) => {
      let worker = false
      let warned = false
      return {
        wake: Effect.suspend(() => {
          if (worker || warned) return Effect.asVoid(Queue.offer(queue, undefined))
          warned = true
          return Effect.zipRight(Effect.logWarning(UNDELIVERED_WARNING), Queue.offer(queue, undefined))
        }),
        await: (millis: number) => Effect.race(Queue.take(queue), Effect.sleep(millis)),
        workerStarted: Effect.sync(() => void (worker = true))
      }
    })
  )
}
