/**
 * A disabled organization's webhook messages are closed with the rest of its data (issue 23;
 * docs/decisions.md, "Access" and "Webhook events and delivery"): a resend, or an attempts/get
 * naming one of them, is refused as the dispatcher refuses the organization; recover leaves them
 * for after the organization is enabled again; the worker holds their deliveries. Leaving them out
 * of messages/get and attempts/get is checked with every other read across organizations
 * (test/protocol/disabled-organization.test.ts).
 */
import { it as effectIt } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/TestClock"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { forEachBackend, type Started } from "../../../../test-support/backends.js"
import { type Receiver, startReceiver } from "../../../../test-support/receiver.js"
import { atriumLayer } from "../../src/Atrium.js"
import { Attempts } from "../../src/deliveries/Attempts.js"
import { Deliveries, DISABLED_ORGANIZATION_HOLD_MILLIS } from "../../src/deliveries/Deliveries.js"
import { WebhookMessages } from "../../src/deliveries/WebhookMessages.js"
import { Activities } from "../../src/activities/Activities.js"
import { Organizations } from "../../src/organizations/Organizations.js"
import { Ids } from "../../src/ports/Ids.js"
import { MemoryStorage, type TestCredentials } from "../../src/testing/index.js"
import { WebhookConfigs } from "../../src/webhooks/WebhookConfigs.js"
import { WebhookEndpoints } from "../../src/webhooks/WebhookEndpoints.js"

const BASE = "/v2/workspace/advancedwebhook"
const ORG = "org-switched"
const DISABLED = { status: 403, error: { status: "PERMISSION_DENIED", message: `Organization ${ORG} is disabled.` } }

let receiver: Receiver
beforeAll(async () => {
  receiver = await startReceiver()
})
afterAll(() => receiver.close())

const receivedFor = (messageId: string) => receiver.received.filter((r) => r.headers["webhook-id"] === messageId)

