/** webhooks/: WebhookConfigRepo and WebhookEndpointsRepo. */
import * as Effect from "effect/Effect"
import { WebhookConfigRepo } from "../../webhooks/WebhookConfigRepo.js"
import { WebhookEndpointsRepo } from "../../webhooks/WebhookEndpointsRepo.js"
import { endpoint, type StorageCases, T0, unique } from "./fixtures.js"

export const cases: StorageCases = (it, expect) => {
  it.effect("WebhookEndpointsRepo.list pages forwards after a position and backwards before one", () =>
    Effect.gen(function*() {
      const endpoints = yield* WebhookEndpointsRepo
      const apiKey = unique("key")
      const rows = ["w3", "w1", "w2", "w4"].map((id, i) => endpoint(apiKey, id, T0 + (i < 2 ? 0 : 1)))
      for (const row of rows) expect(yield* endpoints.insert(row, `secret-${row.id}`)).toBe(true)
      const forward = yield* endpoints.list(apiKey, { limit: 10 })
      expect(forward.map((e) => e.id)).toEqual(["w1", "w3", "w2", "w4"])
      const after = yield* endpoints.list(apiKey, { after: { createdAt: T0, id: "w3" }, limit: 1 })
      expect(after.map((e) => e.id)).toEqual(["w2"])
      const before = yield* endpoints.list(apiKey, { before: { createdAt: T0 + 1, id: "w2" }, limit: 10 })
      expect(before.map((e) => e.id)).toEqual(["w3", "w1"])
    }))

  it.effect("WebhookConfigRepo and WebhookEndpointsRepo: booleans, nulls, JSON lists, the secret kept apart", () =>
    Effect.gen(function*() {
      const configs = yield* WebhookConfigRepo
      const endpoints = yield* WebhookEndpointsRepo
      const apiKey = unique("key")
      expect(yield* configs.find(apiKey)).toBeUndefined()
      const config = { apiKey, isEnabled: true, encryptData: false, encodeData: true, publicKey: "", enableDataProtection: true, createdAt: T0, updatedAt: T0 }
      yield* configs.upsert(config)
      yield* configs.upsert({ ...config, isEnabled: false, updatedAt: T0 + 1 })
      expect(yield* configs.find(apiKey)).toEqual({ ...config, isEnabled: false, updatedAt: T0 + 1 })

      const row = endpoint(apiKey, "e", T0, { filterTypes: ["comment.added"], channels: [], rateLimit: 2_147_483_647, uid: "uid", metadata: { a: "b" }, disabled: true, description: "d" })
      expect(yield* endpoints.insert(row, "whsec_1")).toBe(true)
      expect(yield* endpoints.insert({ ...row, id: "e2" }, "whsec_2")).toBe(false)
      expect(yield* endpoints.insert(endpoint(apiKey, "e3", T0), "whsec_3")).toBe(true)
      expect(yield* endpoints.insert(endpoint(apiKey, "e4", T0), "whsec_4")).toBe(true)
      expect(yield* endpoints.find(apiKey, "e")).toEqual(row)
      expect(yield* endpoints.find(apiKey, "e2")).toBeUndefined()
      const updated = { ...row, url: "https://new.example.com", description: null, filterTypes: null, channels: ["c"], disabled: false, rateLimit: null, metadata: {}, updatedAt: T0 + 1 }
      yield* endpoints.update({ ...updated, uid: "ignored", createdAt: 0 })
      expect(yield* endpoints.find(apiKey, "e")).toEqual(updated)
      expect(yield* endpoints.findSecret(apiKey, "e")).toBe("whsec_1")
      expect(yield* endpoints.delete(apiKey, "e")).toBe(true)
      expect(yield* endpoints.findSecret(apiKey, "e")).toBeUndefined()
      expect(yield* endpoints.delete(apiKey, "e")).toBe(false)
    }))
}
