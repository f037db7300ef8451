/**
 * The access facts a server keeps between checks (AccessFactsCache.ts, migration 0014): kept
 * while the key's access version stays, read again once any write to what they come from moved
 * it — a write through this server, through another server on the same database, or a statement
 * no server made — and never kept from a transaction that rolled back. Two servers on one SQLite
 * file and on one PostgreSQL database.
 */
import { PgStorage } from "@atrium/sql-pg"
import { testDatabase } from "@atrium/sql-pg/testing"
import { SqliteStorage } from "@atrium/sql-sqlite"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runSql } from "../sql/runSql.js"
import { makeAccessFactsCache } from "../../src/access/AccessFactsCache.js"
import { AccessRepo } from "../../src/access/AccessRepo.js"
import { DocumentAccess } from "../../src/access/DocumentAccess.js"
import { type AtriumHandler, createAtrium } from "../../src/Atrium.js"
import { Transactions } from "../../src/ports/Transactions.js"
import type { StorageServices } from "../../src/Storage.js"
import { createTestWorkspace, directClient, type TestCredentials, testAtrium } from "../../src/testing/index.js"
import { membership } from "../../src/testing/storage/fixtures.js"
import { UsersRepo } from "../../src/users/UsersRepo.js"

interface Shared {
  readonly storage: () => Layer.Layer<StorageServices, unknown>
  readonly drop: () => Promise<void>
}

const databases: ReadonlyArray<{ readonly name: string; readonly open: () => Promise<Shared> }> = [
  {
    name: "sqlite file",
    open: async () => {
      const dir = mkdtempSync(join(tmpdir(), "atrium-facts-"))
      const filename = join(dir, "atrium.db")
      return { storage: () => SqliteStorage.layer({ filename }), drop: async () => rmSync(dir, { recursive: true, force: true }) }
    }
  },
  {
    name: "postgres",
    open: async () => {
      const db = await testDatabase()
      return { storage: () => PgStorage.layer({ url: db.url }), drop: db.drop }
    }
  }
]

