/** organizations/: OrganizationsRepo. */
import * as Effect from "effect/Effect"
import { OrganizationsRepo } from "../../organizations/OrganizationsRepo.js"
import { allPages, ascending, MIXED_IDS, organization, type StorageCases, T0, unique } from "./fixtures.js"

export const cases: StorageCases = (it, expect) => {
  it.effect("OrganizationsRepo.list pages in id order, the same on every storage", () =>
    Effect.gen(function*() {
      const organizations = yield* OrganizationsRepo
      const apiKey = unique("key")
      for (const id of [...MIXED_IDS].reverse()) yield* organizations.upsert(organization(apiKey, id))
      const rows = yield* allPages((after?: string) => organizations.list(apiKey, { limit: 4, ...(after !== undefined && { after }) }), (o) => o.id, 4)
      expect(rows.map((o) => o.id)).toEqual(ascending(MIXED_IDS))
      const some = yield* organizations.list(apiKey, { ids: ["z", "A", "missing", "😀"], limit: 10 })
      expect(some.map((o) => o.id)).toEqual(["A", "z", "😀"])
    }))

  it.effect("OrganizationsRepo.list: a keyset walk under concurrent inserts returns every row that was there once, in order", () =>
    Effect.gen(function*() {
      const organizations = yield* OrganizationsRepo
      const apiKey = unique("key")
      const present = Array.from({ length: 30 }, (_, i) => `m${String(i).padStart(2, "0")}`)
      yield* Effect.forEach(present, (id) => organizations.upsert(organization(apiKey, id)), { concurrency: "unbounded" })
      // Between pages, other writers add rows before and after the walk's position, all at once.
      const insertAround = (pageNumber: number) =>
        Effect.forEach(
          [`a${pageNumber}`, `m${pageNumber * 7 + 10}x`, `z${pageNumber}`],
          (id) => organizations.upsert(organization(apiKey, id)),
          { concurrency: "unbounded", discard: true }
        )
      const walked = yield* allPages((after?: string) => organizations.list(apiKey, { limit: 7, ...(after !== undefined && { after }) }), (o) => o.id, 7, insertAround)
      const walkedIds = walked.map((o) => o.id)
      expect(walkedIds).toEqual(ascending(walkedIds))
      expect(new Set(walkedIds).size).toBe(walkedIds.length)
      expect(walkedIds.filter((id) => present.includes(id))).toEqual(present)
      expect(walkedIds).not.toContain("a0")
      expect(walkedIds).toContain("z0")
    }))

  it.effect("OrganizationsRepo: upsert keeps the disabled flag and createdAt; ensure never overwrites", () =>
    Effect.gen(function*() {
      const organizations = yield* OrganizationsRepo
      const apiKey = unique("key")
      yield* organizations.upsert(organization(apiKey, "org"))
      expect(yield* organizations.find(apiKey, "org")).toEqual(organization(apiKey, "org"))
      expect(yield* organizations.setDisabled(apiKey, "org", true, T0 + 1)).toBe(true)
      expect(yield* organizations.setDisabled(apiKey, "missing", true, T0 + 1)).toBe(false)
      yield* organizations.upsert(organization(apiKey, "org", { name: "new", metadata: {}, createdAt: T0 + 5, updatedAt: T0 + 5 }))
      yield* organizations.ensure(apiKey, "org", T0 + 9)
      expect(yield* organizations.find(apiKey, "org")).toEqual(
        organization(apiKey, "org", { name: "new", metadata: {}, disabled: true, updatedAt: T0 + 5 })
      )
      expect(yield* organizations.isDisabled(apiKey, "org")).toBe(true)
      expect(yield* organizations.isDisabled(apiKey, "missing")).toBeUndefined()
      yield* organizations.ensure(apiKey, "implicit", T0)
      expect(yield* organizations.find(apiKey, "implicit")).toEqual(organization(apiKey, "implicit", { name: "", metadata: {} }))
      expect(yield* organizations.delete(apiKey, "org")).toBe(true)
      expect(yield* organizations.delete(apiKey, "org")).toBe(false)
    }))
}