// One attempt a delivery: a failure is final at once, so recover has something to recover.
forEachBackend("a disabled organization's webhook messages", (ctx: () => Started) => {
  const post = (creds: TestCredentials, path: string, data: unknown) => ctx().client.post(path, data, creds.headers)
  const ok = async (creds: TestCredentials, path: string, data: unknown) => {
    const answer = await post(creds, path, data)
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
    return answer.body.result.data
  }
  const refusal = async (creds: TestCredentials, path: string, data: unknown) => {
    const answer = await post(creds, path, data)
    return { status: answer.status, error: answer.body.error }
  }

  /**
   * Advanced webhooks on, one endpoint at the receiver, the organization; an event of it and a
   * host's message (no organization), each delivered once (the event's answered `eventStatus`).
   */
  const setUp = async (eventStatus = 200) => {
    const creds = await ctx().workspace()
    await ok(creds, "/v2/workspace/advancedwebhookconfig/update", { isEnabled: true })
    const { id: endpointId } = await ok(creds, `${BASE}/endpoints/create`, { url: receiver.url })
    await ok(creds, "/v2/organizations/add", { organizations: [{ organizationId: ORG }] })
    await ok(creds, "/v2/activities/add", {
      organizationId: ORG,
      documentId: "doc",
      activities: [{ featureType: "comment", actionType: "add", actionUser: { userId: "u1" } }]
    })
    const host = await ok(creds, `${BASE}/messages/create`, { eventType: "order.paid", payload: {} })
    const [event] = (await ok(creds, `${BASE}/messages/get`, { eventType: "comment.add" })).messages
    const previous = receiver.answer
    receiver.answer = (r) => r.headers["webhook-id"] === event.messageId ? { status: eventStatus } : previous(r)
    try {
      await ctx().atrium.runDue()
    } finally {
      receiver.answer = previous
    }
    expect(receivedFor(event.messageId)).toHaveLength(1)
    const disable = (disabled: boolean) => ok(creds, "/v1/organizations/access/disablestate/update", { organizationIds: [ORG], disabled })
    return { creds, endpointId: endpointId as string, event: event.messageId as string, host: host.messageId as string, disable }
  }

  it("refuses to resend the organization's message, or list its attempts by id, until it is enabled; the host's message stays open", async () => {
    const { creds, disable, endpointId, event, host } = await setUp()
    await disable(true)
    expect(await refusal(creds, `${BASE}/messages/resend`, { messageId: event, endpointId })).toEqual(DISABLED)
    expect(await refusal(creds, `${BASE}/attempts/get`, { messageId: event })).toEqual(DISABLED)
    // messages/get takes messageId as a filter: nothing matches.
    expect((await ok(creds, `${BASE}/messages/get`, { messageId: event })).messages).toEqual([])
    await ctx().atrium.runDue()
    expect(receivedFor(event)).toHaveLength(1)

    expect(await ok(creds, `${BASE}/messages/resend`, { messageId: host, endpointId })).toEqual({ messageId: host, endpointId })
    await ctx().atrium.runDue()
    expect(receivedFor(host)).toHaveLength(2)

    await disable(false)
    expect(await ok(creds, `${BASE}/messages/resend`, { messageId: event, endpointId })).toEqual({ messageId: event, endpointId })
    await ctx().atrium.runDue()
    expect(receivedFor(event)).toHaveLength(2)
    expect((await ok(creds, `${BASE}/attempts/get`, { messageId: event })).attempts).toHaveLength(2)
  })

  it("recovers the endpoint's failed deliveries but the organization's, which it recovers once the organization is enabled", async () => {
    const { creds, disable, endpointId, event } = await setUp(500)
    const host = await ok(creds, `${BASE}/messages/create`, { eventType: "order.paid", payload: {} })
    const previous = receiver.answer
    receiver.answer = (r) => r.headers["webhook-id"] === host.messageId ? { status: 500 } : previous(r)
    try {
      await ctx().atrium.runDue()
    } finally {
      receiver.answer = previous
    }
    const since = "2020-01-01T00:00:00Z"
    await disable(true)
    expect(await ok(creds, `${BASE}/endpoints/recover`, { endpointId, since })).toEqual({ count: 1 })
    await ctx().atrium.runDue()
    expect(receivedFor(host.messageId)).toHaveLength(2)
    expect(receivedFor(event)).toHaveLength(1)

    await disable(false)
    expect(await ok(creds, `${BASE}/endpoints/recover`, { endpointId, since })).toEqual({ count: 1 })
    await ctx().atrium.runDue()
    expect(receivedFor(event)).toHaveLength(2)
  })

  it("holds the organization's due deliveries: no attempt is made or counted while it is disabled", async () => {
    const { creds, disable, endpointId, event } = await setUp()
    // Due now, and the organization disabled before the worker gets to it.
    await ok(creds, `${BASE}/messages/resend`, { messageId: event, endpointId })
    await disable(true)
    await ctx().atrium.runDue()
    expect(receivedFor(event)).toHaveLength(1)
    await disable(false)
    const attempts = (await ok(creds, `${BASE}/attempts/get`, { messageId: event })).attempts
    expect(attempts.map((a: any) => a.attemptNumber)).toEqual([1])
  })

  it("closes the organization's message.attempt.exhausted with it: the event of its message", async () => {
    const { creds, disable, event } = await setUp(500)
    const [exhausted] = (await ok(creds, `${BASE}/messages/get`, { eventType: "message.attempt.exhausted" })).messages
    expect(exhausted).toMatchObject({ payload: { messageId: event }, channels: [ORG, `${ORG}/doc`] })
    await disable(true)
    expect((await ok(creds, `${BASE}/messages/get`, {})).messages.map((m: any) => m.eventType)).toEqual(["order.paid"])
    await disable(false)
    // Open again, with the organization's own switch events (closed with it while it was disabled).
    expect((await ok(creds, `${BASE}/messages/get`, {})).messages.map((m: any) => m.eventType).sort()).toEqual([
      "access.organization_disabled_updated",
      "access.organization_disabled_updated",
      "comment.add",
      "message.attempt.exhausted",
      "order.paid"
    ])
  })

  it("keeps the host's own message of the organization's channel open: it is the host's, not the organization's", async () => {
    const { creds, disable, endpointId } = await setUp()
    const own = await ok(creds, `${BASE}/messages/create`, { eventType: "order.paid", payload: {}, channels: [ORG] })
    await disable(true)
    expect((await ok(creds, `${BASE}/messages/get`, { channel: ORG })).messages.map((m: any) => m.messageId)).toEqual([own.messageId])
    expect(await ok(creds, `${BASE}/messages/resend`, { messageId: own.messageId, endpointId })).toEqual({ messageId: own.messageId, endpointId })
  })
}, { options: { webhooks: { retrySchedule: [0] } } })