for (const database of databases) {
  describe(`access facts kept between checks [${database.name}]`, () => {
    let shared: Shared
    let one: AtriumHandler
    let two: AtriumHandler
    let creds: TestCredentials
    beforeAll(async () => {
      shared = await database.open()
      one = testAtrium(shared.storage())
      await one.ready()
      // The second server: its own process state, the same database (random ids: the first's are sequential).
      two = createAtrium({ storage: shared.storage(), options: { allowPrivateNetworks: true } })
      await two.ready()
      creds = await createTestWorkspace(directClient(one))
    })
    afterAll(async () => {
      await one.dispose()
      await two.dispose()
      await shared.drop()
    })

    const post = async (atrium: AtriumHandler, path: string, data: unknown) => {
      const answer = await directClient(atrium).post(path, data, creds.headers)
      if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
    }
    const role = (atrium: AtriumHandler, userId: string, documentId: string) =>
      atrium.runtime.runPromise(Effect.map(
        DocumentAccess.check({ apiKey: creds.apiKey, organizationId: "org", documentId, userId }),
        (decision) => decision.accessRole
      ))
    const sql = runSql
    const version = (atrium: AtriumHandler) => atrium.runtime.runPromise(Effect.flatMap(AccessRepo, (repo) => repo.version(creds.apiKey)))

    it("a grant removed through another server counts at this server's next check", async () => {
      await post(one, "/v2/organizations/folders/add", { organizationId: "org", createOrganization: true, folders: [{ folderId: "closed", accessType: "restricted" }] })
      await post(one, "/v1/organizations/documents/add", { organizationId: "org", folderId: "closed", documents: [{ documentId: "doc" }] })
      await post(one, "/v2/auth/permissions/add", { user: { userId: "ann" }, permissions: { resources: [{ type: "document", id: "doc", organizationId: "org", accessRole: "editor" }] } })
      expect(await role(one, "ann", "doc")).toBe("editor")
      expect(await role(one, "ann", "doc")).toBe("editor") // now kept
      await post(two, "/v2/auth/permissions/remove", { userId: "ann", permissions: { resources: [{ type: "document", id: "doc", organizationId: "org" }] } })
      expect(await role(one, "ann", "doc")).toBeNull()
    })

    it("kept facts are served while the version stays, and a statement no server made moves it", async () => {
      expect(await role(one, "bob", "doc")).toBeNull()
      const before = await version(one)
      // Bob's grant written behind the servers' backs, and the version put back: the kept answer stands.
      await sql(one, (sql) => sql`INSERT INTO user_memberships (api_key, organization_id, level, scope_id, user_id, access_role, created_at, updated_at) VALUES (${creds.apiKey}, 'org', 'document', 'doc', 'bob', 'viewer', 0, 0)`)
      await sql(one, (sql) => sql`UPDATE access_versions SET version = ${before} WHERE api_key = ${creds.apiKey}`)
      expect(await role(one, "bob", "doc")).toBeNull()
      // The same kind of statement, left to move the version: read again.
      await sql(one, (sql) => sql`UPDATE user_memberships SET access_role = 'editor' WHERE api_key = ${creds.apiKey} AND user_id = 'bob'`)
      expect(await version(one)).toBeGreaterThan(before)
      expect(await role(one, "bob", "doc")).toBe("editor")
      // The organization switched off by hand: seen at once.
      await sql(two, (sql) => sql`UPDATE organizations SET disabled = 1 WHERE api_key = ${creds.apiKey} AND id = 'org'`)
      expect(await role(one, "bob", "doc")).toBeNull()
      await sql(two, (sql) => sql`UPDATE organizations SET disabled = 0 WHERE api_key = ${creds.apiKey} AND id = 'org'`)
      expect(await role(one, "bob", "doc")).toBe("editor")
    })

    it("facts read inside a transaction that rolled back are not kept", async () => {
      expect(await role(one, "cat", "doc")).toBeNull()
      const inside = await one.runtime.runPromise(Effect.gen(function*() {
        const users = yield* UsersRepo
        const transactions = yield* Transactions
        let seen: string | null = null
        yield* transactions.withTransaction(Effect.gen(function*() {
          yield* users.putMembership(membership(creds.apiKey, "org", "cat", { level: "document", scopeId: "doc" }))
          seen = (yield* DocumentAccess.check({ apiKey: creds.apiKey, organizationId: "org", documentId: "doc", userId: "cat" })).accessRole
          return yield* Effect.fail("roll back")
        })).pipe(Effect.ignore)
        return seen
      }))
      expect(inside).toBe("editor")
      expect(await role(one, "cat", "doc")).toBeNull()
    })

    it("a document created after a check of it is judged as created", async () => {
      expect(await role(one, "dan", "later")).toBe("editor") // not added: the key's default, public
      await post(two, "/v1/organizations/documents/add", { organizationId: "org", folderId: "closed", documents: [{ documentId: "later" }] })
      expect(await role(one, "dan", "later")).toBeNull() // in a restricted folder now
    })

    it("comment writes do not move the version", async () => {
      const before = await version(one)
      await post(one, "/v2/commentannotations/add", {
        organizationId: "org",
        documentId: "doc",
        commentAnnotations: [{ commentData: [{ commentText: "hi", from: { userId: "ann" } }] }]
      })
      expect(await version(one)).toBe(before)
    })
  })
}

describe("makeAccessFactsCache", () => {
  it("keeps at most its capacity, dropping the least recently used, and only what keepIf allows", async () => {
    const cache = makeAccessFactsCache(2)
    let loads = 0
    const load = (value: string) => Effect.sync(() => (loads++, value))
    const get = (key: string, version = 1) => Effect.runPromise(cache.get(version, key, load(key), (value) => value !== "never"))
    await get("a")
    await get("b")
    await get("a") // a is used last now
    await get("c") // b goes
    expect(loads).toBe(3)
    await get("a")
    expect(loads).toBe(3)
    await get("b")
    expect(loads).toBe(4)
    await get("a", 2) // another version: read again
    expect(loads).toBe(5)
    await get("never")
    await get("never")
    expect(loads).toBe(7)
    expect(cache.size).toBe(2)
  })
})
