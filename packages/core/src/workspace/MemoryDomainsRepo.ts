import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MemoryDb } from "../testing/memory/MemoryDb.js"
import { compareText } from "../TextOrder.js"
import { DomainsRepo } from "./DomainsRepo.js"

interface DomainRow {
  readonly apiKey: string
  readonly domain: string
  readonly createdAt: number
}

export const MemoryDomainsRepo = Layer.effect(
  DomainsRepo,
  Effect.gen(function*() {
    const table = (yield* MemoryDb).table<DomainRow>("allowed_domains")
    const key = (apiKey: string, domain: string) => `${apiKey}\n${domain}`
    return {
      list: (apiKey) =>
        Effect.sync(() =>
          table.values()
            .filter((row) => row.apiKey === apiKey)
            .sort((a, b) => a.createdAt - b.createdAt || compareText(a.domain, b.domain))
            .map((row) => row.domain)
        ),
      add: (apiKey, domains, now) =>
        Effect.sync(() =>
          domains.filter((domain) => {
            if (table.get(key(apiKey, domain)) !== undefined) return false
            table.set(key(apiKey, domain), { apiKey, domain, createdAt: now })
            return true
          })
        ),
      remove: (apiKey, domains) => Effect.sync(() => domains.filter((domain) => table.delete(key(apiKey, domain))))
    }
  })
)
