import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MemoryDb } from "../testing/memory/MemoryDb.js"
import { compareText } from "../TextOrder.js"
import { type FolderRow, FoldersRepo } from "./FoldersRepo.js"

export const MemoryFoldersRepo = Layer.effect(
  FoldersRepo,
  Effect.gen(function*() {
    const table = (yield* MemoryDb).table<FolderRow>("folders")
    const key = (apiKey: string, organizationId: string, id: string) => `${apiKey}\n${organizationId}\n${id}`
    const byId = (a: FolderRow, b: FolderRow) => compareText(a.id, b.id)
    return {
      insert: (f) => Effect.sync(() => table.set(key(f.apiKey, f.organizationId, f.id), f)),
      find: (apiKey, organizationId, id) => Effect.sync(() => table.get(key(apiKey, organizationId, id))),
      listByOrganization: (apiKey, organizationId) =>
        Effect.sync(() =>
          table.values().filter((f) => f.apiKey === apiKey && f.organizationId === organizationId).sort(byId)
        ),
      listChildren: (apiKey, organizationId, parentIds) =>
        Effect.sync(() => {
          const parents = new Set(parentIds)
          return table.values()
            .filter((f) => f.apiKey === apiKey && f.organizationId === organizationId && parents.has(f.parentFolderId))
            .sort(byId)
        })
    }
  })
)
