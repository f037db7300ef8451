import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as FiberSet from "effect/FiberSet"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import { AtriumConfig } from "../Config.js"
import { Ids } from "../ports/Ids.js"
import { type AttemptOutcome, Deliveries } from "./Deliveries.js"
import { DeliverySignal } from "./DeliverySignal.js"

/** Attempts written in one transaction at most. */
const MAX_RECORD_BATCH = 256

/** How long a batch of finished attempts waits for more before it is written. */
const GATHER_MILLIS = 2

/** A pause on the platform's clock: short, and not held up by a test clock. */
const realDelay = (millis: number) =>
  Effect.async<void>((resume) => {
    const timer = setTimeout(() => resume(Effect.void), millis)
    return Effect.sync(() => clearTimeout(timer))
  })

/**
 * The delivery worker of a long-running server: up to `webhooks.concurrency` attempts in
 * flight, at most `webhooks.concurrencyPerKey` of them for one API key (so a key whose
 * receivers hang leaves the rest of the worker to the others), a new claim as soon as enough
 * slots are free, finished attempts recorded in batches (one commit for many). It looks for
 * due work when woken by an event committed in this process, and every
 * `webhooks.pollIntervalMillis` for the rest (retries, other servers' events).
 *
 * When its scope closes (SIGTERM), it stops claiming, lets the attempts in flight finish
 * (at most one attempt timeout), records them, and hands back anything it still holds.
 */
export const DeliveryWorker = (options: { readonly owner?: string } = {}) =>
  Layer.scopedDiscard(Effect.gen(function*() {
    const deliveries = yield* Deliveries
    const signal = yield* DeliverySignal
    yield* signal.workerStarted
    const { concurrency, concurrencyPerKey, pollIntervalMillis, timeoutMillis } = (yield* AtriumConfig).webhooks
    const owner = options.owner ?? (yield* (yield* Ids).make("worker"))
    const finished = yield* Queue.unbounded<AttemptOutcome>()
    const slotFreed = yield* Queue.sliding<void>(1)
    // Wakes a claimer that took everything due, once a key that was short of room has room.
    const keyFreed = yield* Queue.sliding<void>(1)
    const attempts = yield* FiberSet.make<unknown>()
    let inFlight = 0
    let claims = 0
    /** Attempts in flight per API key; a key with none is absent. */
    const perKey = new Map<string, number>()

    // A claim costs a few statements however many rows it takes; one per freed slot made claims
    // most of the work. So a key is claimed for once half its share is free, and the worker
    // claims once half its slots are free (unless idle), or half a share if less: keys that
    // hold their share must not keep the others waiting for slots.
    const keyBatch = Math.ceil(concurrencyPerKey / 2)
    const claimAtLeast = Math.min(Math.max(1, Math.floor(concurrency / 2)), keyBatch)

    const started = (apiKey: string) => {
      inFlight++
      perKey.set(apiKey, (perKey.get(apiKey) ?? 0) + 1)
    }
    const ended = (apiKey: string) =>
      Effect.suspend(() => {
        inFlight--
        const left = perKey.get(apiKey)! - 1
        if (left === 0) perKey.delete(apiKey)
        else perKey.set(apiKey, left)
        return Effect.zipRight(
          left === concurrencyPerKey - keyBatch ? Queue.offer(keyFreed, undefined) : Effect.void,
          Queue.offer(slotFreed, undefined)
        )
      })

    const claimOnce = Effect.gen(function*() {
      const free = concurrency - inFlight
      if (free <= 0 || (inFlight > 0 && free < claimAtLeast)) return yield* Queue.take(slotFreed)
      // A key in flight may take what is left of its share, once that is half of it at least.
      const room = new Map<string, number>()
      for (const [apiKey, n] of perKey) room.set(apiKey, concurrencyPerKey - n >= keyBatch ? concurrencyPerKey - n : 0)
      const token = `${owner}.${++claims}`
      const { deliveries: claimed, more } = yield* deliveries.claim(token, free, { most: concurrencyPerKey, room })
      for (const delivery of claimed) {
        started(delivery.apiKey)
        yield* FiberSet.run(attempts, deliveries.attempt(token, delivery).pipe(
          Effect.flatMap((outcome) => outcome === undefined ? Effect.void : Queue.offer(finished, outcome)),
          Effect.catchAllCause((cause) => Effect.logError(`Webhook delivery of ${delivery.messageId} to ${delivery.endpointId} failed.`, cause)),
          Effect.ensuring(ended(delivery.apiKey))
        ))
      }
      // Everything due was taken, up to each key's room: look again on a new event, the poll, or
      // once a key has room again (no claim in between to find that nothing else is due).
      if (claimed.length === 0 || !more) yield* Effect.race(Queue.take(keyFreed), signal.await(pollIntervalMillis))
    })

    // Uninterruptible once taken: stopping waits for a batch being written rather than lose it.
    // While attempts are in flight, the first outcome waits a moment for the ones about to
    // follow: measured, without it nearly every attempt was recorded in a commit of its own.
    const recordSome = Effect.uninterruptibleMask((restore) =>
      Effect.gen(function*() {
        const first = yield* restore(Queue.takeBetween(finished, 1, MAX_RECORD_BATCH))
        if (first.length < MAX_RECORD_BATCH && inFlight > 0) yield* realDelay(GATHER_MILLIS)
        const more = yield* Queue.takeUpTo(finished, MAX_RECORD_BATCH - first.length)
        yield* deliveries.record([...first, ...more])
      })
    )

    const logAndPause = (what: string) => <A, E, R>(self: Effect.Effect<A, E, R>) =>
      self.pipe(Effect.catchAllCause((cause) => Effect.zipRight(Effect.logError(`Webhook worker: ${what} failed.`, cause), Effect.sleep(pollIntervalMillis))))

    const claimer = yield* Effect.forkScoped(Effect.forever(claimOnce.pipe(logAndPause("a claim"))))
    const recorder = yield* Effect.forkScoped(Effect.forever(recordSome.pipe(logAndPause("recording attempts"))))

    yield* Effect.addFinalizer(() =>
      Effect.gen(function*() {
        yield* Fiber.interrupt(claimer)
        // Attempts in flight finish (an attempt times out after timeoutMillis), then are recorded.
        yield* FiberSet.awaitEmpty(attempts).pipe(Effect.timeout(timeoutMillis + 1000), Effect.ignore)
        yield* Fiber.interrupt(recorder)
        const left = yield* Queue.takeAll(finished)
        yield* deliveries.record(Array.from(left)).pipe(Effect.catchAllCause((cause) => Effect.logError("Webhook worker: recording at stop failed.", cause)))
        const handedBack = yield* deliveries.releaseAll(owner)
        if (handedBack > 0) yield* Effect.logInfo(`Webhook worker ${owner}: handed back ${handedBack} delivery(ies) on stop.`)
      }).pipe(Effect.catchAllCause((cause) => Effect.logError("Webhook worker: stopping failed.", cause)))
    )
  }))
