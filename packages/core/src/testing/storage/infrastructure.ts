/** The storage's own ports: transactions (all or nothing, savepoints, concurrency), server secrets, rate limits, health. */
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { DocumentsRepo } from "../../documents/DocumentsRepo.js"
import { OrganizationsRepo } from "../../organizations/OrganizationsRepo.js"
import { ServerSecretsRepo } from "../../ports/ServerSecretsRepo.js"
import { StorageHealth } from "../../ports/StorageHealth.js"
import { Transactions } from "../../ports/Transactions.js"
import { RateLimitsRepo } from "../../protocol/RateLimitsRepo.js"
import { document, organization, type StorageCases, T0, unique } from "./fixtures.js"

export const cases: StorageCases = (it, expect) => {
  it.effect("a failing transaction leaves nothing written", () =>
    Effect.gen(function*() {
      const { withTransaction } = yield* Transactions
      const organizations = yield* OrganizationsRepo
      const documents = yield* DocumentsRepo
      const apiKey = unique("key")
      const failed = yield* withTransaction(Effect.gen(function*() {
        yield* organizations.upsert(organization(apiKey, "org"))
        yield* documents.insert(document(apiKey, "org", "doc"))
        return yield* Effect.fail("stop")
      })).pipe(Effect.flip)
      expect(failed).toBe("stop")
      expect(yield* organizations.find(apiKey, "org")).toBeUndefined()
      expect(yield* documents.find(apiKey, "org", "doc")).toBeUndefined()
    }))

  it.effect("a defect inside a transaction rolls it back too", () =>
    Effect.gen(function*() {
      const { withTransaction } = yield* Transactions
      const organizations = yield* OrganizationsRepo
      const apiKey = unique("key")
      const exit = yield* withTransaction(organizations.upsert(organization(apiKey, "org")).pipe(Effect.zipRight(Effect.die("boom"))))
        .pipe(Effect.exit)
      expect(Exit.isFailure(exit)).toBe(true)
      expect(yield* organizations.find(apiKey, "org")).toBeUndefined()
    }))

  it.effect("a nested transaction that fails rolls back alone; the outer one commits the rest", () =>
    Effect.gen(function*() {
      const { withTransaction } = yield* Transactions
      const organizations = yield* OrganizationsRepo
      const apiKey = unique("key")
      yield* withTransaction(Effect.gen(function*() {
        yield* organizations.upsert(organization(apiKey, "before"))
        const inner = yield* withTransaction(
          organizations.upsert(organization(apiKey, "inner")).pipe(Effect.zipRight(Effect.fail("item failed")))
        ).pipe(Effect.flip)
        expect(inner).toBe("item failed")
        // Inside the outer transaction its own writes are visible, the failed item's are not.
        expect(yield* organizations.find(apiKey, "before")).toBeDefined()
        expect(yield* organizations.find(apiKey, "inner")).toBeUndefined()
        yield* organizations.upsert(organization(apiKey, "after"))
      }))
      const listed = yield* organizations.list(apiKey, { limit: 10 })
      expect(listed.map((o) => o.id)).toEqual(["after", "before"])
    }))

  it.effect("an outer failure undoes a nested transaction that had succeeded", () =>
    Effect.gen(function*() {
      const { withTransaction } = yield* Transactions
      const organizations = yield* OrganizationsRepo
      const apiKey = unique("key")
      yield* withTransaction(Effect.gen(function*() {
        yield* organizations.upsert(organization(apiKey, "outer"))
        yield* withTransaction(organizations.upsert(organization(apiKey, "inner")))
        return yield* Effect.fail("stop")
      })).pipe(Effect.ignore)
      expect(yield* organizations.list(apiKey, { limit: 10 })).toEqual([])
    }))

  it.effect("a batch keeps each item atomic: failed items leave nothing, the others commit", () =>
    Effect.gen(function*() {
      const { withTransaction } = yield* Transactions
      const organizations = yield* OrganizationsRepo
      const documents = yield* DocumentsRepo
      const apiKey = unique("key")
      const results = yield* Effect.forEach(["d1", "d2", "d3", "d4"], (id, i) =>
        withTransaction(Effect.gen(function*() {
          yield* organizations.ensure(apiKey, `org-${id}`, T0)
          yield* documents.insert(document(apiKey, `org-${id}`, id))
          if (i % 2 === 1) return yield* Effect.fail(`item ${id}`)
        })).pipe(Effect.either))
      expect(results.map((r) => r._tag)).toEqual(["Right", "Left", "Right", "Left"])
      expect((yield* organizations.list(apiKey, { limit: 10 })).map((o) => o.id)).toEqual(["org-d1", "org-d3"])
      expect(yield* documents.find(apiKey, "org-d2", "d2")).toBeUndefined()
      expect(yield* documents.find(apiKey, "org-d3", "d3")).toBeDefined()
    }))

  it.effect("concurrent transactions each commit their own writes", () =>
    Effect.gen(function*() {
      const { withTransaction } = yield* Transactions
      const organizations = yield* OrganizationsRepo
      const apiKey = unique("key")
      const ids = Array.from({ length: 12 }, (_, i) => `org-${String(i).padStart(2, "0")}`)
      yield* Effect.forEach(ids, (id, i) =>
        withTransaction(organizations.upsert(organization(apiKey, id)).pipe(
          Effect.zipRight(i % 3 === 0 ? Effect.fail("no") : Effect.void)
        )).pipe(Effect.ignore), { concurrency: "unbounded" })
      const listed = yield* organizations.list(apiKey, { limit: 100 })
      expect(listed.map((o) => o.id)).toEqual(ids.filter((_, i) => i % 3 !== 0))
    }))

  it.effect("ServerSecretsRepo, RateLimitsRepo and StorageHealth", () =>
    Effect.gen(function*() {
      const secrets = yield* ServerSecretsRepo
      const limits = yield* RateLimitsRepo
      const health = yield* StorageHealth
      const name = unique("secret")
      const stored = yield* Effect.all([secrets.getOrCreate(name, "one"), secrets.getOrCreate(name, "two")], { concurrency: "unbounded" })
      expect(stored[0]).toBe(stored[1])
      expect(yield* secrets.getOrCreate(name, "three")).toBe(stored[0])
      const key = unique("ip")
      expect(yield* limits.hit(key, T0)).toBe(1)
      expect(yield* Effect.all([limits.hit(key, T0), limits.hit(key, T0)], { concurrency: "unbounded" })).toEqual(expect.arrayContaining([2, 3]))
      expect(yield* limits.hit(key, T0 + 60_000)).toBe(1)
      yield* health.ping
    }))
}
