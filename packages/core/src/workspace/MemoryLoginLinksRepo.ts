import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MemoryDb } from "../testing/memory/MemoryDb.js"
import { type LoginLinkRow, LoginLinksRepo } from "./LoginLinksRepo.js"

export const MemoryLoginLinksRepo = Layer.effect(
  LoginLinksRepo,
  Effect.gen(function*() {
    const table = (yield* MemoryDb).table<LoginLinkRow>("login_links")
    return {
      insert: (row) => Effect.sync(() => table.set(row.tokenHash, row)),
      deleteExpired: (now) =>
        Effect.sync(() => table.values().filter((row) => row.expiresAt <= now).forEach((row) => table.delete(row.tokenHash)))
    }
  })
)
