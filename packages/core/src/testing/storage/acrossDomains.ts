/** Cases over every domain's repositories at once: API keys apart, and ids of every kind in every key. */
import * as Effect from "effect/Effect"
import { ActivitiesRepo } from "../../activities/ActivitiesRepo.js"
import { AgentExecutionsRepo } from "../../agents/AgentExecutionsRepo.js"
import { DocumentsRepo } from "../../documents/DocumentsRepo.js"
import { FoldersRepo } from "../../folders/FoldersRepo.js"
import { JudgmentsRepo } from "../../judgments/JudgmentsRepo.js"
import { NotificationPreferencesRepo } from "../../notifications/NotificationPreferencesRepo.js"
import { OrganizationsRepo } from "../../organizations/OrganizationsRepo.js"
import { PresenceRepo } from "../../presence/PresenceRepo.js"
import { UserGroupsRepo } from "../../users/UserGroupsRepo.js"
import { UsersRepo } from "../../users/UsersRepo.js"
import { WebhookConfigRepo } from "../../webhooks/WebhookConfigRepo.js"
import { WebhookEndpointsRepo } from "../../webhooks/WebhookEndpointsRepo.js"
import { DomainsRepo } from "../../workspace/DomainsRepo.js"
import { SettingsRepo } from "../../workspace/SettingsRepo.js"
import { activity, ascending, document, endpoint, execution, folder, judgment, LONG_IDS, membership, MIXED_IDS, organization, type StorageCases, T0, unique, user } from "./fixtures.js"

