/**
 * The permission provider, called for real (issue 23, item 3): a receiver on loopback plays the
 * customer's URL. The request's shape, each kind of answer, failure (500, timeout, a bad answer,
 * the guard's refusal) as no access after the retries, the cache per (user, resource) and its
 * expiry under the TestClock, and a host's in-process resolver.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as TestClock from "effect/TestClock"
import { type Receiver, startReceiver } from "../../../../test-support/receiver.js"
import { PermissionProvider, PROVIDER_CACHE_MILLIS, type PermissionQuery, type PermissionResult } from "../../src/access/PermissionProvider.js"
import { guardedTransportWith } from "../../src/ports/NodeTransport.js"
import { MemoryStorage } from "../../src/testing/index.js"
import { PERMISSION_PROVIDER_SETTING } from "../../src/workspace/PermissionProviderConfig.js"
import { SettingsRepo } from "../../src/workspace/SettingsRepo.js"

const KEY = "key_provider"
const TOKEN = "provider-secret-token"

const query = (userId: string, id: string, type: PermissionQuery["resource"]["type"] = "document"): PermissionQuery => ({
  userId,
  resource: { id, type, source: "setDocuments", organizationId: "org", ...(type === "document" && { parentFolderId: "folder" }) }
})

/** The provider's answer body for `results`, as the facts show it. */
const answerWith = (results: ReadonlyArray<PermissionResult>) => ({
  status: 200,
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ data: results, success: true, statusCode: 200, message: "Permissions validated successfully" })
})

/** Answers each query it is asked: `decide(userId, resourceId)`. */
const answering = (decide: (userId: string, resourceId: string) => Partial<PermissionResult>) => (request: { body: string }) => {
  const { data } = JSON.parse(request.body) as { data: { requests: ReadonlyArray<PermissionQuery> } }
  return answerWith(data.requests.map((q) => ({
    userId: q.userId,
    resourceId: q.resource.id,
    type: q.resource.type,
    organizationId: q.resource.organizationId,
    hasAccess: false,
    ...decide(q.userId, q.resource.id)
  })))
}

let receiver: Receiver
beforeAll(async () => {
  receiver = await startReceiver()
})
afterAll(() => receiver.close())

/** The provider over MemoryStorage, with `url` configured for KEY. */
const withProvider = (options: { readonly allowPrivateNetworks?: boolean; readonly url?: string; readonly use?: boolean } = {}) => {
  const layer = PermissionProvider.layerWith({ timeoutMillis: 300 }).pipe(
    Layer.provideMerge(Layer.merge(MemoryStorage, guardedTransportWith({ allowPrivateNetworks: options.allowPrivateNetworks ?? true })))
  )
  return <A, E>(test: (provider: typeof PermissionProvider.Service) => Effect.Effect<A, E>) =>
    Effect.gen(function*() {
      const settings = yield* SettingsRepo
      yield* settings.put(KEY, PERMISSION_PROVIDER_SETTING, {
        usePermissionProvider: options.use ?? true,
        permissionProviderConfig: { permissionProviderUrl: options.url ?? receiver.url, authToken: TOKEN }
      })
      return yield* test(yield* PermissionProvider)
    }).pipe(Effect.provide(layer))
}

const asked = () => receiver.received.length

