/**
 * One API key's dead receivers must not delay another key's deliveries (issue 21, item 5): the
 * background worker gives a key at most its share of its slots and of each claim. Real
 * receivers on loopback; the dead one holds every request until the attempt times out.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends, type Started } from "../../../../test-support/backends.js"
import { type Receiver, startReceiver } from "../../../../test-support/receiver.js"
import type { TestCredentials } from "../../src/testing/index.js"

const BASE = "/v2/workspace/advancedwebhook"

/** The default cap: key A has as many endpoints as a key may. */
const ENDPOINTS = 50

/**
 * Eight slots, so two per key. No A attempt times out while the test looks (5 s), so every A
 * request the dead receiver got is still in flight. Before the share, A's 50 deliveries took
 * all eight slots for 5 s, seven times over, ahead of B's.
 */
const options = { webhooks: { concurrency: 8, timeoutMillis: 5000 } }

const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis))

for (const backend of backends.filter((b) => b.name === "sqlite" || b.name === "postgres")) {
  describe(`fair delivery [${backend.name}]`, () => {
    let started: Started
    let dead: Receiver
    let healthy: Receiver
    beforeAll(async () => {
      ;[started, dead, healthy] = await Promise.all([backend.start({ options, runDeliveries: true }), startReceiver(), startReceiver()])
      dead.answer = () => ({ status: 200, hold: true })
    })
    // The dead receiver goes first: its held requests fail at once, so the worker stops quickly.
    afterAll(async () => {
      await dead.close()
      await healthy.close()
      await started.stop()
    })

    const ok = async (creds: TestCredentials, path: string, data: unknown) => {
      const answer = await started.client.post(path, data, creds.headers)
      if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
      return answer.body.result.data
    }

    const keyWithEndpoints = async (url: string, count: number) => {
      const creds = await started.workspace()
      await ok(creds, "/v2/workspace/advancedwebhookconfig/update", { isEnabled: true })
      for (let n = 0; n < count; n++) await ok(creds, `${BASE}/endpoints/create`, { url: `${url}?n=${n}` })
      return creds
    }

    it("delivers key B's event within 3 s while key A's 50 endpoints hang, A holding at most its share", async () => {
      const a = await keyWithEndpoints(dead.url, ENDPOINTS)
      const b = await keyWithEndpoints(healthy.url, 1)
      await ok(a, `${BASE}/messages/create`, { eventType: "order.paid", payload: {} })
      while (dead.open() === 0) await sleep(5)

      const sent = Date.now()
      const { messageId } = await ok(b, `${BASE}/messages/create`, { eventType: "order.paid", payload: {} })
      await healthy.waitFor(1, 3000)
      expect(Date.now() - sent).toBeLessThan(3000)
      expect(healthy.received[0]!.headers["webhook-id"]).toBe(messageId)
      // A's attempts are still hanging, and there are two of them: its share of eight slots.
      expect(dead.open()).toBe(2)
      expect(dead.received).toHaveLength(2)
    })
  })
}
