import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as TestClock from "effect/TestClock"
import { atriumLayer } from "../../src/Atrium.js"
import { defaultOptions } from "../../src/Config.js"
import { OrganizationsRepo } from "../../src/organizations/OrganizationsRepo.js"
import { Access } from "../../src/protocol/Access.js"
import { MemoryStorage } from "../../src/testing/index.js"
import { Workspaces } from "../../src/workspace/Workspaces.js"

// Built inside each test, so Access reads the test's clock.
const layer = atriumLayer({ storage: MemoryStorage })
const TTL = defaultOptions.cacheTtlMillis

/** A workspace with its one API key: `{ workspaceId, apiKey, authToken }`. */
const workspace = Effect.map(Workspaces.create({ ownerEmail: "owner@example.com" }, undefined), (data) => {
  const [key] = Object.values(data.apiKeyList)
  if (key === undefined || !("authToken" in key)) throw new Error("workspace/create answers the new key's token")
  return { workspaceId: data.id, apiKey: key.id, authToken: key.authToken }
})

describe("Access: what a server remembers of credentials and organizations", () => {
  it.effect("knows a verified API key for cacheTtlMillis, then verifies it again", () =>
    Effect.gen(function*() {
      const access = yield* Access
      const { apiKey, authToken, workspaceId } = yield* workspace
      expect(access.knownApiKeyCaller(apiKey, authToken, "ip")).toBeUndefined()
      expect(yield* access.apiKeyCaller(apiKey, authToken, "ip")).toEqual({ mode: "apiKey", apiKey, workspaceId, ip: "ip" })
      expect(access.knownApiKeyCaller(apiKey, authToken, "ip2")).toEqual({ mode: "apiKey", apiKey, workspaceId, ip: "ip2" })
      yield* TestClock.adjust(TTL - 1)
      expect(access.knownApiKeyCaller(apiKey, authToken, "ip")).toBeDefined()
      yield* TestClock.adjust(1)
      expect(access.knownApiKeyCaller(apiKey, authToken, "ip")).toBeUndefined()
      // Forgetting a key (a token reset) takes effect at once.
      yield* access.apiKeyCaller(apiKey, authToken, "ip")
      access.forgetApiKey(apiKey)
      expect(access.knownApiKeyCaller(apiKey, authToken, "ip")).toBeUndefined()
    }).pipe(Effect.provide(layer)))

  it.effect("never knows a wrong or missing token", () =>
    Effect.gen(function*() {
      const access = yield* Access
      const { apiKey, authToken } = yield* workspace
      yield* access.apiKeyCaller(apiKey, authToken, "ip")
      for (const [key, token] of [[apiKey, "wrong"], [apiKey, undefined], [undefined, authToken], ["", authToken]] as const) {
        expect(access.knownApiKeyCaller(key, token, "ip")).toBeUndefined()
        const denied = yield* Effect.either(access.apiKeyCaller(key, token, "ip"))
        expect(Either.isLeft(denied) && denied.left.message).toBe("Invalid API key.")
      }
    }).pipe(Effect.provide(layer)))

  it.effect("sees an organization disabled by another server within cacheTtlMillis", () =>
    Effect.gen(function*() {
      const access = yield* Access
      const organizations = yield* OrganizationsRepo
      const { apiKey } = yield* workspace
      yield* organizations.ensure(apiKey, "org", 0)
      expect(access.knownEnabled(apiKey, "org")).toBe(false) // not checked yet
      yield* access.ensureOrganizationEnabled(apiKey, "org")
      expect(access.knownEnabled(apiKey, "org")).toBe(true)
      // Another server disables it: storage changes, this server's memory does not.
      yield* organizations.setDisabled(apiKey, "org", true, 0)
      expect(access.knownEnabled(apiKey, "org")).toBe(true)
      yield* TestClock.adjust(TTL)
      expect(access.knownEnabled(apiKey, "org")).toBe(false)
      const refused = yield* Effect.either(access.ensureOrganizationEnabled(apiKey, "org"))
      expect(Either.isLeft(refused) && refused.left.message).toBe("Organization org is disabled.")
      expect(access.knownEnabled(apiKey, "org")).toBe(false)
      // This server's own change is seen at once.
      yield* organizations.setDisabled(apiKey, "org", false, 0)
      access.forgetOrganization(apiKey, "org")
      yield* access.ensureOrganizationEnabled(apiKey, "org")
      expect(access.knownEnabled(apiKey, "org")).toBe(true)
    }).pipe(Effect.provide(layer)))
})
