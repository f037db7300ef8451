import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as TestClock from "effect/TestClock"
import { type Receiver, startReceiver } from "../../../../test-support/receiver.js"
import { atriumLayer } from "../../src/Atrium.js"
import type { AtriumOptionsInput } from "../../src/Config.js"
import { Attempts } from "../../src/deliveries/Attempts.js"
import { Deliveries, FAILING_ENDPOINT_DISABLE_MILLIS } from "../../src/deliveries/Deliveries.js"
import { DeliveryWorker } from "../../src/deliveries/DeliveryWorker.js"
import { Events } from "../../src/events/Events.js"
import { WebhookMessages } from "../../src/deliveries/WebhookMessages.js"
import { Ids } from "../../src/ports/Ids.js"
import { Transactions } from "../../src/ports/Transactions.js"
import { MemoryStorage } from "../../src/testing/index.js"
import { WebhookConfigs } from "../../src/webhooks/WebhookConfigs.js"
import { WebhookEndpoints } from "../../src/webhooks/WebhookEndpoints.js"

const KEY = "key_1"
const START = Date.UTC(2026, 0, 1)
const DEFAULT_SCHEDULE = [0, 5, 300, 1800, 7200, 18000, 36000, 36000]

let receiver: Receiver
beforeAll(async () => {
  receiver = await startReceiver()
})
afterAll(() => receiver.close())
// Message ids restart with every test's storage: answers set for one test must not reach the next.
beforeEach(() => {
  receiver.answer = () => ({ status: 200 })
})

const atrium = (options: AtriumOptionsInput = {}, extra: { runDeliveries?: boolean } = {}) =>
  atriumLayer({ storage: MemoryStorage, ids: Ids.Sequential, options: { allowPrivateNetworks: true, ...options }, ...extra })

/** Advanced webhooks on, one endpoint at the receiver; its id. */
const setUp = (endpoint: { rateLimit?: number } = {}) =>
  Effect.gen(function*() {
    yield* TestClock.setTime(START)
    yield* WebhookConfigs.update(KEY, { isEnabled: true })
    return (yield* WebhookEndpoints.create(KEY, { url: receiver.url, ...endpoint })).id
  })

const publish = (eventType = "order.paid") => Effect.map(WebhookMessages.publish(KEY, { eventType, payload: {} }), (r) => r.message.messageId)

const attemptsOf = (messageId: string) => Effect.map(Attempts.list(KEY, { messageId }), (page) => page.items)

/** The receiver answers this message with `answer`. */
const answering = (messageId: string, answer: { status: number; headers?: Record<string, string> }) =>
  Effect.sync(() => {
    const previous = receiver.answer
    receiver.answer = (r) => r.headers["webhook-id"] === messageId ? answer : previous(r)
  })

