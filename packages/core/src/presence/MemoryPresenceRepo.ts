import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MemoryDb } from "../testing/memory/MemoryDb.js"
import { compareText } from "../TextOrder.js"
import { PresenceRepo, type PresenceRow } from "./PresenceRepo.js"

export const MemoryPresenceRepo = Layer.effect(
  PresenceRepo,
  Effect.gen(function*() {
    const table = (yield* MemoryDb).table<PresenceRow>("presence")
    const key = (apiKey: string, organizationId: string, documentId: string, userId: string) =>
      `${apiKey}\n${organizationId}\n${documentId}\n${userId}`
    return {
      find: (apiKey, organizationId, documentId, userId) => Effect.sync(() => table.get(key(apiKey, organizationId, documentId, userId))),
      put: (p) => Effect.sync(() => table.set(key(p.apiKey, p.organizationId, p.documentId, p.userId), p)),
      delete: (apiKey, organizationId, documentId, userIds) =>
        Effect.sync(() => {
          for (const userId of userIds) table.delete(key(apiKey, organizationId, documentId, userId))
        }),
      list: (apiKey, organizationId, documentId) =>
        Effect.sync(() =>
          table.values()
            .filter((p) => p.apiKey === apiKey && p.organizationId === organizationId && p.documentId === documentId)
            .sort((a, b) => compareText(a.userId, b.userId))
        )
    }
  })
)
