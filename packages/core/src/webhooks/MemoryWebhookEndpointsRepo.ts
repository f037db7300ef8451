import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MemoryDb } from "../testing/memory/MemoryDb.js"
import { compareText } from "../TextOrder.js"
import { type EndpointPosition, type WebhookEndpointRow, WebhookEndpointsRepo } from "./WebhookEndpointsRepo.js"

interface StoredEndpoint {
  readonly row: WebhookEndpointRow
  readonly secret: string
}

/** Negative when `a` comes before `b` in list order. */
const compare = (a: EndpointPosition, b: EndpointPosition) => a.createdAt - b.createdAt || compareText(a.id, b.id)

export const MemoryWebhookEndpointsRepo = Layer.effect(
  WebhookEndpointsRepo,
  Effect.gen(function*() {
    const table = (yield* MemoryDb).table<StoredEndpoint>("webhook_endpoints")
    const key = (apiKey: string, id: string) => `${apiKey}\n${id}`
    const ofKey = (apiKey: string) => table.values().map((e) => e.row).filter((r) => r.apiKey === apiKey)
    return {
      insert: (row, secret) =>
        Effect.sync(() => {
          if (row.uid !== null && ofKey(row.apiKey).some((r) => r.uid === row.uid)) return false
          table.set(key(row.apiKey, row.id), { row, secret })
          return true
        }),
      find: (apiKey, id) => Effect.sync(() => table.get(key(apiKey, id))?.row),
      list: (apiKey, { after, before, limit }) =>
        Effect.sync(() => {
          const rows = ofKey(apiKey).sort(compare)
          return before !== undefined
            ? rows.filter((r) => compare(r, before) < 0).reverse().slice(0, limit)
            : rows.filter((r) => after === undefined || compare(r, after) > 0).slice(0, limit)
        }),
      update: (row) =>
        Effect.sync(() => {
          const stored = table.get(key(row.apiKey, row.id))
          if (stored !== undefined) table.set(key(row.apiKey, row.id), { row: { ...row, uid: stored.row.uid, createdAt: stored.row.createdAt }, secret: stored.secret })
        }),
      delete: (apiKey, id) => Effect.sync(() => table.delete(key(apiKey, id))),
      findSecret: (apiKey, id) => Effect.sync(() => table.get(key(apiKey, id))?.secret)
    }
  })
)