describe("the retry schedule", () => {
  it.effect("makes 8 attempts, each after the scheduled delay plus at most 10 % jitter, then gives up", () =>
    Effect.gen(function*() {
      yield* setUp()
      const messageId = yield* publish()
      yield* answering(messageId, { status: 500 })
      let now = START
      for (let attempt = 1; attempt <= DEFAULT_SCHEDULE.length; attempt++) {
        expect(yield* Deliveries.runDue()).toBe(1)
        const [latest] = yield* attemptsOf(messageId)
        expect(latest).toMatchObject({ attemptNumber: attempt, status: "failed", responseStatusCode: 500 })
        expect(Date.parse(latest!.createdAt)).toBe(now)
        if (attempt === DEFAULT_SCHEDULE.length) {
          expect(latest!.nextAttemptAt).toBeNull()
          break
        }
        const next = Date.parse(latest!.nextAttemptAt!)
        const delay = DEFAULT_SCHEDULE[attempt]! * 1000
        expect(next - now).toBeGreaterThanOrEqual(delay)
        expect(next - now).toBeLessThanOrEqual(delay * 1.1)
        // Not a millisecond early.
        yield* TestClock.setTime(next - 1)
        expect(yield* Deliveries.runDue()).toBe(0)
        yield* TestClock.setTime(next)
        now = next
      }
      yield* TestClock.adjust("30 days")
      expect(yield* Deliveries.runDue()).toBe(0)
      // The docs' example: 3 failures then a success arrives about 35 min 5 s after the first.
      expect(DEFAULT_SCHEDULE.slice(0, 4).reduce((a, b) => a + b)).toBe(35 * 60 + 5)
    }).pipe(Effect.provide(atrium())))

  it.effect("lets Retry-After on 429 and 503 push an attempt later, never earlier, and ignores it elsewhere", () =>
    Effect.gen(function*() {
      yield* setUp()
      const cases = [
        { status: 503, retryAfter: "120", least: 120_000, most: 120_000 },
        { status: 429, retryAfter: "1", least: 5_000, most: 5_500 },
        { status: 500, retryAfter: "120", least: 5_000, most: 5_500 }
      ]
      for (const { least, most, retryAfter, status } of cases) {
        const messageId = yield* publish()
        yield* answering(messageId, { status, headers: { "retry-after": retryAfter } })
        yield* Deliveries.runDue()
        const [attempt] = yield* attemptsOf(messageId)
        const wait = Date.parse(attempt!.nextAttemptAt!) - Date.parse(attempt!.createdAt)
        expect(wait, `${status} Retry-After ${retryAfter}`).toBeGreaterThanOrEqual(least)
        expect(wait).toBeLessThanOrEqual(most)
      }
    }).pipe(Effect.provide(atrium())))

  it.effect("reads the schedule from the options: its length is the number of attempts", () =>
    Effect.gen(function*() {
      yield* setUp()
      const messageId = yield* publish()
      yield* answering(messageId, { status: 500 })
      expect(yield* Deliveries.runDue()).toBe(1)
      yield* TestClock.adjust("2 seconds")
      expect(yield* Deliveries.runDue()).toBe(0)
      yield* TestClock.adjust("1 second")
      expect(yield* Deliveries.runDue()).toBe(1)
      yield* TestClock.adjust("1 day")
      expect(yield* Deliveries.runDue()).toBe(0)
      expect((yield* attemptsOf(messageId)).map((a) => a.nextAttemptAt === null)).toEqual([true, false])
    }).pipe(Effect.provide(atrium({ webhooks: { retrySchedule: [0, 2.5] } }))))
})

describe("rate limits and endpoint health", () => {
  it.effect("starts at most rateLimit attempts per second for an endpoint", () =>
    Effect.gen(function*() {
      yield* setUp({ rateLimit: 3 })
      const messages = yield* Effect.forEach(Array.from({ length: 10 }), () => publish())
      const before = receiver.received.length
      const delivered = () => receiver.received.length - before
      expect(yield* Deliveries.runDue()).toBe(3)
      expect(yield* Deliveries.runDue()).toBe(0)
      expect(delivered()).toBe(3)
      for (const expected of [6, 9, 10]) {
        // Postponed attempts wait for the next second's first tenth.
        yield* TestClock.adjust("1100 millis")
        yield* Deliveries.runDue()
        expect(delivered()).toBe(expected)
      }
      const attempted = yield* Effect.forEach(messages, (id) => Effect.map(attemptsOf(id), (a) => a.length))
      expect(attempted).toEqual(messages.map(() => 1))
    }).pipe(Effect.provide(atrium())))

  it.effect("disables an endpoint after five days with nothing but failures; a success resets the clock", () =>
    Effect.gen(function*() {
      const endpointId = yield* setUp()
      const day = 24 * 60 * 60
      const fail = (eventType: string) =>
        Effect.gen(function*() {
          const id = yield* publish(eventType)
          yield* answering(id, { status: 500 })
          yield* Deliveries.runDue()
        })
      yield* fail("a.one")
      yield* TestClock.adjust(`${4 * day} seconds`)
      // A success after four days of failures: the clock starts again.
      yield* publish("a.fine")
      yield* Deliveries.runDue()
      yield* TestClock.adjust(`${1 * day} seconds`)
      yield* fail("a.two")
      yield* TestClock.adjust(`${4 * day} seconds`)
      yield* fail("a.three")
      expect((yield* WebhookEndpoints.list(KEY, {})).endpoints[0]!.disabled).toBe(false)
      yield* TestClock.adjust(`${FAILING_ENDPOINT_DISABLE_MILLIS - 4 * day * 1000} millis`)
      yield* fail("a.four")
      const [endpoint] = (yield* WebhookEndpoints.list(KEY, {})).endpoints
      expect(endpoint).toMatchObject({ id: endpointId, disabled: true })
      // Its retries are cancelled with it.
      yield* TestClock.adjust("30 days")
      expect(yield* Deliveries.runDue()).toBe(0)
    }).pipe(Effect.provide(atrium({ webhooks: { retrySchedule: [0, 3600] } }))))
})

