/** deliveries/: OutboxRepo (webhook messages and the deliveries they fan out to) and DeliveriesRepo (claims and attempts). */
import * as Effect from "effect/Effect"
import { type AttemptRow, type ClaimShare, DeliveriesRepo } from "../../deliveries/DeliveriesRepo.js"
import { type MessageRow, OutboxRepo } from "../../deliveries/OutboxRepo.js"
import { OrganizationsRepo } from "../../organizations/OrganizationsRepo.js"
import { WebhookEndpointsRepo } from "../../webhooks/WebhookEndpointsRepo.js"
import { endpoint, type StorageCases, T0, unique } from "./fixtures.js"

const message = (apiKey: string, id: string, createdAt: number, fields: Partial<MessageRow> = {}): MessageRow => ({
  apiKey,
  id,
  eventType: "comment.add",
  channels: ["org", "org/doc"],
  organizationId: "org",
  payload: { note: `payload ${id}`, nested: { list: [1, "ü", null] } },
  eventId: null,
  createdAt,
  ...fields
})

const attempt = (
  apiKey: string,
  messageId: string,
  endpointId: string,
  status: AttemptRow["status"],
  createdAt: number,
  fields: Partial<AttemptRow> = {}
): AttemptRow => ({
  apiKey,
  id: unique("attempt"),
  messageId,
  endpointId,
  url: `https://example.com/${endpointId}`,
  attemptNumber: 1,
  status,
  responseStatusCode: status === "success" ? 200 : 500,
  responseBody: status === "success" ? "ok" : "down",
  durationMs: 12,
  error: null,
  createdAt,
  nextAttemptAt: null,
  ...fields
})

/** Every key may take up to ten deliveries a claim. */
const share: ClaimShare = { most: 10, room: new Map() }

