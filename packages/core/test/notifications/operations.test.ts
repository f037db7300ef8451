import type { TestClient, TestCredentials } from "@atrium/core/testing"
import { describe, expect, it } from "vitest"
import { forEachBackend } from "../../../../test-support/backends.js"
import { expectCap } from "../../../../test-support/caps.js"
import { MAX_PREFERENCES_PER_CALL } from "../../src/notifications/NotificationPreferenceSchemas.js"

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`)

const api = (client: TestClient, creds: TestCredentials) => ({
  get: (data: Record<string, unknown>) => client.post("/v2/notifications/config/get", data, creds.headers),
  set: (data: Record<string, unknown>) => client.post("/v2/notifications/config/set", data, creds.headers),
  /** The resolved config of each entry users/config/get answers. */
  configs: async (data: Record<string, unknown>) =>
    (await client.post("/v2/notifications/config/get", data, creds.headers)).body.result.data.map((entry: { config: unknown }) => entry.config)
})

forEachBackend("notifications/config", (ctx) => {
  describe("get", () => {
    it("answers the defaults (inbox ALL, email MINE) with the metadata of each document", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const got = await api(client, creds).get({ organizationId: "org", userId: "u1", documentIds: ["d1", "d2"] })
      expect(got.status).toBe(200)
      expect(got.body).toEqual({
        result: {
          status: "success",
          message: "User config fetched successfully.",
          data: ["d1", "d2"].map((documentId) => ({
            config: { inbox: "ALL", email: "MINE" },
            metadata: { organizationId: "org", apiKey: creds.apiKey, documentId, userId: "u1" }
          }))
        }
      })
    })

    it("answers the organization-level entry first, with documentId null", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const a = api(client, creds)
      await a.set({ organizationId: "org", userIds: ["u1"], config: { email: "NONE" } })
      const orgOnly = await a.get({ organizationId: "org", userId: "u1", getOrganizationConfig: true })
      expect(orgOnly.body.result.data).toEqual([
        { config: { inbox: "ALL", email: "NONE" }, metadata: { organizationId: "org", apiKey: creds.apiKey, documentId: null, userId: "u1" } }
      ])
      const both = await a.get({ organizationId: "org", userId: "u1", getOrganizationConfig: true, documentIds: ["d1"] })
      expect(both.body.result.data.map((e: { metadata: { documentId: unknown } }) => e.metadata.documentId)).toEqual([null, "d1"])
    })

    it("requires documentIds unless getOrganizationConfig is true, and allows at most 30", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      for (const data of [{ organizationId: "org", userId: "u1" }, { organizationId: "org", userId: "u1", getOrganizationConfig: false }]) {
        const refused = await a.get(data)
        expect(refused.status).toBe(400)
        expect(refused.body.error.status).toBe("INVALID_ARGUMENT")
        expect(refused.body.error.message).toContain("data.documentIds")
      }
      const over = await a.get({ organizationId: "org", userId: "u1", documentIds: ids("d", 31) })
      expect(over.status).toBe(400)
      expect(over.body.error.message).toContain("data.documentIds")
      const at = await a.get({ organizationId: "org", userId: "u1", documentIds: ids("d", 30) })
      expect(at.status).toBe(200)
      expect(at.body.result.data).toHaveLength(30)
      expect((await a.get({ organizationId: "org", documentIds: ["d"] })).body.error.message).toContain("data.userId")
    })
  })

  describe("set", () => {
    it("sets document-level config and answers per user", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      const set = await a.set({ organizationId: "org", userIds: ["u1", "u2"], documentIds: ["d1"], config: { inbox: "NONE", email: "ALL" } })
      expect(set.status).toBe(200)
      expect(set.body).toEqual({
        result: {
          status: "success",
          message: "User config set successfully.",
          data: Object.fromEntries(["u1", "u2"].map((userId) => [userId, {
            success: true,
            userId,
            documentId: "d1",
            documentIds: ["d1"],
            message: "User config set successfully."
          }]))
        }
      })
      expect(await a.configs({ organizationId: "org", userId: "u2", documentIds: ["d1", "d2"] })).toEqual([
        { inbox: "NONE", email: "ALL" },
        { inbox: "ALL", email: "MINE" }
      ])
    })

    it("at organization level is every document's default, overridden per channel by document config", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      const set = await a.set({ organizationId: "org", userIds: ["u1"], config: { inbox: "MINE", email: "NONE", slack: "ALL" } })
      expect(set.body.result.data).toEqual({
        u1: { success: true, userId: "u1", documentId: null, message: "User config set successfully." }
      })
      await a.set({ organizationId: "org", userIds: ["u1"], documentIds: ["d1"], config: { email: "ALL" } })
      expect(await a.configs({ organizationId: "org", userId: "u1", documentIds: ["d1", "d2"] })).toEqual([
        { inbox: "MINE", email: "ALL", slack: "ALL" },
        { inbox: "MINE", email: "NONE", slack: "ALL" }
      ])
      // Another organization and another user keep the defaults.
      expect(await a.configs({ organizationId: "org2", userId: "u1", documentIds: ["d1"] })).toEqual([{ inbox: "ALL", email: "MINE" }])
      expect(await a.configs({ organizationId: "org", userId: "u2", documentIds: ["d1"] })).toEqual([{ inbox: "ALL", email: "MINE" }])
    })

    it("merges into what is stored: channels not given keep their value", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      await a.set({ organizationId: "org", userIds: ["u1"], documentIds: ["d1"], config: { inbox: "NONE", slack: "MINE" } })
      await a.set({ organizationId: "org", userIds: ["u1"], documentIds: ["d1"], config: { email: "NONE" } })
      await a.set({ organizationId: "org", userIds: ["u1"], documentIds: ["d1"], config: { slack: "NONE" } })
      expect(await a.configs({ organizationId: "org", userId: "u1", documentIds: ["d1"] })).toEqual([{ inbox: "NONE", email: "NONE", slack: "NONE" }])
    })

    it("with several documents, writes each and lists them in documentIds", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      const set = await a.set({ organizationId: "org", userIds: ["u1"], documentIds: ["d1", "d2"], config: { inbox: "NONE" } })
      expect(set.body.result.data).toEqual({
        u1: { success: true, userId: "u1", documentId: null, documentIds: ["d1", "d2"], message: "User config set successfully." }
      })
      expect(await a.configs({ organizationId: "org", userId: "u1", documentIds: ["d1", "d2", "d3"] })).toEqual([
        { inbox: "NONE", email: "MINE" },
        { inbox: "NONE", email: "MINE" },
        { inbox: "ALL", email: "MINE" }
      ])
    })

    it("validates its input", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ organizationId: "org", userIds: ["u1"], config: {} }, "data.config"],
        [{ organizationId: "org", userIds: ["u1"] }, "data.config"],
        [{ organizationId: "org", userIds: ["u1"], config: { inbox: "SOME" } }, "data.config.inbox"],
        [{ organizationId: "org", userIds: ["u1"], config: { push: "ALL" } }, "data.config.push"],
        [{ organizationId: "org", userIds: [], config: { inbox: "ALL" } }, "data.userIds"],
        [{ organizationId: "org", config: { inbox: "ALL" } }, "data.userIds"],
        [{ organizationId: "org", userIds: ["u1"], documentIds: [], config: { inbox: "ALL" } }, "data.documentIds"]
      ]
      for (const [data, field] of cases) {
        const refused = await a.set(data)
        expect(refused.status, JSON.stringify(data)).toBe(400)
        expect(refused.body.error.status).toBe("INVALID_ARGUMENT")
        expect(refused.body.error.message).toContain(field)
      }
    })
  })

  it("keeps each API key's preferences apart", async () => {
    const { client, workspace } = ctx()
    const a = api(client, await workspace())
    const b = api(client, await workspace())
    await a.set({ organizationId: "org", userIds: ["u1"], config: { inbox: "NONE" } })
    await a.set({ organizationId: "org", userIds: ["u1"], documentIds: ["d1"], config: { email: "NONE" } })
    expect(await b.configs({ organizationId: "org", userId: "u1", documentIds: ["d1"], getOrganizationConfig: true })).toEqual([
      { inbox: "ALL", email: "MINE" },
      { inbox: "ALL", email: "MINE" }
    ])
  })

  it("refuses both operations on a disabled organization", async () => {
    const { client, workspace } = ctx()
    const creds = await workspace()
    const a = api(client, creds)
    await client.post("/v2/organizations/add", { organizations: [{ organizationId: "org" }] }, creds.headers)
    await a.set({ organizationId: "org", userIds: ["u1"], config: { inbox: "NONE" } })
    await client.post("/v1/organizations/access/disablestate/update", { organizationIds: ["org"], disabled: true }, creds.headers)
    for (const refused of [
      await a.set({ organizationId: "org", userIds: ["u1"], config: { inbox: "ALL" } }),
      await a.get({ organizationId: "org", userId: "u1", getOrganizationConfig: true })
    ]) {
      expect(refused.status).toBe(403)
      expect(refused.body.error.status).toBe("PERMISSION_DENIED")
    }
    await client.post("/v1/organizations/access/disablestate/update", { organizationIds: ["org"], disabled: false }, creds.headers)
    expect(await a.configs({ organizationId: "org", userId: "u1", getOrganizationConfig: true })).toEqual([{ inbox: "NONE", email: "MINE" }])
  })

  describe("caps (issue 21: one call's work stays short)", () => {
    it(`set takes ${MAX_PREFERENCES_PER_CALL} userIds, or ${MAX_PREFERENCES_PER_CALL} documentIds; one more of either is refused`, async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      const post = (_path: string, data: unknown) => a.set(data as Record<string, unknown>)
      const path = "/v2/notifications/config/set"
      const max = MAX_PREFERENCES_PER_CALL
      await expectCap({ post, path, field: "userIds", max, data: (n, tag) => ({ organizationId: "org", userIds: ids(`${tag}-`, n), config: { email: "NONE" } }) })
      // One user: only the list's own cap applies.
      await expectCap({ post, path, field: "documentIds", max, data: (n, tag) => ({ organizationId: "org", userIds: [`${tag}-user`], documentIds: ids("d", n), config: { inbox: "NONE" } }) })
      expect(await a.configs({ organizationId: "org", userId: `at-${max - 1}`, getOrganizationConfig: true, documentIds: ["d0"] })).toEqual([
        { inbox: "ALL", email: "NONE" },
        { inbox: "ALL", email: "NONE" }
      ])
      expect(await a.configs({ organizationId: "org", userId: "at-user", documentIds: ids("d", 30) })).toEqual(
        Array.from({ length: 30 }, () => ({ inbox: "NONE", email: "MINE" }))
      )
      expect(await a.configs({ organizationId: "org", userId: "over-0", getOrganizationConfig: true })).toEqual([{ inbox: "ALL", email: "MINE" }])
    })

    it(`set writes at most ${MAX_PREFERENCES_PER_CALL} preferences (userIds × documentIds): more is refused naming both counts, nothing written`, async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      const users = 100
      const documents = MAX_PREFERENCES_PER_CALL / users
      const over = await a.set({ organizationId: "org", userIds: ids("u", users), documentIds: ids("d", documents + 1), config: { inbox: "NONE" } })
      expect(over.status).toBe(400)
      expect(over.body.error.status).toBe("INVALID_ARGUMENT")
      expect(over.body.error.message).toBe(
        `Invalid data.documentIds: userIds × documentIds must have at most ${MAX_PREFERENCES_PER_CALL} entries: ${users} × ${documents + 1} = ${users * (documents + 1)}`
      )
      expect(await a.configs({ organizationId: "org", userId: "u0", documentIds: ["d0"] })).toEqual([{ inbox: "ALL", email: "MINE" }])
      const at = await a.set({ organizationId: "org", userIds: ids("u", users), documentIds: ids("d", documents), config: { inbox: "NONE" } })
      expect(at.status).toBe(200)
      expect(Object.keys(at.body.result.data)).toHaveLength(users)
      expect(await a.configs({ organizationId: "org", userId: `u${users - 1}`, documentIds: ids("d", documents) })).toEqual(
        Array.from({ length: documents }, () => ({ inbox: "NONE", email: "MINE" }))
      )
    })

    it("set names each user and document once, however often the call repeats them", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      const set = await a.set({ organizationId: "org", userIds: ["u1", "u1", "u2"], documentIds: ["d1", "d1"], config: { email: "ALL" } })
      expect(set.status).toBe(200)
      expect(Object.keys(set.body.result.data)).toEqual(["u1", "u2"])
      expect(await a.configs({ organizationId: "org", userId: "u1", documentIds: ["d1"] })).toEqual([{ inbox: "ALL", email: "ALL" }])
    })
  })
})
