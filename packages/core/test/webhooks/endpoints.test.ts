import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/TestClock"
import { atriumLayer } from "../../src/Atrium.js"
import { Ids } from "../../src/ports/Ids.js"
import { MemoryStorage } from "../../src/testing/MemoryStorage.js"
import { newSigningSecret } from "../../src/webhooks/SigningSecret.js"
import { WebhookConfigs } from "../../src/webhooks/WebhookConfigs.js"
import { WebhookEndpoints } from "../../src/webhooks/WebhookEndpoints.js"

const API_KEY = "ak_test"
const URL = "https://example.com/hooks"

const sequential = atriumLayer({ storage: MemoryStorage, ids: Ids.Sequential })

describe("WebhookEndpoints", () => {
  it.effect("moves updatedAt on update and keeps createdAt", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.UTC(2026, 5, 1, 10, 15, 30))
      yield* WebhookConfigs.update(API_KEY, { isEnabled: true })
      const created = yield* WebhookEndpoints.create(API_KEY, { url: URL })
      expect(created.createdAt).toBe("2026-06-01T10:15:30.000Z")
      expect(created.updatedAt).toBe("2026-06-01T10:15:30.000Z")

      yield* TestClock.adjust("90 seconds")
      const updated = yield* WebhookEndpoints.update(API_KEY, { endpointId: created.id, description: "moved" })
      expect(updated.createdAt).toBe("2026-06-01T10:15:30.000Z")
      expect(updated.updatedAt).toBe("2026-06-01T10:17:00.000Z")

      const listed = yield* WebhookEndpoints.list(API_KEY, {})
      expect(listed.endpoints).toEqual([updated])
    }).pipe(Effect.provide(sequential)))

  it.effect("pages forward and back through endpoints created at the same instant (ties ordered by id)", () =>
    Effect.gen(function*() {
      yield* WebhookConfigs.update(API_KEY, { isEnabled: true })
      const ids: Array<string> = []
      for (let i = 0; i < 5; i++) ids.push((yield* WebhookEndpoints.create(API_KEY, { url: URL })).id)

      const first = yield* WebhookEndpoints.list(API_KEY, { limit: 2 })
      const second = yield* WebhookEndpoints.list(API_KEY, { limit: 2, iterator: first.iterator })
      const third = yield* WebhookEndpoints.list(API_KEY, { limit: 2, iterator: second.iterator })
      expect([first, second, third].map((p) => p.endpoints.map((e) => e.id))).toEqual([ids.slice(0, 2), ids.slice(2, 4), ids.slice(4)])
      expect([first.done, second.done, third.done]).toEqual([false, false, true])

      const back = yield* WebhookEndpoints.list(API_KEY, { limit: 2, iterator: third.prevIterator })
      expect(back.endpoints.map((e) => e.id)).toEqual(ids.slice(2, 4))
    }).pipe(Effect.provide(sequential)))

  it.effect("makes ids of ep_ and 27 characters with the production id generator", () =>
    Effect.gen(function*() {
      yield* WebhookConfigs.update(API_KEY, { isEnabled: true })
      const created = yield* WebhookEndpoints.create(API_KEY, { url: URL })
      expect(created.id).toMatch(/^ep_[0-9A-Za-z]{27}$/)
    }).pipe(Effect.provide(atriumLayer({ storage: MemoryStorage }))))
})

describe("newSigningSecret", () => {
  it("is whsec_ and base64 of 24 to 32 random bytes", () => {
    const secrets = Array.from({ length: 20 }, newSigningSecret)
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/)
      const encoded = secret.slice("whsec_".length)
      const bytes = Buffer.from(encoded, "base64")
      expect(bytes.toString("base64")).toBe(encoded)
      expect(bytes.length).toBeGreaterThanOrEqual(24)
      expect(bytes.length).toBeLessThanOrEqual(32)
    }
    expect(new Set(secrets).size).toBe(secrets.length)
  })
})