describe("a disabled organization's held delivery", () => {
  const KEY = "key_1"
  const START = Date.UTC(2026, 0, 1)
  const layer = atriumLayer({ storage: MemoryStorage, ids: Ids.Sequential, options: { allowPrivateNetworks: true } })
  const eventOf = (r: { readonly body: string }) => JSON.parse(r.body) as { event: string; data: { disabled?: boolean } }

  effectIt.effect("goes out once the organization is enabled, within the hold, as the attempt it was due to be", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(START)
      yield* WebhookConfigs.update(KEY, { isEnabled: true })
      // The activity's event only: the organization's switch events are the next test's.
      yield* WebhookEndpoints.create(KEY, { url: receiver.url, filterTypes: ["comment.add"] })
      yield* Organizations.add(KEY, { organizations: [{ organizationId: ORG }] })
      yield* Activities.add(KEY, { organizationId: ORG, documentId: "doc", activities: [{ featureType: "comment", actionType: "add", actionUser: { userId: "u1" } }] })
      const [message] = (yield* WebhookMessages.list(KEY, {})).items
      yield* Organizations.updateDisabledState(KEY, { organizationIds: [ORG], disabled: true })
      expect(yield* Deliveries.runDue()).toBe(0)
      yield* Organizations.updateDisabledState(KEY, { organizationIds: [ORG], disabled: false })
      // Handed back for the hold: not a millisecond earlier.
      yield* TestClock.setTime(START + DISABLED_ORGANIZATION_HOLD_MILLIS - 1)
      expect(yield* Deliveries.runDue()).toBe(0)
      yield* TestClock.setTime(START + DISABLED_ORGANIZATION_HOLD_MILLIS)
      expect(yield* Deliveries.runDue()).toBe(1)
      const [attempt] = (yield* Attempts.list(KEY, { messageId: message!.messageId })).items
      expect(attempt).toMatchObject({ attemptNumber: 1, status: "success" })
      expect(receivedFor(message!.messageId)).toHaveLength(1)
    }).pipe(Effect.provide(layer)))

  effectIt.effect("holds the organization's own disabling event with the rest: it goes out after the enabling one, once the hold is over", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(START)
      yield* WebhookConfigs.update(KEY, { isEnabled: true })
      yield* WebhookEndpoints.create(KEY, { url: receiver.url, filterTypes: ["access.organization_disabled_updated"] })
      yield* Organizations.add(KEY, { organizations: [{ organizationId: ORG }] })
      const before = receiver.received.length
      const switches = () => receiver.received.slice(before).map(eventOf).map((e) => [e.event, e.data.disabled])
      yield* Organizations.updateDisabledState(KEY, { organizationIds: [ORG], disabled: true })
      expect(yield* Deliveries.runDue()).toBe(0)
      yield* Organizations.updateDisabledState(KEY, { organizationIds: [ORG], disabled: false })
      expect(yield* Deliveries.runDue()).toBe(1)
      yield* TestClock.setTime(START + DISABLED_ORGANIZATION_HOLD_MILLIS)
      expect(yield* Deliveries.runDue()).toBe(1)
      expect(switches()).toEqual([["access.organization_disabled_updated", false], ["access.organization_disabled_updated", true]])
    }).pipe(Effect.provide(layer)))
})