describe("the permission provider", () => {
  it.effect("sends the facts' request: a bearer token and {data: {requests}}, queries batched in one call", () =>
    withProvider()((provider) =>
      Effect.gen(function*() {
        receiver.received.length = 0
        receiver.answer = answering((userId) => ({ hasAccess: true, accessRole: userId === "ann" ? "viewer" : "editor" }))
        const answers = yield* provider.ask(KEY, [query("ann", "d1"), query("bob", "d1"), query("ann", "f1", "folder")])
        expect(answers).toEqual([
          { accessRole: "viewer", failed: false },
          { accessRole: "editor", failed: false },
          { accessRole: "viewer", failed: false }
        ])
        expect(asked()).toBe(1)
        const sent = receiver.received[0]!
        expect(sent.headers.authorization).toBe(`Bearer ${TOKEN}`)
        expect(sent.headers["content-type"]).toBe("application/json")
        expect(JSON.parse(sent.body)).toEqual({
          data: {
            requests: [
              { userId: "ann", resource: { id: "d1", type: "document", source: "setDocuments", organizationId: "org", parentFolderId: "folder" } },
              { userId: "bob", resource: { id: "d1", type: "document", source: "setDocuments", organizationId: "org", parentFolderId: "folder" } },
              { userId: "ann", resource: { id: "f1", type: "folder", source: "setDocuments", organizationId: "org" } }
            ]
          }
        })
        expect(yield* provider.enabled(KEY)).toBe(true)
      })
    ))

  it.effect("hasAccess without accessRole is editor; hasAccess false is no access", () =>
    withProvider()((provider) =>
      Effect.gen(function*() {
        receiver.answer = answering((userId) => ({ hasAccess: userId === "ann" }))
        expect(yield* provider.ask(KEY, [query("ann", "d2"), query("bob", "d2")])).toEqual([
          { accessRole: "editor", failed: false },
          { accessRole: null, failed: false }
        ])
      })
    ))

  it.effect("keeps an answer per (user, resource) for 5 minutes, then asks again", () =>
    withProvider()((provider) =>
      Effect.gen(function*() {
        receiver.received.length = 0
        receiver.answer = answering(() => ({ hasAccess: true, accessRole: "viewer" }))
        yield* provider.ask(KEY, [query("ann", "d3")])
        yield* TestClock.adjust(PROVIDER_CACHE_MILLIS - 1)
        // Kept: only the new query goes out.
        expect(yield* provider.ask(KEY, [query("ann", "d3"), query("bob", "d3")])).toEqual([
          { accessRole: "viewer", failed: false },
          { accessRole: "viewer", failed: false }
        ])
        expect(receiver.received.map((r) => JSON.parse(r.body).data.requests.map((q: PermissionQuery) => q.userId))).toEqual([["ann"], ["bob"]])
        receiver.answer = answering(() => ({ hasAccess: false }))
        yield* TestClock.adjust(1)
        expect(yield* provider.ask(KEY, [query("ann", "d3")])).toEqual([{ accessRole: null, failed: false }])
        expect(asked()).toBe(3)
      })
    ))

  it.effect("keeps an answer until its expiresAt, in seconds or milliseconds", () =>
    withProvider()((provider) =>
      Effect.gen(function*() {
        yield* TestClock.setTime(1_700_000_000_000)
        receiver.received.length = 0
        receiver.answer = answering((userId) => ({ hasAccess: true, expiresAt: userId === "ann" ? 1_700_000_060_000 : 1_700_000_030 }))
        yield* provider.ask(KEY, [query("ann", "d4"), query("bob", "d4")])
        yield* TestClock.adjust(29_999)
        yield* provider.ask(KEY, [query("ann", "d4"), query("bob", "d4")])
        expect(asked()).toBe(1)
        yield* TestClock.adjust(1) // bob's answer (seconds) expires at 30 s
        yield* provider.ask(KEY, [query("ann", "d4"), query("bob", "d4")])
        yield* TestClock.adjust(30_000) // ann's (ms) at 60 s
        yield* provider.ask(KEY, [query("ann", "d4")])
        expect(receiver.received.map((r) => JSON.parse(r.body).data.requests.map((q: PermissionQuery) => q.userId))).toEqual([["ann", "bob"], ["bob"], ["ann"]])
      })
    ))

  it.effect("a 500 is retried twice, then no access, and not kept", () =>
    withProvider()((provider) =>
      Effect.gen(function*() {
        receiver.received.length = 0
        receiver.answer = () => ({ status: 500, body: "down" })
        expect(yield* provider.ask(KEY, [query("ann", "d5")])).toEqual([{ accessRole: null, failed: true }])
        expect(asked()).toBe(3)
        receiver.answer = answering(() => ({ hasAccess: true }))
        expect(yield* provider.ask(KEY, [query("ann", "d5")])).toEqual([{ accessRole: "editor", failed: false }])
        expect(asked()).toBe(4)
      })
    ))

  it.effect("a provider that does not answer in time is no access", () =>
    withProvider()((provider) =>
      Effect.gen(function*() {
        receiver.received.length = 0
        receiver.answer = () => ({ status: 200, delayMillis: 1_000 })
        const t0 = Date.now()
        expect(yield* provider.ask(KEY, [query("ann", "d6")])).toEqual([{ accessRole: null, failed: true }])
        expect(asked()).toBe(3)
        expect(Date.now() - t0).toBeLessThan(2_000)
      })
    ))

  it.effect("an answer that is not the facts' shape, or leaves a query out, is no access for what it does not answer", () =>
    withProvider()((provider) =>
      Effect.gen(function*() {
        receiver.answer = () => ({ status: 200, body: "{\"data\": [{\"userId\": \"ann\"}]}" })
        expect(yield* provider.ask(KEY, [query("ann", "d7")])).toEqual([{ accessRole: null, failed: true }])
        receiver.answer = () => ({ status: 200, body: "not json" })
        expect(yield* provider.ask(KEY, [query("ann", "d7")])).toEqual([{ accessRole: null, failed: true }])
        receiver.answer = answering((userId) => ({ hasAccess: true, ...(userId === "bob" && { userId: "someone-else" }) }))
        expect(yield* provider.ask(KEY, [query("ann", "d7"), query("bob", "d7")])).toEqual([
          { accessRole: "editor", failed: false },
          { accessRole: null, failed: true }
        ])
      })
    ))

  it.effect("a loopback URL is refused by the guard unless private networks are allowed: no access, nothing sent", () =>
    withProvider({ allowPrivateNetworks: false })((provider) =>
      Effect.gen(function*() {
        receiver.received.length = 0
        receiver.answer = answering(() => ({ hasAccess: true }))
        expect(yield* provider.ask(KEY, [query("ann", "d8")])).toEqual([{ accessRole: null, failed: true }])
        expect(asked()).toBe(0)
      })
    ))

  it.effect("off, or on without a URL, the provider is not enabled", () =>
    Effect.gen(function*() {
      expect(yield* withProvider({ use: false })((provider) => provider.enabled(KEY))).toBe(false)
      expect(yield* withProvider({ url: "" })((provider) => provider.enabled(KEY))).toBe(false)
      expect(yield* withProvider()((provider) => provider.enabled("another_key"))).toBe(false)
    }))

  it.effect("a host's resolver answers in process, with the same cache and fail-closed rules", () =>
    Effect.gen(function*() {
      const calls: Array<ReadonlyArray<PermissionQuery>> = []
      let fail = false
      const provider = yield* Effect.provide(
        PermissionProvider,
        PermissionProvider.resolver(async (_apiKey, queries) => {
          calls.push(queries)
          if (fail) throw new Error("resolver down")
          return queries.map((q) => ({ userId: q.userId, resourceId: q.resource.id, type: q.resource.type, hasAccess: true, accessRole: "viewer" as const }))
        })
      )
      expect(yield* provider.ask(KEY, [query("ann", "d9")])).toEqual([{ accessRole: "viewer", failed: false }])
      expect(yield* provider.ask(KEY, [query("ann", "d9")])).toEqual([{ accessRole: "viewer", failed: false }])
      expect(calls).toHaveLength(1)
      fail = true
      expect(yield* provider.ask(KEY, [query("bob", "d9")])).toEqual([{ accessRole: null, failed: true }])
      expect(calls).toHaveLength(4)
    }))
})
