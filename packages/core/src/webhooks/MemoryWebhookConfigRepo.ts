import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MemoryDb } from "../testing/memory/MemoryDb.js"
import { WebhookConfigRepo, type WebhookConfigRow } from "./WebhookConfigRepo.js"

export const MemoryWebhookConfigRepo = Layer.effect(
  WebhookConfigRepo,
  Effect.gen(function*() {
    const table = (yield* MemoryDb).table<WebhookConfigRow>("advanced_webhook_configs")
    return {
      find: (apiKey) => Effect.sync(() => table.get(apiKey)),
      upsert: (row) => Effect.sync(() => table.set(row.apiKey, row))
    }
  })
)