export const cases: StorageCases = (it, expect) => {
  it.effect("two API keys with the same ids never see each other's rows", () =>
    Effect.gen(function*() {
      const organizations = yield* OrganizationsRepo
      const documents = yield* DocumentsRepo
      const folders = yield* FoldersRepo
      const activities = yield* ActivitiesRepo
      const users = yield* UsersRepo
      const groups = yield* UserGroupsRepo
      const presence = yield* PresenceRepo
      const preferences = yield* NotificationPreferencesRepo
      const settings = yield* SettingsRepo
      const domains = yield* DomainsRepo
      const endpoints = yield* WebhookEndpointsRepo
      const configs = yield* WebhookConfigRepo
      const executions = yield* AgentExecutionsRepo
      const judgments = yield* JudgmentsRepo
      const keys = [unique("key-a"), unique("key-b")] as const
      for (const apiKey of keys) {
        yield* organizations.upsert(organization(apiKey, "org", { name: apiKey }))
        yield* documents.insert(document(apiKey, "org", "doc", { name: apiKey }))
        yield* folders.insert({ ...folder(apiKey, "org", "folder"), name: apiKey })
        yield* activities.put(activity(apiKey, "org", "act", T0, { actionType: apiKey }))
        yield* users.putUser(user(apiKey, "user", { name: apiKey }))
        yield* users.putMembership(membership(apiKey, "org", "user"))
        yield* groups.putGroup({ apiKey, organizationId: "org", groupId: "group", name: apiKey, createdAt: T0, updatedAt: T0 })
        yield* groups.addMember(apiKey, "org", "group", "user", T0)
        yield* presence.put({ apiKey, organizationId: "org", documentId: "doc", userId: "user", name: apiKey, email: null, status: "online", data: null, heldBy: null, updatedAt: T0, lastSeenAt: T0 })
        yield* preferences.put({ apiKey, organizationId: "org", userId: "user", documentId: null, inbox: "ALL", email: null, slack: null, updatedAt: T0 })
        yield* settings.put(apiKey, "setting", { owner: apiKey })
        yield* domains.add(apiKey, [`${apiKey}.example.com`], T0)
        expect(yield* endpoints.insert(endpoint(apiKey, "endpoint", T0, { description: apiKey, uid: "same-uid" }), `secret-${apiKey}`)).toBe(true)
        yield* configs.upsert({ apiKey, isEnabled: true, encryptData: false, encodeData: false, publicKey: apiKey, enableDataProtection: false, createdAt: T0, updatedAt: T0 })
        yield* executions.upsert(execution(apiKey, "exec", T0, { message: apiKey }))
        yield* judgments.upsert(judgment(apiKey, "judgment", T0, { content: apiKey }))
      }
      for (const apiKey of keys) {
        expect((yield* organizations.list(apiKey, { limit: 10 })).map((o) => o.name)).toEqual([apiKey])
        expect((yield* documents.list(apiKey, "org", { limit: 10 })).map((d) => d.name)).toEqual([apiKey])
        expect((yield* folders.listByOrganization(apiKey, "org")).map((f) => f.name)).toEqual([apiKey])
        expect((yield* activities.page(apiKey, "org", {}, { order: "asc", limit: 10 })).map((a) => a.actionType)).toEqual([apiKey])
        expect((yield* users.list(apiKey, "org", { level: "organization" }, { limit: 10 })).map((u) => u.name)).toEqual([apiKey])
        expect((yield* groups.findGroup(apiKey, "org", "group"))?.name).toBe(apiKey)
        expect((yield* presence.list(apiKey, "org", "doc", T0)).map((p) => p.name)).toEqual([apiKey])
        expect(yield* preferences.list(apiKey, "org", ["user"], [])).toHaveLength(1)
        expect(yield* settings.get(apiKey, "setting")).toEqual({ owner: apiKey })
        expect(yield* domains.list(apiKey)).toEqual([`${apiKey}.example.com`])
        expect((yield* endpoints.list(apiKey, { limit: 10 })).map((e) => e.description)).toEqual([apiKey])
        expect(yield* endpoints.findSecret(apiKey, "endpoint")).toBe(`secret-${apiKey}`)
        expect((yield* configs.find(apiKey))?.publicKey).toBe(apiKey)
        expect((yield* executions.list(apiKey, {}, { order: "asc", limit: 10 })).map((e) => e.message)).toEqual([apiKey])
        expect(yield* judgments.count(apiKey, {})).toBe(1)
      }
      // Deleting under one key leaves the other key's rows.
      const [a, b] = keys
      expect(yield* organizations.delete(a, "org")).toBe(true)
      expect(yield* documents.delete(a, "org", "doc")).toBe(true)
      expect(yield* users.deleteOrganizationMemberships(a, "org", "user")).toHaveLength(1)
      expect(yield* groups.removeAllMembers(a, "org", "group")).toEqual(["user"])
      yield* presence.delete(a, "org", "doc", ["user"])
      expect(yield* endpoints.delete(a, "endpoint")).toBe(true)
      expect(yield* organizations.find(b, "org")).toBeDefined()
      expect(yield* documents.find(b, "org", "doc")).toBeDefined()
      expect(yield* users.findMembership(b, "org", "organization", "", "user")).toBeDefined()
      expect(yield* groups.removeMember(b, "org", "group", "user")).toBe(true)
      expect(yield* presence.find(b, "org", "doc", "user")).toBeDefined()
      expect(yield* endpoints.find(b, "endpoint")).toBeDefined()
    }))

  it.effect("unicode and 256-character ids round-trip through every kind of key", () =>
    Effect.gen(function*() {
      const organizations = yield* OrganizationsRepo
      const documents = yield* DocumentsRepo
      const activities = yield* ActivitiesRepo
      const users = yield* UsersRepo
      const presence = yield* PresenceRepo
      const endpoints = yield* WebhookEndpointsRepo
      const apiKey = unique("key-ü-😀")
      const all = [...LONG_IDS, ...MIXED_IDS]
      for (const id of all) {
        yield* organizations.upsert(organization(apiKey, id))
        yield* documents.insert(document(apiKey, id, id, { folderId: id }))
        yield* activities.put(activity(apiKey, id, id, T0, { metadata: { apiKey, organizationId: id, documentId: id } }))
        yield* users.putUser(user(apiKey, id, { name: id }))
        yield* presence.put({ apiKey, organizationId: id, documentId: id, userId: id, name: id, email: null, status: "away", data: null, heldBy: null, updatedAt: T0, lastSeenAt: T0 })
        yield* endpoints.insert(endpoint(apiKey, id, T0, { uid: id }), id)
      }
      for (const id of all) {
        expect((yield* organizations.find(apiKey, id))?.id).toBe(id)
        const doc = yield* documents.find(apiKey, id, id)
        expect([doc?.id, doc?.organizationId, doc?.folderId]).toEqual([id, id, id])
        expect((yield* activities.find(apiKey, id, id))?.metadata).toEqual({ apiKey, organizationId: id, documentId: id })
        expect((yield* activities.page(apiKey, id, { documentId: id, ids: [id] }, { order: "asc", limit: 2 })).map((a) => a.id)).toEqual([id])
        expect((yield* users.findUser(apiKey, id))?.name).toBe(id)
        expect((yield* presence.find(apiKey, id, id, id))?.userId).toBe(id)
        expect(yield* endpoints.findSecret(apiKey, id)).toBe(id)
      }
      const listed = yield* organizations.list(apiKey, { limit: 1000 })
      expect(listed.map((o) => o.id)).toEqual(ascending(all))
      expect(yield* organizations.list(apiKey, { after: LONG_IDS[0]!, ids: [LONG_IDS[0]!, "a".repeat(255)], limit: 10 })).toEqual([])
      // A uid that clashes is refused, whatever its characters.
      expect(yield* endpoints.insert(endpoint(apiKey, "another", T0, { uid: LONG_IDS[2]! }), "s")).toBe(false)
    }))
}