export const cases: StorageCases = (it, expect) => {
  it.effect("OutboxRepo: messages are written once per eventId of their key, found, and listed newest first by filter", () =>
    Effect.gen(function*() {
      const outbox = yield* OutboxRepo
      const apiKey = unique("key")
      const other = unique("key")
      const m1 = message(apiKey, "m1", T0, { eventId: "event-1" })
      const m2 = message(apiKey, "m2", T0 + 1, { eventType: "comment.update", channels: ["org"] })
      const m3 = message(apiKey, "m3", T0 + 1)
      expect([...(yield* outbox.insertMessages([m1, m2, m3]))].sort()).toEqual(["m1", "m2", "m3"])
      // The same eventId again: skipped, under this key only.
      expect(yield* outbox.insertMessages([{ ...m1, id: "m4" }])).toEqual([])
      expect(yield* outbox.insertMessages([{ ...m1, apiKey: other }])).toEqual(["m1"])
      expect(yield* outbox.insertMessages([])).toEqual([])

      expect(yield* outbox.findMessage(apiKey, "m2")).toEqual(m2)
      expect(yield* outbox.findMessage(apiKey, "m4")).toBeUndefined()
      expect(yield* outbox.findByEventId(apiKey, "event-1")).toEqual(m1)
      expect(yield* outbox.findMessage(unique("key"), "m1")).toBeUndefined()

      const ids = (filters: Parameters<typeof outbox.listMessages>[1], before?: { createdAt: number; id: string }) =>
        outbox.listMessages(apiKey, filters, { limit: 10, ...(before && { before }) }).pipe(Effect.map((rows) => rows.map((m) => m.id)))
      expect(yield* ids({})).toEqual(["m3", "m2", "m1"])
      expect(yield* ids({}, { createdAt: T0 + 1, id: "m3" })).toEqual(["m2", "m1"])
      expect(yield* ids({ eventType: "comment.update" })).toEqual(["m2"])
      expect(yield* ids({ channel: "org/doc" })).toEqual(["m3", "m1"])
      expect(yield* ids({ channel: "org/do" })).toEqual([])
      expect(yield* ids({ messageId: "m2" })).toEqual(["m2"])
      expect((yield* outbox.listMessages(other, {}, { limit: 10 })).map((m) => m.apiKey)).toEqual([other])

      // Past the idempotency window the eventId may be used again.
      yield* outbox.forgetEventId(apiKey, "m1")
      expect(yield* outbox.findByEventId(apiKey, "event-1")).toBeUndefined()
      expect((yield* outbox.findMessage(apiKey, "m1"))?.eventId).toBeNull()
      expect(yield* outbox.insertMessages([{ ...m1, id: "m5" }])).toEqual(["m5"])
    }))

  // A claim takes due deliveries of every key: each case that writes deliveries claims at times of
  // its own (this one up to T0 + 20,000) and leaves none pending.
  it.effect("DeliveriesRepo: the outbox's due deliveries are claimed once, attempts are recorded under the claim, failures retried when due", () =>
    Effect.gen(function*() {
      const outbox = yield* OutboxRepo
      const deliveries = yield* DeliveriesRepo
      const endpoints = yield* WebhookEndpointsRepo
      const apiKey = unique("key")
      const claimPrefix = unique("worker")
      yield* endpoints.insert(endpoint(apiKey, "e1", T0), "whsec_e1")
      yield* endpoints.insert(endpoint(apiKey, "e2", T0, { rateLimit: 5 }), "whsec_e2")
      const m1 = message(apiKey, "m1", T0)
      yield* outbox.insertMessages([m1, message(apiKey, "m2", T0)])
      const pending = (messageId: string, endpointId: string, nextAttemptAt: number) =>
        ({ apiKey, messageId, endpointId, maxAttempts: 3, nextAttemptAt, createdAt: T0 })
      yield* outbox.insertDeliveries([pending("m1", "e1", T0 + 10), pending("m1", "e2", T0 + 10), pending("m2", "e1", T0 + 500)])

      // Due at T0 + 100: m1's two deliveries, with their message and endpoint; m2's is not due yet.
      const now = T0 + 100
      const first = yield* deliveries.claim(`${claimPrefix}-1`, now, now + 1000, 10, share)
      const claimed = [...first.deliveries].sort((a, b) => a.endpointId < b.endpointId ? -1 : 1)
      expect(claimed.map((d) => `${d.messageId}→${d.endpointId}`)).toEqual(["m1→e1", "m1→e2"])
      const { payloadJson, ...rest } = claimed[0]!
      expect(rest).toEqual({
        apiKey,
        messageId: "m1",
        endpointId: "e1",
        attempts: 0,
        maxAttempts: 3,
        eventType: "comment.add",
        channels: ["org", "org/doc"],
        organizationId: "org",
        organizationDisabled: false,
        messageCreatedAt: T0,
        url: "https://example.com/e1",
        rateLimit: null,
        secrets: ["whsec_e1"]
      })
      expect(JSON.parse(payloadJson)).toEqual(m1.payload)
      expect(claimed[1]).toMatchObject({ rateLimit: 5, secrets: ["whsec_e2"] })
      // Held by the first claim: nobody else takes them.
      expect((yield* deliveries.claim(`${claimPrefix}-2`, now, now + 1000, 10, share)).deliveries).toEqual([])

      // e1 failed (retry at now + 50), e2 succeeded; a late write under the spent claim changes nothing.
      const failed = attempt(apiKey, "m1", "e1", "failed", now + 1, { nextAttemptAt: now + 50 })
      expect(yield* deliveries.recordAttempts([
        { claim: `${claimPrefix}-1`, attempt: failed, next: { status: "pending", at: now + 50 } },
        { claim: `${claimPrefix}-1`, attempt: attempt(apiKey, "m1", "e2", "success", now + 2), next: { status: "success" } }
      ])).toEqual([true, true])
      const late = attempt(apiKey, "m1", "e1", "failed", now + 3)
      expect(yield* deliveries.recordAttempts([{ claim: `${claimPrefix}-1`, attempt: late, next: { status: "failed" } }])).toEqual([false])
      expect((yield* deliveries.claim(`${claimPrefix}-3`, now + 49, now + 1000, 10, share)).deliveries).toEqual([])
      const retried = yield* deliveries.claim(`${claimPrefix}-4`, now + 50, now + 1000, 10, share)
      expect(retried.deliveries.map((d) => [d.messageId, d.endpointId, d.attempts])).toEqual([["m1", "e1", 1]])

      // Postponed (rate limit) without counting an attempt; then due with m2's delivery.
      yield* deliveries.postpone(`${claimPrefix}-4`, retried.deliveries[0]!, T0 + 500)
      expect((yield* deliveries.claim(`${claimPrefix}-5`, T0 + 499, T0 + 2000, 10, share)).deliveries).toEqual([])
      const both = yield* deliveries.claim(`${claimPrefix}-6`, T0 + 500, T0 + 2000, 10, share)
      expect(both.deliveries.map((d) => [d.messageId, d.attempts]).sort()).toEqual([["m1", 1], ["m2", 0]])
      // A worker stopping hands back what it holds, due at once.
      expect(yield* deliveries.releaseAll(claimPrefix, T0 + 600)).toBe(2)
      expect((yield* deliveries.claim(`${claimPrefix}-7`, T0 + 600, T0 + 2000, 1, share)).deliveries).toHaveLength(1)
      expect(yield* deliveries.releaseAll(claimPrefix, T0 + 600)).toBe(1)

      // Attempts: every one recorded (the late one too), newest first, by filter, under this key only.
      const listed = (filters: Parameters<typeof deliveries.listAttempts>[1]) =>
        deliveries.listAttempts(apiKey, filters, { limit: 10 }).pipe(Effect.map((rows) => rows.map((a) => `${a.endpointId}:${a.status}@${a.createdAt - now}`)))
      expect(yield* listed({})).toEqual(["e1:failed@3", "e2:success@2", "e1:failed@1"])
      expect(yield* listed({ status: "success" })).toEqual(["e2:success@2"])
      expect(yield* listed({ endpointId: "e1", messageId: "m1" })).toEqual(["e1:failed@3", "e1:failed@1"])
      expect(yield* deliveries.listAttempts(apiKey, { status: "failed" }, { limit: 10, before: { createdAt: late.createdAt, id: late.id } }))
        .toEqual([failed])
      expect(yield* deliveries.listAttempts(unique("key"), {}, { limit: 10 })).toEqual([])

      // A deleted endpoint takes its deliveries and attempts along; a disabled one's are cancelled.
      yield* deliveries.cancelEndpoint(apiKey, "e1", T0 + 700)
      expect((yield* deliveries.claim(`${claimPrefix}-8`, T0 + 10_000, T0 + 20_000, 10, share)).deliveries).toEqual([])
      yield* deliveries.forgetEndpoint(apiKey, "e1")
      expect(yield* listed({})).toEqual(["e2:success@2"])
    }))

  it.effect("a disabled organization's messages, their attempts and their failed deliveries are left out; claims say it is disabled", () =>
    Effect.gen(function*() {
      const outbox = yield* OutboxRepo
      const deliveries = yield* DeliveriesRepo
      const endpoints = yield* WebhookEndpointsRepo
      const organizations = yield* OrganizationsRepo
      const apiKey = unique("key")
      const other = unique("key")
      const claimPrefix = unique("worker")
      // Claimed at times no other case claims at.
      const at = T0 + 10_000_000
      yield* endpoints.insert(endpoint(apiKey, "e1", T0), "whsec_e1")
      const on = message(apiKey, "on", at, { organizationId: "org-on" })
      const off = message(apiKey, "off", at + 1, { organizationId: "org-off" })
      const none = message(apiKey, "none", at + 2, { organizationId: null, channels: [] })
      yield* outbox.insertMessages([on, off, none, message(other, "off", at, { organizationId: "org-off" })])
      yield* outbox.insertDeliveries([on, off, none].map((m) =>
        ({ apiKey, messageId: m.id, endpointId: "e1", maxAttempts: 1, nextAttemptAt: at, createdAt: at })))
      yield* organizations.ensure(apiKey, "org-on", T0)
      yield* organizations.ensure(apiKey, "org-off", T0)
      yield* organizations.setDisabled(apiKey, "org-off", true, T0)
      // The same organization id of another key stays enabled: only this key's switch counts.
      yield* organizations.ensure(other, "org-off", T0)

      // A claim still takes the disabled organization's delivery, and says so (the service holds it).
      const claimed = yield* deliveries.claim(`${claimPrefix}-1`, at, at + 1000, 10, share)
      expect(claimed.deliveries.map((d) => [d.messageId, d.organizationId, d.organizationDisabled]).sort())
        .toEqual([["none", null, false], ["off", "org-off", true], ["on", "org-on", false]])
      yield* deliveries.recordAttempts(claimed.deliveries.map((d, i) => ({
        claim: `${claimPrefix}-1`,
        attempt: attempt(apiKey, d.messageId, "e1", "failed", at + 10 + i),
        next: { status: "failed" as const }
      })))

      const messageIds = (apiKey: string, filters: Parameters<typeof outbox.listMessages>[1] = {}) =>
        Effect.map(outbox.listMessages(apiKey, filters, { limit: 10 }), (rows) => rows.map((m) => m.id))
      const attemptsOf = (filters: Parameters<typeof deliveries.listAttempts>[1] = {}) =>
        Effect.map(deliveries.listAttempts(apiKey, filters, { limit: 10 }), (rows) => rows.map((a) => a.messageId).sort())
      expect(yield* messageIds(apiKey)).toEqual(["none", "on"])
      expect(yield* messageIds(apiKey, { messageId: "off" })).toEqual([])
      expect(yield* messageIds(apiKey, { channel: "org" })).toEqual(["on"])
      expect(yield* messageIds(other)).toEqual(["off"])
      // The service finds it (and refuses it by its organization).
      expect((yield* outbox.findMessage(apiKey, "off"))?.organizationId).toBe("org-off")
      expect(yield* attemptsOf()).toEqual(["none", "on"])
      expect(yield* attemptsOf({ messageId: "off" })).toEqual([])

      // Recover resends the failed deliveries of the enabled organization and of none; the disabled one's wait.
      expect(yield* deliveries.recover(apiKey, "e1", at, at + 100)).toBe(2)
      expect((yield* deliveries.claim(`${claimPrefix}-2`, at + 100, at + 1000, 10, share)).deliveries.map((d) => d.messageId).sort())
        .toEqual(["none", "on"])
      yield* organizations.setDisabled(apiKey, "org-off", false, T0)
      expect(yield* messageIds(apiKey)).toEqual(["none", "off", "on"])
      expect(yield* attemptsOf()).toEqual(["none", "off", "on"])
      expect(yield* deliveries.recover(apiKey, "e1", at, at + 200)).toBe(1)
      expect((yield* deliveries.claim(`${claimPrefix}-3`, at + 200, at + 1000, 10, share)).deliveries.map((d) => [d.messageId, d.organizationDisabled]))
        .toEqual([["off", false]])
      // Nothing left pending for another case's claims.
      yield* deliveries.cancelEndpoint(apiKey, "e1", at + 300)
    }))
}
