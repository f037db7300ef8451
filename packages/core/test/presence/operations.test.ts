import type { TestCredentials } from "@atrium/core/testing"
import * as Effect from "effect/Effect"
import { describe, expect, it } from "vitest"
import { PresenceRepo } from "@atrium/core"
import { forEachBackend, type Started } from "../../../../test-support/backends.js"
import { expectCap } from "../../../../test-support/caps.js"
import { MAX_PRESENCE_USERS_PER_CALL } from "../../src/presence/PresenceSchemas.js"

/**
 * No operation reads presence (the spec and the reference list none), so the
 * stored list is read through the repository, on the same runtime the calls use.
 */
const presenceOf = (started: Started, creds: TestCredentials, organizationId: string, documentId: string) =>
  started.atrium.runtime.runPromise(
    Effect.flatMap(PresenceRepo, (repo) => repo.list(creds.apiKey, organizationId, documentId, 0))
  ).then((rows) => rows.map(({ email, name, status, userId }) => ({ userId, name, email, status })))

const done = (message: string) => ({ result: { status: "success", message, data: { success: true } } })

forEachBackend("presence", (ctx) => {
  describe("add, update, delete", () => {
    it("adds users to a document's presence list", async () => {
      const started = ctx()
      const creds = await started.workspace()
      const added = await started.client.post("/v2/presence/add", {
        organizationId: "org",
        documentId: "doc",
        users: [{ userId: "u1", name: "One", email: "u1@example.com", status: "away" }, { userId: "u2" }]
      }, creds.headers)
      expect(added.status).toBe(200)
      expect(added.body).toEqual(done("Presence added successfully."))
      expect(await presenceOf(started, creds, "org", "doc")).toEqual([
        { userId: "u1", name: "One", email: "u1@example.com", status: "away" },
        // Status defaults to online.
        { userId: "u2", name: null, email: null, status: "online" }
      ])
      expect(await presenceOf(started, creds, "org", "other-doc")).toEqual([])
    })

    it("update changes only the fields given, and adds users not yet present", async () => {
      const started = ctx()
      const creds = await started.workspace()
      await started.client.post("/v2/presence/add", {
        organizationId: "org",
        documentId: "doc",
        users: [{ userId: "u1", name: "One", email: "u1@example.com", status: "online" }]
      }, creds.headers)
      const updated = await started.client.post("/v2/presence/update", {
        organizationId: "org",
        documentId: "doc",
        users: [{ userId: "u1", status: "offline" }, { userId: "u3", status: "away" }]
      }, creds.headers)
      expect(updated.body).toEqual(done("Presence updated successfully."))
      expect(await presenceOf(started, creds, "org", "doc")).toEqual([
        { userId: "u1", name: "One", email: "u1@example.com", status: "offline" },
        { userId: "u3", name: null, email: null, status: "away" }
      ])
    })

    it("add replaces an entry as given", async () => {
      const started = ctx()
      const creds = await started.workspace()
      const add = (users: Array<Record<string, unknown>>) =>
        started.client.post("/v2/presence/add", { organizationId: "org", documentId: "doc", users }, creds.headers)
      await add([{ userId: "u1", name: "One", status: "away" }])
      await add([{ userId: "u1" }])
      expect(await presenceOf(started, creds, "org", "doc")).toEqual([{ userId: "u1", name: null, email: null, status: "online" }])
    })

    it("deletes users from the list; users not on it are ignored", async () => {
      const started = ctx()
      const creds = await started.workspace()
      await started.client.post("/v2/presence/add", {
        organizationId: "org",
        documentId: "doc",
        users: [{ userId: "u1" }, { userId: "u2" }, { userId: "u3" }]
      }, creds.headers)
      await started.client.post("/v2/presence/add", { organizationId: "org", documentId: "doc2", users: [{ userId: "u1" }] }, creds.headers)
      const deleted = await started.client.post("/v2/presence/delete", {
        organizationId: "org",
        documentId: "doc",
        userIds: ["u1", "u3", "never-there"]
      }, creds.headers)
      expect(deleted.status).toBe(200)
      expect(deleted.body).toEqual(done("Presence deleted successfully."))
      expect((await presenceOf(started, creds, "org", "doc")).map((p) => p.userId)).toEqual(["u2"])
      expect((await presenceOf(started, creds, "org", "doc2")).map((p) => p.userId)).toEqual(["u1"])
    })

    it("validates its input", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const cases: Array<[string, Record<string, unknown>, string]> = [
        ["/v2/presence/add", { organizationId: "org", documentId: "doc", users: [{ userId: "u", status: "busy" }] }, "data.users[0].status"],
        ["/v2/presence/add", { organizationId: "org", users: [{ userId: "u" }] }, "data.documentId"],
        ["/v2/presence/update", { organizationId: "org", documentId: "doc", users: [] }, "data.users"],
        ["/v2/presence/update", { organizationId: "org", documentId: "doc", users: [{ userId: "" }] }, "data.users[0].userId"],
        ["/v2/presence/delete", { organizationId: "org", documentId: "doc" }, "data.userIds"],
        ["/v2/presence/delete", { organizationId: "org", documentId: "doc", userIds: [] }, "data.userIds"],
        ["/v2/presence/delete", { documentId: "doc", userIds: ["u"] }, "data.organizationId"]
      ]
      for (const [path, data, field] of cases) {
        const refused = await client.post(path, data, creds.headers)
        expect(refused.status, `${path} ${JSON.stringify(data)}`).toBe(400)
        expect(refused.body.error.status).toBe("INVALID_ARGUMENT")
        expect(refused.body.error.message).toContain(field)
      }
    })
  })

  it("keeps each API key's presence apart", async () => {
    const started = ctx()
    const a = await started.workspace()
    const b = await started.workspace()
    await started.client.post("/v2/presence/add", { organizationId: "org", documentId: "doc", users: [{ userId: "u1" }] }, a.headers)
    await started.client.post("/v2/presence/delete", { organizationId: "org", documentId: "doc", userIds: ["u1"] }, b.headers)
    await started.client.post("/v2/presence/update", { organizationId: "org", documentId: "doc", users: [{ userId: "u1", status: "away" }] }, b.headers)
    expect(await presenceOf(started, a, "org", "doc")).toEqual([{ userId: "u1", name: null, email: null, status: "online" }])
    expect(await presenceOf(started, b, "org", "doc")).toEqual([{ userId: "u1", name: null, email: null, status: "away" }])
  })

  it("refuses presence calls on a disabled organization", async () => {
    const started = ctx()
    const creds = await started.workspace()
    const { client } = started
    await client.post("/v2/organizations/add", { organizations: [{ organizationId: "org" }] }, creds.headers)
    await client.post("/v2/presence/add", { organizationId: "org", documentId: "doc", users: [{ userId: "u1" }] }, creds.headers)
    await client.post("/v1/organizations/access/disablestate/update", { organizationIds: ["org"], disabled: true }, creds.headers)
    const calls: Array<[string, Record<string, unknown>]> = [
      ["/v2/presence/add", { organizationId: "org", documentId: "doc", users: [{ userId: "u2" }] }],
      ["/v2/presence/update", { organizationId: "org", documentId: "doc", users: [{ userId: "u1", status: "away" }] }],
      ["/v2/presence/delete", { organizationId: "org", documentId: "doc", userIds: ["u1"] }]
    ]
    for (const [path, data] of calls) {
      const refused = await client.post(path, data, creds.headers)
      expect(refused.status, path).toBe(403)
      expect(refused.body.error.status).toBe("PERMISSION_DENIED")
    }
    expect(await presenceOf(started, creds, "org", "doc")).toEqual([{ userId: "u1", name: null, email: null, status: "online" }])
  })

  describe("caps (issue 21: one call's work stays short)", () => {
    it(`presence/add, update and delete take ${MAX_PRESENCE_USERS_PER_CALL} users; one more is refused, nothing written`, async () => {
      const started = ctx()
      const creds = await started.workspace()
      const post = (path: string, data: unknown) => started.client.post(path, data, creds.headers)
      const users = (n: number, tag: string) => Array.from({ length: n }, (_, i) => ({ userId: `${tag}-${i}`, name: `User ${i}` }))
      const where = { organizationId: "org", documentId: "doc" }
      for (const verb of ["add", "update"]) {
        await expectCap({ post, path: `/v2/presence/${verb}`, field: "users", max: MAX_PRESENCE_USERS_PER_CALL, data: (n, tag) => ({ ...where, users: users(n, tag) }) })
      }
      const present = async () => (await presenceOf(started, creds, "org", "doc")).map((u) => u.userId).sort()
      expect(await present()).toEqual(users(MAX_PRESENCE_USERS_PER_CALL, "at").map((u) => u.userId).sort())
      await expectCap({
        post,
        path: "/v2/presence/delete",
        field: "userIds",
        max: MAX_PRESENCE_USERS_PER_CALL,
        data: (n) => ({ ...where, userIds: Array.from({ length: n }, (_, i) => `at-${i}`) })
      })
      expect(await present()).toEqual([])
    })
  })
})
