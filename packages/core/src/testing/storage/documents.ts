/** documents/: DocumentsRepo. */
import * as Effect from "effect/Effect"
import { DocumentsRepo } from "../../documents/DocumentsRepo.js"
import { allPages, ascending, document, MIXED_IDS, type StorageCases, T0, unique } from "./fixtures.js"

export const cases: StorageCases = (it, expect) => {
  it.effect("DocumentsRepo.list pages in id order, within a folder and among given ids", () =>
    Effect.gen(function*() {
      const documents = yield* DocumentsRepo
      const apiKey = unique("key")
      for (const [i, id] of MIXED_IDS.entries()) {
        // One document off the defaults: a listing must read these columns, not assume them.
        const differs = id === "é" ? { disabled: true, accessType: "restricted" as const } : {}
        yield* documents.insert(document(apiKey, "org", id, { folderId: i % 2 === 0 ? "even" : null, ...differs }))
      }
      const rows = yield* allPages(
        (after?: string) => documents.list(apiKey, "org", { limit: 5, ...(after !== undefined && { after }) }),
        (d) => d.id,
        5
      )
      expect(rows.map((d) => d.id)).toEqual(ascending(MIXED_IDS))
      const even = yield* allPages(
        (after?: string) => documents.list(apiKey, "org", { folderId: "even", limit: 3, ...(after !== undefined && { after }) }),
        (d) => d.id,
        3
      )
      expect(even.map((d) => d.id)).toEqual(ascending(MIXED_IDS.filter((_, i) => i % 2 === 0)))
      const given = yield* documents.list(apiKey, "org", { ids: ["é", "a", "nope"], after: "a", limit: 10 })
      expect(given).toEqual([{ id: "é", name: "doc é", accessType: "restricted", disabled: true }])
      expect(yield* documents.list(apiKey, "org", { ids: [], limit: 10 })).toEqual([])
    }))

  it.effect("DocumentsRepo: rows come back exactly as written", () =>
    Effect.gen(function*() {
      const documents = yield* DocumentsRepo
      const apiKey = unique("key")
      const doc = document(apiKey, "org", "doc", { accessType: "restricted", disabled: true, metadata: { deep: { a: [1] } } })
      yield* documents.insert(doc)
      expect(yield* documents.find(apiKey, "org", "doc")).toEqual(doc)
      const updated = { ...doc, name: "renamed", folderId: "f", disabled: false, metadata: {}, updatedAt: T0 + 1 }
      yield* documents.update(updated)
      expect(yield* documents.find(apiKey, "org", "doc")).toEqual(updated)
    }))

  it.effect("DocumentsRepo.setAccessType and setDisabled change one document of the key and organization, and say whether it exists", () =>
    Effect.gen(function*() {
      const documents = yield* DocumentsRepo
      const apiKey = unique("key")
      const doc = document(apiKey, "org", "doc")
      yield* documents.insert(doc)
      yield* documents.insert(document(apiKey, "other", "doc"))
      expect(yield* documents.setAccessType(apiKey, "org", "doc", "restricted", T0 + 1)).toBe(true)
      expect(yield* documents.setDisabled(apiKey, "org", "doc", true, T0 + 2)).toBe(true)
      expect(yield* documents.find(apiKey, "org", "doc")).toEqual({ ...doc, accessType: "restricted", disabled: true, updatedAt: T0 + 2 })
      expect(yield* documents.find(apiKey, "other", "doc")).toEqual(document(apiKey, "other", "doc"))
      expect(yield* documents.setAccessType(apiKey, "org", "gone", "restricted", T0)).toBe(false)
      expect(yield* documents.setDisabled(unique("key"), "org", "doc", true, T0)).toBe(false)
    }))
}
