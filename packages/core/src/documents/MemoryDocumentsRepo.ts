import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MemoryDb } from "../testing/memory/MemoryDb.js"
import { compareText } from "../TextOrder.js"
import { type DocumentRow, DocumentsRepo, summaryOf } from "./DocumentsRepo.js"

export const MemoryDocumentsRepo = Layer.effect(
  DocumentsRepo,
  Effect.gen(function*() {
    const table = (yield* MemoryDb).table<DocumentRow>("documents")
    const key = (apiKey: string, organizationId: string, id: string) => `${apiKey}\n${organizationId}\n${id}`
    return {
      insert: (d) => Effect.sync(() => table.set(key(d.apiKey, d.organizationId, d.id), d)),
      update: (d) =>
        Effect.sync(() => {
          if (table.get(key(d.apiKey, d.organizationId, d.id)) !== undefined) table.set(key(d.apiKey, d.organizationId, d.id), d)
        }),
      find: (apiKey, organizationId, id) => Effect.sync(() => table.get(key(apiKey, organizationId, id))),
      list: (apiKey, organizationId, { after, folderId, ids, limit }) =>
        Effect.sync(() =>
          table.values()
            .filter((d) =>
              d.apiKey === apiKey && d.organizationId === organizationId && (ids === undefined || ids.includes(d.id)) &&
              (folderId === undefined || d.folderId === folderId) && (after === undefined || compareText(d.id, after) > 0)
            )
            .sort((a, b) => compareText(a.id, b.id))
            .slice(0, limit)
            .map(summaryOf)
        ),
      delete: (apiKey, organizationId, id) => Effect.sync(() => table.delete(key(apiKey, organizationId, id)))
    }
  })
)
