import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MemoryDb } from "../testing/memory/MemoryDb.js"
import { SettingsRepo } from "./SettingsRepo.js"

export const MemorySettingsRepo = Layer.effect(
  SettingsRepo,
  Effect.gen(function*() {
    // Stored as JSON text, as SQL does: a caller can never mutate a stored document through a kept reference.
    const table = (yield* MemoryDb).table<string>("workspace_settings")
    const key = (apiKey: string, name: string) => `${apiKey}\n${name}`
    return {
      get: (apiKey, name) =>
        Effect.sync(() => {
          const value = table.get(key(apiKey, name))
          return value === undefined ? undefined : JSON.parse(value) as unknown
        }),
      put: (apiKey, name, value) => Effect.sync(() => table.set(key(apiKey, name), JSON.stringify(value)))
    }
  })
)
