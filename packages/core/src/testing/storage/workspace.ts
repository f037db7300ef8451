/** workspace/: WorkspaceRepo, SettingsRepo, DomainsRepo, LoginLinksRepo. */
import * as Effect from "effect/Effect"
import { DomainsRepo } from "../../workspace/DomainsRepo.js"
import { LoginLinksRepo } from "../../workspace/LoginLinksRepo.js"
import { SettingsRepo } from "../../workspace/SettingsRepo.js"
import { WorkspaceRepo } from "../../workspace/WorkspaceRepo.js"
import { allPages, ascending, type StorageCases, T0, unique } from "./fixtures.js"

export const cases: StorageCases = (it, expect) => {
  it.effect("WorkspaceRepo: workspaces, API keys in key order, auth tokens, credentials", () =>
    Effect.gen(function*() {
      const workspaces = yield* WorkspaceRepo
      const workspaceId = unique("ws")
      const email = `${unique("owner")}@example.com`
      const workspace = { id: workspaceId, name: "W", ownerId: "owner", ownerEmail: email, ownerName: "O", ownerAvatar: null, authTokenHash: "h", createdAt: T0 }
      yield* workspaces.insertWorkspace(workspace)
      expect(yield* workspaces.findWorkspace(workspaceId)).toEqual(workspace)
      expect(yield* workspaces.findWorkspace(unique("nope"))).toBeUndefined()
      expect(yield* workspaces.countWorkspacesOwnedBy(email)).toBe(1)
      // One owner, however the letters of the email are cased.
      expect(yield* workspaces.countWorkspacesOwnedBy(email.toUpperCase())).toBe(1)
      const apiKeys = [unique("k-b"), unique("k-a"), unique("k-c")]
      for (const apiKey of apiKeys) {
        yield* workspaces.insertApiKey({ apiKey, workspaceId, name: apiKey, type: "testing", createdAt: T0 })
      }
      const listed = yield* allPages(
        (after?: string) => workspaces.listApiKeys(workspaceId, { limit: 2, ...(after !== undefined && { after }) }),
        (k) => k.apiKey,
        2
      )
      expect(listed.map((k) => k.apiKey)).toEqual(ascending(apiKeys))
      expect(yield* workspaces.renameApiKey(workspaceId, apiKeys[0]!, "renamed")).toBe(true)
      expect(yield* workspaces.renameApiKey(unique("other-ws"), apiKeys[0]!, "x")).toBe(false)
      expect((yield* workspaces.findApiKey(apiKeys[0]!))?.name).toBe("renamed")
      expect(yield* workspaces.credentials(apiKeys[1]!)).toEqual({ workspaceId, tokenHashes: [] })
      const token = { apiKey: apiKeys[1]!, id: "t2", name: "n", tokenHash: "hash-2", hint: "…2", domains: ["a.com"], createdAt: T0 + 1 }
      yield* workspaces.insertAuthToken(token)
      yield* workspaces.insertAuthToken({ ...token, id: "t1", tokenHash: "hash-1", createdAt: T0 })
      expect((yield* workspaces.listAuthTokens(apiKeys[1]!)).map((t) => t.id)).toEqual(["t1", "t2"])
      expect((yield* workspaces.listAuthTokens(apiKeys[1]!))[1]).toEqual(token)
      expect([...(yield* workspaces.credentials(apiKeys[1]!))!.tokenHashes].sort()).toEqual(["hash-1", "hash-2"])
      yield* workspaces.deleteAuthTokens(apiKeys[1]!)
      expect(yield* workspaces.listAuthTokens(apiKeys[1]!)).toEqual([])
      expect(yield* workspaces.credentials(unique("nope"))).toBeUndefined()
    }))

  it.effect("SettingsRepo and DomainsRepo keep JSON values and the domains' order", () =>
    Effect.gen(function*() {
      const settings = yield* SettingsRepo
      const domains = yield* DomainsRepo
      const apiKey = unique("key")
      expect(yield* settings.get(apiKey, "permissionProvider")).toBeUndefined()
      const value = { url: "https://x.test", retries: 3, on: true, nested: { list: [1, "two", null], empty: {} } }
      yield* settings.put(apiKey, "permissionProvider", value)
      expect(yield* settings.get(apiKey, "permissionProvider")).toEqual(value)
      yield* settings.put(apiKey, "permissionProvider", { replaced: "ü😀" })
      expect(yield* settings.get(apiKey, "permissionProvider")).toEqual({ replaced: "ü😀" })
      expect(yield* domains.add(apiKey, ["b.com", "a.com"], T0)).toEqual(["b.com", "a.com"])
      expect(yield* domains.add(apiKey, ["c.com", "a.com"], T0 + 1)).toEqual(["c.com"])
      expect(yield* domains.list(apiKey)).toEqual(["a.com", "b.com", "c.com"])
      expect(yield* domains.remove(apiKey, ["z.com", "b.com"])).toEqual(["b.com"])
      expect(yield* domains.list(apiKey)).toEqual(["a.com", "c.com"])
      expect(yield* domains.add(apiKey, [], T0)).toEqual([])
      expect(yield* domains.remove(apiKey, [])).toEqual([])
      // Whether a key's list (or any key's) holds one of the entries that admit an origin.
      const other = unique("key")
      const only = unique("only") + ".com"
      yield* domains.add(other, [only], T0)
      expect(yield* domains.includesAny(apiKey, ["z.com", "c.com"])).toBe(true)
      expect(yield* domains.includesAny(apiKey, [only])).toBe(false)
      expect(yield* domains.includesAny(undefined, ["z.com", only])).toBe(true)
      expect(yield* domains.includesAny(undefined, [unique("nowhere") + ".com"])).toBe(false)
      expect(yield* domains.includesAny(apiKey, [])).toBe(false)
    }))

  it.effect("LoginLinksRepo drops expired links (their token hash can be stored again)", () =>
    Effect.gen(function*() {
      const links = yield* LoginLinksRepo
      const tokenHash = unique("hash")
      yield* links.insert({ tokenHash, email: "a@example.com", createdAt: T0, expiresAt: T0 + 10 })
      yield* links.deleteExpired(T0 + 10)
      yield* links.insert({ tokenHash, email: "a@example.com", createdAt: T0 + 20, expiresAt: T0 + 30 })
    }))
}
