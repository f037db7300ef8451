import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MemoryDb } from "../testing/memory/MemoryDb.js"
import { compareText } from "../TextOrder.js"
import { type SigningKeyRow, SigningKeysRepo } from "./SigningKeysRepo.js"

export const MemorySigningKeysRepo = Layer.effect(
  SigningKeysRepo,
  Effect.gen(function*() {
    const table = (yield* MemoryDb).table<SigningKeyRow>("signing_keys")
    const active = () => table.values().find((k) => k.active)
    return {
      insertIfNoneActive: (row) =>
        Effect.sync(() => {
          if (active() === undefined && table.get(row.kid) === undefined) table.set(row.kid, row)
        }),
      active: Effect.sync(active),
      list: Effect.sync(() => table.values().sort((a, b) => a.createdAt - b.createdAt || compareText(a.kid, b.kid)))
    }
  })
)
