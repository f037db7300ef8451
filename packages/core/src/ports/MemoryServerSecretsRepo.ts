import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MemoryDb } from "../testing/memory/MemoryDb.js"
import { ServerSecretsRepo } from "./ServerSecretsRepo.js"

export const MemoryServerSecretsRepo = Layer.effect(
  ServerSecretsRepo,
  Effect.gen(function*() {
    const table = (yield* MemoryDb).table<string>("server_secrets")
    return {
      getOrCreate: (name, candidate) =>
        Effect.sync(() => {
          if (table.get(name) === undefined) table.set(name, candidate)
          return table.get(name)!
        })
    }
  })
)
