import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { forEachBackend, type Started } from "../../../../test-support/backends.js"
import { type Receiver, startReceiver, verified } from "../../../../test-support/receiver.js"
import type { TestCredentials } from "../../src/testing/index.js"

const BASE = "/v2/workspace/advancedwebhook"

/** Short retries, so tests run the schedule in real time: three attempts, 50 ms apart. */
const options = { webhooks: { retrySchedule: [0, 0.05, 0.05] } }

const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis))

forEachBackend("webhook deliveries", (ctx: () => Started) => {
  let receiver: Receiver
  beforeAll(async () => {
    receiver = await startReceiver()
  })
  afterAll(() => receiver.close())

  const post = async (creds: TestCredentials, path: string, data: unknown) => ctx().client.post(path, data, creds.headers)
  const ok = async (creds: TestCredentials, path: string, data: unknown) => {
    const answer = await post(creds, path, data)
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
    return answer.body.result.data
  }

  /** A workspace with advanced webhooks on and one endpoint at `url` (default: the receiver). */
  const setUp = async (endpoint: Record<string, unknown> = {}) => {
    const creds = await ctx().workspace()
    await ok(creds, "/v2/workspace/advancedwebhookconfig/update", { isEnabled: true })
    const created = await ok(creds, `${BASE}/endpoints/create`, { url: receiver.url, ...endpoint })
    const { secret } = await ok(creds, `${BASE}/endpoints/secret/get`, { endpointId: created.id })
    return { creds, endpointId: created.id as string, secret: secret as string }
  }

  /**
   * Runs due deliveries until `until` holds (retries wait out their delay in real time). The bound
   * only stops a test whose delivery never comes: a loaded CI machine took over 5 s for one.
   */
  const deliverUntil = async (until: () => boolean, timeoutMillis = 20_000) => {
    const deadline = Date.now() + timeoutMillis
    while (!until()) {
      if (Date.now() > deadline) throw new Error("deliveries did not arrive in time")
      await ctx().atrium.runDue()
      await sleep(10)
    }
  }

  const publish = (creds: TestCredentials, data: Record<string, unknown>) =>
    ok(creds, `${BASE}/messages/create`, { payload: {}, ...data })

  const receivedFor = (messageId: string) => receiver.received.filter((r) => r.headers["webhook-id"] === messageId)

  it("delivers an activity's event, signed so standardwebhooks verifies it, with the activity as data", async () => {
    const { creds, endpointId, secret } = await setUp()
    await ok(creds, "/v2/activities/add", {
      organizationId: "org1",
      documentId: "doc1",
      activities: [{ id: "act-1", featureType: "comment", actionType: "add", actionUser: { userId: "u1" }, timestamp: 1_700_000_000_000 }]
    })
    const [message] = (await ok(creds, `${BASE}/messages/get`, {})).messages
    expect(message).toMatchObject({ eventType: "comment.add", channels: ["org1", "org1/doc1"] })
    await deliverUntil(() => receivedFor(message.messageId).length === 1)

    const delivery = receivedFor(message.messageId)[0]!
    const body = verified(secret, delivery)
    const [activity] = await ok(creds, "/v2/activities/get", { organizationId: "org1" })
    expect(activity).toMatchObject({ id: "act-1" })
    expect(body).toEqual({
      webhookId: message.messageId,
      event: "comment.add",
      source: "comment",
      actionType: "add",
      timestamp: Date.parse(message.createdAt),
      data: activity
    })
    expect(delivery.headers["content-type"]).toBe("application/json")

    const attempts = (await ok(creds, `${BASE}/attempts/get`, { messageId: message.messageId })).attempts
    expect(attempts).toEqual([expect.objectContaining({
      messageId: message.messageId,
      endpointId,
      url: receiver.url,
      attemptNumber: 1,
      status: "success",
      responseStatusCode: 200,
      error: null,
      nextAttemptAt: null
    })])
  })

  it("records nothing while advanced webhooks are off, and messages/create says to turn them on", async () => {
    const creds = await ctx().workspace()
    await ok(creds, "/v2/activities/add", {
      organizationId: "org1",
      documentId: "doc1",
      activities: [{ featureType: "comment", actionType: "add", actionUser: { userId: "u1" } }]
    })
    await ok(creds, "/v2/workspace/advancedwebhookconfig/update", { isEnabled: true })
    expect((await ok(creds, `${BASE}/messages/get`, {})).messages).toEqual([])
    await ok(creds, "/v2/workspace/advancedwebhookconfig/update", { isEnabled: false })
    const refused = await post(creds, `${BASE}/messages/create`, { eventType: "order.paid", payload: {} })
    expect(refused.status).toBe(400)
    expect(refused.body.error.status).toBe("FAILED_PRECONDITION")
    expect(refused.body.error.message).toContain("isEnabled")
  })

  it("answers the first message for a repeated eventId and sends it once", async () => {
    const { creds } = await setUp()
    const first = await publish(creds, { eventType: "order.paid", payload: { orderId: 7 }, eventId: "evt-1" })
    const again = await publish(creds, { eventType: "order.paid", payload: { orderId: 8 }, eventId: "evt-1" })
    expect(again).toEqual(first)
    await deliverUntil(() => receivedFor(first.messageId).length === 1)
    await ctx().atrium.runDue()
    expect(receivedFor(first.messageId)).toHaveLength(1)
    expect((await ok(creds, `${BASE}/messages/get`, { eventType: "order.paid" })).messages).toHaveLength(1)
  })

  it("fans out by filterTypes and channels; message.attempt.exhausted only where named", async () => {
    const { creds } = await setUp({ filterTypes: ["order.paid"] })
    const byChannel = await ok(creds, `${BASE}/endpoints/create`, { url: `${receiver.url}?c`, channels: ["shop-1"] })
    await ok(creds, `${BASE}/endpoints/create`, { url: `${receiver.url}?off`, disabled: true })
    const exhaustedOnly = await ok(creds, `${BASE}/endpoints/create`, { url: `${receiver.url}?x`, filterTypes: ["message.attempt.exhausted"] })
    const paid = await publish(creds, { eventType: "order.paid", channels: ["shop-2"] })
    const shipped = await publish(creds, { eventType: "order.shipped", channels: ["shop-1"] })
    await deliverUntil(() => receivedFor(paid.messageId).length + receivedFor(shipped.messageId).length === 2)
    await ctx().atrium.runDue()
    expect(receivedFor(paid.messageId)).toHaveLength(1)
    expect(receivedFor(shipped.messageId)).toHaveLength(1)
    const shippedAttempts = (await ok(creds, `${BASE}/attempts/get`, { messageId: shipped.messageId })).attempts
    expect(shippedAttempts.map((a: any) => a.endpointId)).toEqual([byChannel.id])
    expect((await ok(creds, `${BASE}/attempts/get`, { endpointId: exhaustedOnly.id })).attempts).toEqual([])
  })

  it("retries failures on the schedule, then marks the message failed and sends message.attempt.exhausted", async () => {
    const { creds, endpointId } = await setUp({ filterTypes: ["order.paid"] })
    const watcher = await ok(creds, `${BASE}/endpoints/create`, { url: `${receiver.url}?watch`, filterTypes: ["message.attempt.exhausted"] })
    const { secret: watcherSecret } = await ok(creds, `${BASE}/endpoints/secret/get`, { endpointId: watcher.id })
    const message = await publish(creds, { eventType: "order.paid", payload: { n: 1 } })
    const previous = receiver.answer
    receiver.answer = (r) => r.headers["webhook-id"] === message.messageId ? { status: 500, body: "down" } : previous(r)
    try {
      await deliverUntil(() => receivedFor(message.messageId).length === 3)
      // The exhausted event is a message of its own, delivered to the endpoint that asked for it.
      await deliverUntil(() => receiver.received.some((r) => r.body.includes("message.attempt.exhausted")))
    } finally {
      receiver.answer = previous
    }
    const attempts = (await ok(creds, `${BASE}/attempts/get`, { messageId: message.messageId, endpointId })).attempts
    expect(attempts.map((a: any) => [a.attemptNumber, a.status, a.responseStatusCode, a.responseBody])).toEqual([
      [3, "failed", 500, "down"],
      [2, "failed", 500, "down"],
      [1, "failed", 500, "down"]
    ])
    expect(attempts[0].nextAttemptAt).toBeNull()
    expect(attempts[1].nextAttemptAt).not.toBeNull()
    const exhausted = verified(watcherSecret, receiver.received.find((r) => r.body.includes("message.attempt.exhausted"))!)
    expect(exhausted).toMatchObject({
      event: "message.attempt.exhausted",
      source: "message",
      actionType: "attempt.exhausted",
      data: { messageId: message.messageId, endpointId, eventType: "order.paid", lastAttempt: attempts[0] }
    })
    expect((await ok(creds, `${BASE}/attempts/get`, { endpointId, status: "failed", limit: 2 })).attempts).toHaveLength(2)
  })

  it("disables an endpoint that answers 410 Gone, and sends it nothing more", async () => {
    const { creds, endpointId } = await setUp()
    const first = await publish(creds, { eventType: "order.paid" })
    const previous = receiver.answer
    receiver.answer = (r) => r.headers["webhook-id"] === first.messageId ? { status: 410 } : previous(r)
    await deliverUntil(() => receivedFor(first.messageId).length === 1)
    await ctx().atrium.runDue()
    receiver.answer = previous
    const [endpoint] = (await ok(creds, `${BASE}/endpoints/get`, {})).endpoints
    expect(endpoint).toMatchObject({ id: endpointId, disabled: true })
    const second = await publish(creds, { eventType: "order.paid" })
    await ctx().atrium.runDue()
    expect(receivedFor(second.messageId)).toHaveLength(0)
    expect((await ok(creds, `${BASE}/attempts/get`, { messageId: first.messageId })).attempts.map((a: any) => a.status)).toEqual(["failed"])
  })

  for (const how of ["deleted", "disabled"] as const) {
    it(`makes no attempt after its endpoint is ${how} mid-retry`, async () => {
      const { creds, endpointId } = await setUp()
      const message = await publish(creds, { eventType: "order.paid" })
      const previous = receiver.answer
      receiver.answer = (r) => r.headers["webhook-id"] === message.messageId ? { status: 503 } : previous(r)
      await deliverUntil(() => receivedFor(message.messageId).length === 1)
      receiver.answer = previous
      if (how === "deleted") await ok(creds, `${BASE}/endpoints/delete`, { endpointId })
      else await ok(creds, `${BASE}/endpoints/update`, { endpointId, disabled: true })
      await sleep(120)
      await ctx().atrium.runDue()
      expect(receivedFor(message.messageId)).toHaveLength(1)
    })
  }

  it("signs with the old and the new secret for a day after a rotation", async () => {
    const { creds, endpointId, secret: old } = await setUp()
    const { secret: rotated } = await ok(creds, `${BASE}/endpoints/secret/rotate`, { endpointId })
    expect(rotated).toMatch(/^whsec_/)
    expect(rotated).not.toBe(old)
    expect((await ok(creds, `${BASE}/endpoints/secret/get`, { endpointId })).secret).toBe(rotated)
    const message = await publish(creds, { eventType: "order.paid" })
    await deliverUntil(() => receivedFor(message.messageId).length === 1)
    const delivery = receivedFor(message.messageId)[0]!
    expect(String(delivery.headers["webhook-signature"]).split(" ")).toHaveLength(2)
    expect(verified(old, delivery).webhookId).toBe(message.messageId)
    expect(verified(rotated, delivery).webhookId).toBe(message.messageId)
  })

  it("resends a delivered message with the same webhook-id, and recovers failed ones", async () => {
    const { creds, endpointId, secret } = await setUp()
    const message = await publish(creds, { eventType: "order.paid" })
    await deliverUntil(() => receivedFor(message.messageId).length === 1)
    expect(await ok(creds, `${BASE}/messages/resend`, { messageId: message.messageId, endpointId })).toEqual({
      messageId: message.messageId,
      endpointId
    })
    await deliverUntil(() => receivedFor(message.messageId).length === 2)
    expect(verified(secret, receivedFor(message.messageId)[1]!).webhookId).toBe(message.messageId)

    const since = new Date().toISOString()
    const failing = await publish(creds, { eventType: "order.failed" })
    const previous = receiver.answer
    receiver.answer = (r) => r.headers["webhook-id"] === failing.messageId ? { status: 500 } : previous(r)
    await deliverUntil(() => receivedFor(failing.messageId).length === 3)
    await sleep(60)
    await ctx().atrium.runDue()
    receiver.answer = previous
    expect(await ok(creds, `${BASE}/endpoints/recover`, { endpointId, since })).toEqual({ count: 1 })
    await deliverUntil(() => receivedFor(failing.messageId).length === 4)
    const attempts = (await ok(creds, `${BASE}/attempts/get`, { messageId: failing.messageId })).attempts
    expect(attempts[0]).toMatchObject({ attemptNumber: 4, status: "success" })
    expect(await ok(creds, `${BASE}/endpoints/recover`, { endpointId, since })).toEqual({ count: 0 })
  })

  it("pages messages newest first and filters them by channel, exactly", async () => {
    const { creds } = await setUp({ filterTypes: ["nothing.matches"] })
    const ids: Array<string> = []
    for (let i = 0; i < 5; i++) ids.push((await publish(creds, { eventType: "page.test", channels: [i % 2 === 0 ? "Even" : "odd"] })).messageId)
    const first = await ok(creds, `${BASE}/messages/get`, { limit: 2 })
    const second = await ok(creds, `${BASE}/messages/get`, { limit: 2, iterator: first.iterator })
    const third = await ok(creds, `${BASE}/messages/get`, { limit: 2, iterator: second.iterator })
    const seen = [...first.messages, ...second.messages, ...third.messages].map((m: any) => m.messageId)
    expect(new Set(seen)).toEqual(new Set(ids))
    expect(seen).toHaveLength(5)
    expect(third.iterator).toBeNull()
    expect((await ok(creds, `${BASE}/messages/get`, { channel: "Even" })).messages).toHaveLength(3)
    expect((await ok(creds, `${BASE}/messages/get`, { channel: "even" })).messages).toHaveLength(0)
    expect((await ok(creds, `${BASE}/messages/get`, { messageId: ids[2] })).messages.map((m: any) => m.messageId)).toEqual([ids[2]])
    const bad = await post(creds, `${BASE}/messages/get`, { iterator: first.iterator, channel: "odd" })
    expect(bad.status).toBe(400)
    expect(bad.body.error.message).toContain("iterator")
  })

  it("refuses malformed events with a message that says what is wrong", async () => {
    const { creds } = await setUp()
    const cases: Array<[unknown, string]> = [
      [{ eventType: "nodot", payload: {} }, "eventType"],
      [{ eventType: "a.b", payload: [] }, "payload"],
      [{ eventType: "a.b", payload: { big: "x".repeat(300 * 1024) } }, "payload"],
      [{ eventType: "a.b", payload: {}, channels: Array.from({ length: 11 }, (_, i) => `c${i}`) }, "channels"],
      [{ eventType: `a.${"b".repeat(300)}`, payload: {} }, "eventType"]
    ]
    for (const [data, field] of cases) {
      const answer = await post(creds, `${BASE}/messages/create`, data)
      expect(answer.status, JSON.stringify(data).slice(0, 80)).toBe(400)
      expect(answer.body.error.status).toBe("INVALID_ARGUMENT")
      expect(answer.body.error.message).toContain(field)
    }
    const since = await post(creds, `${BASE}/endpoints/recover`, { endpointId: "ep_x", since: "yesterday" })
    expect(since.status).toBe(400)
    expect(since.body.error.message).toContain("since")
    expect((await ok(creds, `${BASE}/messages/get`, {})).messages).toEqual([])
  })

  it("answers NOT_FOUND for unknown ids and for another API key's message and endpoint", async () => {
    const mine = await setUp()
    const theirs = await setUp()
    const message = await publish(theirs.creds, { eventType: "order.paid" })
    const calls: Array<[string, unknown]> = [
      [`${BASE}/messages/resend`, { messageId: message.messageId, endpointId: mine.endpointId }],
      [`${BASE}/messages/resend`, { messageId: "msg_none", endpointId: mine.endpointId }],
      [`${BASE}/endpoints/recover`, { endpointId: theirs.endpointId, since: "2020-01-01T00:00:00Z" }],
      [`${BASE}/endpoints/secret/rotate`, { endpointId: theirs.endpointId }],
      [`${BASE}/attempts/get`, { endpointId: theirs.endpointId }],
      [`${BASE}/attempts/get`, { messageId: message.messageId }]
    ]
    for (const [path, data] of calls) {
      const answer = await post(mine.creds, path, data)
      expect(answer.status, path).toBe(404)
      expect(answer.body.error.status).toBe("NOT_FOUND")
    }
    expect((await ok(mine.creds, `${BASE}/messages/get`, { messageId: message.messageId })).messages).toEqual([])
    expect((await ok(theirs.creds, `${BASE}/endpoints/secret/get`, { endpointId: theirs.endpointId })).secret).toBe(theirs.secret)
  })

  it("names the endpoint in one message from every operation on an endpoint the key does not have (issue 22)", async () => {
    const mine = await setUp()
    const theirs = await setUp()
    for (const endpointId of ["ep_none", theirs.endpointId]) {
      const calls: Array<[string, Record<string, unknown>]> = [
        [`${BASE}/endpoints/update`, { disabled: true }],
        [`${BASE}/endpoints/delete`, {}],
        [`${BASE}/endpoints/secret/get`, {}],
        [`${BASE}/endpoints/secret/rotate`, {}],
        [`${BASE}/endpoints/recover`, { since: "2020-01-01T00:00:00Z" }],
        [`${BASE}/attempts/get`, {}]
      ]
      for (const [path, data] of calls) {
        const answer = await post(mine.creds, path, { endpointId, ...data })
        expect(answer.body, path).toEqual({ error: { status: "NOT_FOUND", message: `Webhook endpoint ${endpointId} not found.` } })
      }
    }
  })

  it("refuses a resend to a disabled endpoint", async () => {
    const { creds, endpointId } = await setUp()
    const message = await publish(creds, { eventType: "order.paid" })
    await ok(creds, `${BASE}/endpoints/update`, { endpointId, disabled: true })
    const answer = await post(creds, `${BASE}/messages/resend`, { messageId: message.messageId, endpointId })
    expect(answer.status).toBe(400)
    expect(answer.body.error.status).toBe("FAILED_PRECONDITION")
    expect(answer.body.error.message).toContain("disabled")
  })
}, { options })