describe("the outbox", () => {
  it.effect("records nothing when the transaction that emits rolls back", () =>
    Effect.gen(function*() {
      yield* setUp()
      const { withTransaction } = yield* Transactions
      const failed = yield* withTransaction(Effect.gen(function*() {
        yield* Events.emit(KEY, [{ type: "order.paid", data: { n: 1 }, channels: [], organizationId: null }])
        return yield* Effect.fail("the change failed" as const)
      })).pipe(Effect.flip)
      expect(failed).toBe("the change failed")
      expect((yield* WebhookMessages.list(KEY, {})).items).toEqual([])
      expect(yield* Deliveries.runDue()).toBe(0)
    }).pipe(Effect.provide(atrium())))

  it.effect("answers the first message for an eventId for 24 hours, then makes a new one", () =>
    Effect.gen(function*() {
      yield* setUp()
      const create = WebhookMessages.publish(KEY, { eventType: "order.paid", payload: {}, eventId: "evt" })
      const first = (yield* create).message.messageId
      yield* TestClock.adjust("23 hours")
      expect((yield* create).message.messageId).toBe(first)
      yield* TestClock.adjust("1 hour")
      const second = (yield* create).message.messageId
      expect(second).not.toBe(first)
      yield* TestClock.adjust("1 hour")
      expect((yield* create).message.messageId).toBe(second)
    }).pipe(Effect.provide(atrium())))

  it.effect("tells a host calling the services the values, not answers: whether a message is new, pages of messages and attempts", () =>
    Effect.gen(function*() {
      const endpointId = yield* setUp()
      const first = yield* WebhookMessages.publish(KEY, { eventType: "order.paid", payload: { n: 1 }, eventId: "evt" })
      expect(first).toEqual({
        created: true,
        message: { messageId: first.message.messageId, eventType: "order.paid", channels: [], payload: { n: 1 }, createdAt: new Date(START).toISOString() }
      })
      expect(yield* WebhookMessages.publish(KEY, { eventType: "order.paid", payload: { n: 2 }, eventId: "evt" })).toEqual({ ...first, created: false })
      yield* WebhookMessages.publish(KEY, { eventType: "order.paid", payload: {} })
      const page = yield* WebhookMessages.list(KEY, { limit: 1 })
      expect(page.items).toHaveLength(1)
      expect(typeof page.next).toBe("string")
      expect((yield* WebhookMessages.list(KEY, { limit: 1, iterator: page.next! })).next).toBeUndefined()
      expect(yield* Attempts.list(KEY, { endpointId })).toEqual({ items: [], next: undefined })
      expect(yield* Attempts.recover(KEY, { endpointId, since: new Date(START).toISOString() })).toEqual({ count: 0 })
    }).pipe(Effect.provide(atrium())))
})

