import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MemoryDb } from "../testing/memory/MemoryDb.js"
import { compareText } from "../TextOrder.js"
import { type OrganizationRow, OrganizationsRepo } from "./OrganizationsRepo.js"

export const MemoryOrganizationsRepo = Layer.effect(
  OrganizationsRepo,
  Effect.gen(function*() {
    const table = (yield* MemoryDb).table<OrganizationRow>("organizations")
    const key = (apiKey: string, id: string) => `${apiKey}\n${id}`
    return {
      upsert: (o) =>
        Effect.sync(() => {
          const existing = table.get(key(o.apiKey, o.id))
          table.set(
            key(o.apiKey, o.id),
            existing === undefined ? o : { ...existing, name: o.name, metadata: o.metadata, updatedAt: o.updatedAt }
          )
        }),
      ensure: (apiKey, id, now) =>
        Effect.sync(() => {
          if (table.get(key(apiKey, id)) === undefined) {
            table.set(key(apiKey, id), { apiKey, id, name: "", disabled: false, metadata: {}, createdAt: now, updatedAt: now })
          }
        }),
      find: (apiKey, id) => Effect.sync(() => table.get(key(apiKey, id))),
      isDisabled: (apiKey, id) => Effect.sync(() => table.get(key(apiKey, id))?.disabled),
      setDisabled: (apiKey, id, disabled, now) =>
        Effect.sync(() => {
          const existing = table.get(key(apiKey, id))
          if (existing === undefined) return false
          table.set(key(apiKey, id), { ...existing, disabled, updatedAt: now })
          return true
        }),
      list: (apiKey, { after, ids, limit }) =>
        Effect.sync(() =>
          table.values()
            .filter((o) => o.apiKey === apiKey && (ids === undefined || ids.includes(o.id)) && (after === undefined || compareText(o.id, after) > 0))
            .sort((a, b) => compareText(a.id, b.id))
            .slice(0, limit)
        ),
      delete: (apiKey, id) => Effect.sync(() => table.delete(key(apiKey, id)))
    }
  })
)