describe("claims", () => {
  const ids = (claimed: { readonly deliveries: ReadonlyArray<{ readonly messageId: string }> }) => claimed.deliveries.map((d) => d.messageId).sort()

  it.effect("are held for the lease, then due again; a stopping worker hands back what it holds at once", () =>
    Effect.gen(function*() {
      yield* setUp()
      const a = yield* publish()
      const b = yield* publish()
      expect(ids(yield* Deliveries.claim("w1.1", 1))).toEqual([a])
      expect(ids(yield* Deliveries.claim("w2.1", 1))).toEqual([b])
      // Both held: nothing is due for anyone else.
      expect(ids(yield* Deliveries.claim("w3.1", 10))).toEqual([])
      // w1 stops (SIGTERM): what it holds is due again at once.
      expect(yield* Deliveries.releaseAll("w1")).toBe(1)
      expect(ids(yield* Deliveries.claim("w3.2", 10))).toEqual([a])
      // w2 and w3 die holding their claims: the deliveries are due once the lease has run out, not before.
      yield* TestClock.adjust(59_999)
      expect(ids(yield* Deliveries.claim("w4.1", 10))).toEqual([])
      yield* TestClock.adjust(1)
      expect(ids(yield* Deliveries.claim("w4.2", 10))).toEqual([a, b].sort())
    }).pipe(Effect.provide(atrium())))

  it.effect("take keys in turn, each its oldest due deliveries up to its room", () =>
    Effect.gen(function*() {
      yield* setUp()
      const mine = yield* Effect.forEach([1, 2, 3, 4, 5], () => publish())
      yield* WebhookConfigs.update("key_2", { isEnabled: true })
      yield* WebhookEndpoints.create("key_2", { url: receiver.url })
      const theirs = (yield* WebhookMessages.publish("key_2", { eventType: "order.paid", payload: {} })).message.messageId
      // Key 2's delivery is the newest, and still in the first claim.
      expect(ids(yield* Deliveries.claim("w1.1", 10, { most: 2, room: new Map() }))).toEqual([mine[0], mine[1], theirs].sort())
      expect(ids(yield* Deliveries.claim("w1.2", 10, { most: 2, room: new Map([[KEY, 0]]) }))).toEqual([])
      expect(ids(yield* Deliveries.claim("w1.3", 10, { most: 10, room: new Map([[KEY, 1]]) }))).toEqual([mine[2]])
      expect(ids(yield* Deliveries.claim("w1.4", 10, { most: 10, room: new Map() }))).toEqual(mine.slice(3))
    }).pipe(Effect.provide(atrium())))

  it.effect("go round the keys: a key with a backlog waits its turn like the others", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(START)
      const keys = ["key_a", "key_b", "key_c"]
      for (const key of keys) {
        yield* WebhookConfigs.update(key, { isEnabled: true })
        yield* WebhookEndpoints.create(key, { url: receiver.url })
        yield* Effect.forEach([1, 2, 3], () => WebhookMessages.publish(key, { eventType: "order.paid", payload: {} }))
      }
      const share = { most: 10, room: new Map<string, number>() }
      const turns: Array<string> = []
      for (let n = 1; n <= 9; n++) turns.push(...(yield* Deliveries.claim(`w1.${n}`, 1, share)).deliveries.map((d) => d.apiKey))
      expect(turns).toEqual([...keys, ...keys, ...keys])
      expect(yield* Deliveries.claim("w1.10", 1, share)).toEqual({ deliveries: [], more: false })
    }).pipe(Effect.provide(atrium())))
})

describe("the background worker", () => {
  it.effect("is woken by a committed event and delivers it without waiting for its poll", () =>
    Effect.gen(function*() {
      // No clock jump here: the test clock would run every poll of the worker on the way.
      yield* WebhookConfigs.update(KEY, { isEnabled: true })
      yield* WebhookEndpoints.create(KEY, { url: receiver.url })
      const before = receiver.received.length
      const messageId = yield* publish()
      yield* Effect.promise(() => receiver.waitFor(before + 1, 5000))
      expect(receiver.received.at(-1)!.headers["webhook-id"]).toBe(messageId)
    }).pipe(Effect.provide(atrium({ webhooks: { pollIntervalMillis: 60_000 } }, { runDeliveries: true }))))

  it.live("lets attempts in flight finish and records them when it stops", () =>
    Effect.gen(function*() {
      yield* WebhookConfigs.update(KEY, { isEnabled: true })
      yield* WebhookEndpoints.create(KEY, { url: receiver.url })
      const before = receiver.received.length
      const previous = receiver.answer
      receiver.answer = () => ({ status: 200, delayMillis: 300 })
      const ids = yield* Effect.scoped(Effect.gen(function*() {
        yield* Layer.build(DeliveryWorker())
        const ids = yield* Effect.forEach([1, 2, 3], () => publish())
        yield* Effect.promise(() => receiver.waitFor(before + 3, 5000))
        return ids
      })).pipe(Effect.ensuring(Effect.sync(() => (receiver.answer = previous))))
      // The worker stopped with three answers outstanding; each was waited for and recorded.
      const recorded = yield* Effect.forEach(ids, (id) => attemptsOf(id))
      expect(recorded.map((attempts) => attempts.map((a) => a.status))).toEqual([["success"], ["success"], ["success"]])
    }).pipe(Effect.provide(atrium({ webhooks: { pollIntervalMillis: 50 } }))))
})
