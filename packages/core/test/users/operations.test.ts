import type { TestClient, TestCredentials } from "@atrium/core/testing"
import * as Effect from "effect/Effect"
import { describe, expect, it } from "vitest"
import { UsersRepo } from "@atrium/core"
import { forEachBackend, type Started } from "../../../../test-support/backends.js"
import { expectCap } from "../../../../test-support/caps.js"
import { MAX_GROUP_ENTRIES_PER_CALL } from "../../src/users/UserGroupSchemas.js"
import { MAX_USERS_PER_CALL } from "../../src/users/UserSchemas.js"

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`)

const user = (userId: string) => ({ userId, name: `Name ${userId}`, email: `${userId}@example.com` })
const listed = (userId: string) => ({ email: `${userId}@example.com`, name: `Name ${userId}`, userId })

/** The calls of this file, bound to one client and one workspace. */
const api = (client: TestClient, creds: TestCredentials) => {
  const post = (path: string, data: unknown) => client.post(path, data, creds.headers)
  return {
    post,
    add: (data: Record<string, unknown>) => post("/v2/users/add", data),
    get: (data: Record<string, unknown>) => post("/v2/users/get", data),
    /** The user ids users/get answers, as a flat list. */
    userIds: async (data: Record<string, unknown>) =>
      (await post("/v2/users/get", data)).body.result.data.map((u: { userId: string }) => u.userId),
    addDocument: (organizationId: string, documentId: string) =>
      post("/v1/organizations/documents/add", { organizationId, documents: [{ documentId }] })
  }
}

/** The stored role of a membership: accessRole is written by the REST operations but read by none of them. */
const roleOf = (started: Started, creds: TestCredentials, organizationId: string, level: "organization" | "document", scopeId: string, userId: string) =>
  started.atrium.runtime.runPromise(
    Effect.flatMap(UsersRepo, (repo) => repo.findMembership(creds.apiKey, organizationId, level, scopeId, userId))
  ).then((membership) => membership?.accessRole)

forEachBackend("users", (ctx) => {
  describe("users/add", () => {
    it("v1 users/add is the same operation as v2 (the hosted service has both), access role included", async () => {
      const { workspace } = ctx()
      const started = ctx()
      const creds = await workspace()
      const a = api(started.client, creds)
      const added = await a.post("/v1/users/add", { organizationId: "org", users: [user("u1"), { ...user("u2"), accessRole: "viewer" }] })
      expect(added.status).toBe(200)
      expect(added.body.result).toEqual({
        status: "success",
        message: "User(s) processed successfully.",
        data: { u1: { success: true, id: expect.any(String), message: "User added." }, u2: { success: true, id: expect.any(String), message: "User added." } }
      })
      expect(await a.userIds({ organizationId: "org" })).toEqual(["u1", "u2"])
      expect(await roleOf(started, creds, "org", "organization", "", "u2")).toBe("viewer")
      const bad = await a.post("/v1/users/add", { organizationId: "org", users: [{ name: "no id" }] })
      expect(bad.status).toBe(400)
    })

    it("adds users at organization level, creating the organization, and lists them", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      const added = await a.add({ organizationId: "org", users: [user("u1"), { userId: "u2", name: "Bo" }] })
      expect(added.status).toBe(200)
      expect(added.body).toEqual({
        result: {
          status: "success",
          message: "User(s) processed successfully.",
          data: {
            u1: { success: true, id: expect.any(String), message: "User added." },
            u2: { success: true, id: expect.any(String), message: "User added." }
          }
        }
      })
      expect(added.body.result.data.u1.id).not.toBe(added.body.result.data.u2.id)

      const got = await a.get({ organizationId: "org" })
      expect(got.status).toBe(200)
      // An email never given is absent, not an empty string.
      expect(got.body).toEqual({
        result: { status: "success", message: "User(s) retrieved successfully.", data: [listed("u1"), { name: "Bo", userId: "u2" }] }
      })
      const organizations = await a.post("/v2/organizations/get", { organizationIds: ["org"] })
      expect(organizations.body.result.data.map((o: { id: string }) => o.id)).toEqual(["org"])
    })

    it("keeps the internal id when a user is added again, and updates its details", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      const first = await a.add({ organizationId: "org", users: [user("u1")] })
      const again = await a.add({ organizationId: "org", users: [{ userId: "u1", name: "Renamed" }] })
      expect(again.body.result.data.u1.id).toBe(first.body.result.data.u1.id)
      expect((await a.get({ organizationId: "org" })).body.result.data).toEqual([{ email: "u1@example.com", name: "Renamed", userId: "u1" }])
    })

    it("adds users to a document only, not to the organization", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      await a.addDocument("org", "doc")
      const added = await a.add({ organizationId: "org", documentId: "doc", users: [user("u1")] })
      expect(added.status).toBe(200)
      expect(await a.userIds({ organizationId: "org", documentId: "doc" })).toEqual(["u1"])
      expect(await a.userIds({ organizationId: "org" })).toEqual([])
    })

    it("refuses a missing document without createDocument and writes nothing", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      const refused = await a.add({ organizationId: "fresh", documentId: "nope", users: [user("u1")] })
      expect(refused.status).toBe(404)
      expect(refused.body.error.status).toBe("NOT_FOUND")
      expect(refused.body.error.message).toContain("createDocument")
      // The organization the call would have created is not there either.
      expect((await a.post("/v2/organizations/get", { organizationIds: ["fresh"] })).body.result.data).toEqual([])
      expect(await a.userIds({ organizationId: "fresh", documentId: "nope" })).toEqual([])
    })

    it("creates a missing document with createDocument", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      const added = await a.add({ organizationId: "org", documentId: "new-doc", createDocument: true, users: [user("u1")] })
      expect(added.status).toBe(200)
      const documents = await a.post("/v2/organizations/documents/get", { organizationId: "org" })
      expect(documents.body.result.data.map((d: { id: string }) => d.id)).toEqual(["new-doc"])
      expect(await a.userIds({ organizationId: "org", documentId: "new-doc" })).toEqual(["u1"])
    })

    it("adds users to a folder, which must exist or be created with createFolder", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      const refused = await a.add({ organizationId: "org", folderId: "f1", users: [user("u1")] })
      expect(refused.status).toBe(404)
      expect(refused.body.error.message).toContain("createFolder")
      const added = await a.add({ organizationId: "org", folderId: "f1", createFolder: true, users: [user("u1")] })
      expect(added.status).toBe(200)
      expect(await a.userIds({ organizationId: "org", folderId: "f1" })).toEqual(["u1"])
      expect(await a.userIds({ organizationId: "org" })).toEqual([])
    })

    it("refuses documentId together with folderId", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      const refused = await a.add({ organizationId: "org", documentId: "d", folderId: "f", users: [user("u1")] })
      expect(refused.status).toBe(400)
      expect(refused.body.error.status).toBe("INVALID_ARGUMENT")
      expect(refused.body.error.message).toContain("data.folderId")
    })

    it("validates users: required list, access role, email", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ organizationId: "org" }, "data.users"],
        [{ organizationId: "org", users: [] }, "data.users"],
        [{ organizationId: "org", users: [{ userId: "u", accessRole: "owner" }] }, "data.users[0].accessRole"],
        [{ organizationId: "org", users: [{ userId: "u", email: "not-an-email" }] }, "data.users[0].email"],
        [{ organizationId: "org", users: [{ name: "no id" }] }, "data.users[0].userId"],
        [{ users: [user("u")] }, "data.organizationId"]
      ]
      for (const [data, field] of cases) {
        const refused = await a.add(data)
        expect(refused.status, JSON.stringify(data)).toBe(400)
        expect(refused.body.error.message).toContain(field)
      }
    })

    it("stores the access role, editor by default", async () => {
      const started = ctx()
      const creds = await started.workspace()
      const a = api(started.client, creds)
      await a.add({ organizationId: "org", users: [user("u1"), { ...user("u2"), accessRole: "viewer" }] })
      expect(await roleOf(started, creds, "org", "organization", "", "u1")).toBe("editor")
      expect(await roleOf(started, creds, "org", "organization", "", "u2")).toBe("viewer")
    })
  })

  describe("users/get", () => {
    it("pages by userId with the token under both nextPageToken and pageToken", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      await a.add({ organizationId: "org", users: ids("u", 5).map(user) })
      const seen: Array<string> = []
      let token: string | undefined
      let pages = 0
      do {
        const page = await a.get({ organizationId: "org", pageSize: 2, ...(token && { pageToken: token }) })
        expect(page.status).toBe(200)
        pages++
        seen.push(...page.body.result.data.map((u: { userId: string }) => u.userId))
        expect(page.body.result.nextPageToken).toBe(page.body.result.pageToken)
        token = page.body.result.nextPageToken
        if (token === undefined) expect("pageToken" in page.body.result).toBe(false)
      } while (token)
      expect(pages).toBe(3)
      expect(seen).toEqual(ids("u", 5))
    })

    it("defaults to pages of 1000 and accepts pageSize 1000 but not 1001", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      await a.add({ organizationId: "org", users: ids("u", 3).map(user) })
      const all = await a.get({ organizationId: "org" })
      expect(all.body.result.data).toHaveLength(3)
      expect(all.body.result.nextPageToken).toBeUndefined()
      expect((await a.get({ organizationId: "org", pageSize: 1000 })).status).toBe(200)
      const over = await a.get({ organizationId: "org", pageSize: 1001 })
      expect(over.status).toBe(400)
      expect(over.body.error.message).toContain("data.pageSize")
      expect((await a.get({ organizationId: "org", pageSize: 0 })).status).toBe(400)
    })

    it("refuses a page token made for other filters or another API key", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      const b = api(client, await workspace())
      await a.add({ organizationId: "org", users: ids("u", 3).map(user) })
      const token = (await a.get({ organizationId: "org", pageSize: 1 })).body.result.nextPageToken
      expect(typeof token).toBe("string")
      const otherFilter = await a.get({ organizationId: "org", userIds: ["u1"], pageSize: 1, pageToken: token })
      expect(otherFilter.status).toBe(400)
      expect(otherFilter.body.error.message).toContain("pageToken")
      expect((await b.get({ organizationId: "org", pageSize: 1, pageToken: token })).status).toBe(400)
      expect((await a.get({ organizationId: "org", pageToken: "garbage" })).status).toBe(400)
    })

    it("limits userIds and organizationUserGroupIds to 30", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      for (const field of ["userIds", "organizationUserGroupIds"]) {
        const over = await a.get({ organizationId: "org", [field]: ids("x", 31) })
        expect(over.status).toBe(400)
        expect(over.body.error.status).toBe("INVALID_ARGUMENT")
        expect(over.body.error.message).toContain(`data.${field}`)
        expect((await a.get({ organizationId: "org", [field]: ids("x", 30) })).status).toBe(200)
      }
    })

    it("refuses documentId with folderId, and allDocuments with either", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      const both = await a.get({ organizationId: "org", documentId: "d", folderId: "f" })
      expect(both.status).toBe(400)
      expect(both.body.error.message).toContain("data.folderId")
      const all = await a.get({ organizationId: "org", documentId: "d", allDocuments: true })
      expect(all.status).toBe(400)
      expect(all.body.error.message).toContain("data.allDocuments")
      expect((await a.get({})).body.error.message).toContain("data.organizationId")
    })

    it("lists users of all documents, without organization-level users, flat or grouped by document", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      await a.add({ organizationId: "org", documentId: "doc-a", createDocument: true, users: [user("u1"), user("u2")] })
      await a.add({ organizationId: "org", documentId: "doc-b", createDocument: true, users: [user("u2"), user("u3")] })
      await a.add({ organizationId: "org", users: [user("u4")] })
      await a.add({ organizationId: "other", documentId: "doc-x", createDocument: true, users: [user("u5")] })

      const flat = await a.get({ organizationId: "org", allDocuments: true })
      expect(flat.body.result.data).toEqual([listed("u1"), listed("u2"), listed("u3")])

      const grouped = await a.get({ organizationId: "org", allDocuments: true, groupByDocumentId: true })
      expect(grouped.body).toEqual({
        result: {
          status: "success",
          message: "User(s) retrieved successfully.",
          data: { "doc-a": [listed("u1"), listed("u2")], "doc-b": [listed("u2"), listed("u3")] }
        }
      })
      // groupByDocumentId alone has no effect.
      expect(await a.userIds({ organizationId: "org", groupByDocumentId: true })).toEqual(["u4"])
    })

    it("pages grouped users by (documentId, userId)", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      await a.add({ organizationId: "org", documentId: "doc-a", createDocument: true, users: [user("u1"), user("u2")] })
      await a.add({ organizationId: "org", documentId: "doc-b", createDocument: true, users: [user("u2"), user("u3")] })
      const query = { organizationId: "org", allDocuments: true, groupByDocumentId: true, pageSize: 3 }
      const first = await a.get(query)
      expect(first.body.result.data).toEqual({ "doc-a": [listed("u1"), listed("u2")], "doc-b": [listed("u2")] })
      expect(first.body.result.pageToken).toBe(first.body.result.nextPageToken)
      const second = await a.get({ ...query, pageToken: first.body.result.nextPageToken })
      expect(second.body.result.data).toEqual({ "doc-b": [listed("u3")] })
      expect(second.body.result.nextPageToken).toBeUndefined()
      // The token of the grouped query is not good for the flat one.
      expect((await a.get({ ...query, groupByDocumentId: false, pageToken: first.body.result.nextPageToken })).status).toBe(400)
    })

    it("combines the level with userIds and organization user groups", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      await a.add({ organizationId: "org", users: ids("u", 4).map(user) })
      await a.add({ organizationId: "org", documentId: "doc", createDocument: true, users: [user("u1"), user("u2"), user("u9")] })
      await a.post("/v2/organizations/usergroups/add", { organizationId: "org", organizationUserGroups: [{ groupId: "g1", groupName: "One" }, { groupId: "g2", groupName: "Two" }] })
      await a.post("/v2/organizations/usergroups/users/add", { organizationId: "org", organizationUserGroupId: "g1", userIds: ["u1", "u3", "u9"] })
      await a.post("/v2/organizations/usergroups/users/add", { organizationId: "org", organizationUserGroupId: "g2", userIds: ["u2"] })

      expect(await a.userIds({ organizationId: "org", userIds: ["u2", "u3", "nobody"] })).toEqual(["u2", "u3"])
      expect(await a.userIds({ organizationId: "org", organizationUserGroupIds: ["g1"] })).toEqual(["u1", "u3"])
      expect(await a.userIds({ organizationId: "org", organizationUserGroupIds: ["g1", "g2"] })).toEqual(["u1", "u2", "u3"])
      expect(await a.userIds({ organizationId: "org", userIds: ["u1", "u2"], organizationUserGroupIds: ["g1"] })).toEqual(["u1"])
      expect(await a.userIds({ organizationId: "org", documentId: "doc", organizationUserGroupIds: ["g1"] })).toEqual(["u1", "u9"])
      expect(await a.userIds({ organizationId: "org", documentId: "doc", userIds: ["u2", "u3"] })).toEqual(["u2"])
      expect(await a.userIds({ organizationId: "org", allDocuments: true, userIds: ["u9"] })).toEqual(["u9"])
      expect(await a.userIds({ organizationId: "org", organizationUserGroupIds: [] })).toEqual([])
    })

    it("never shows another API key's users", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      const b = api(client, await workspace())
      await a.add({ organizationId: "shared", users: [user("secret")] })
      await a.add({ organizationId: "shared", documentId: "doc", createDocument: true, users: [user("secret")] })
      expect(await b.userIds({ organizationId: "shared" })).toEqual([])
      expect(await b.userIds({ organizationId: "shared", allDocuments: true })).toEqual([])
      expect(await b.userIds({ organizationId: "shared", documentId: "doc" })).toEqual([])
    })
  })

  describe("users/update", () => {
    it("v1 updates name and email of users of the scope; others do not exist", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      const added = await a.add({ organizationId: "org", users: [user("u1")] })
      await a.add({ organizationId: "org", documentId: "doc", createDocument: true, users: [user("docOnly")] })
      const updated = await a.post("/v1/users/update", {
        organizationId: "org",
        users: [{ userId: "u1", name: "New", email: "new@example.com" }, { userId: "ghost", name: "G" }, { userId: "docOnly", name: "D" }]
      })
      expect(updated.status).toBe(200)
      expect(updated.body).toEqual({
        result: {
          status: "success",
          message: "User(s) processed successfully.",
          data: {
            u1: { success: true, id: added.body.result.data.u1.id, message: "User updated." },
            // Never added to this API key: no internal id to report.
            ghost: { success: false, message: "User does not exist." },
            // Known, but not at organization level.
            docOnly: { success: false, id: expect.any(String), message: "User does not exist." }
          }
        }
      })
      expect((await a.get({ organizationId: "org" })).body.result.data).toEqual([{ email: "new@example.com", name: "New", userId: "u1" }])
      expect((await a.get({ organizationId: "org", documentId: "doc" })).body.result.data).toEqual([listed("docOnly")])
    })

    it("v1 updates at document level and leaves omitted fields as they are", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      await a.add({ organizationId: "org", documentId: "doc", createDocument: true, users: [user("u1")] })
      const updated = await a.post("/v1/users/update", { organizationId: "org", documentId: "doc", users: [{ userId: "u1", name: "Only name" }] })
      expect(updated.body.result.data.u1).toMatchObject({ success: true, message: "User updated." })
      expect((await a.get({ organizationId: "org", documentId: "doc" })).body.result.data).toEqual([
        { email: "u1@example.com", name: "Only name", userId: "u1" }
      ])
    })

    it("v1 refuses accessRole; v2 sets it at the call's level", async () => {
      const started = ctx()
      const creds = await started.workspace()
      const a = api(started.client, creds)
      await a.add({ organizationId: "org", users: [user("u1")] })
      await a.add({ organizationId: "org", documentId: "doc", createDocument: true, users: [user("u1")] })
      const v1 = await a.post("/v1/users/update", { organizationId: "org", users: [{ userId: "u1", accessRole: "viewer" }] })
      expect(v1.status).toBe(400)
      expect(v1.body.error.message).toContain("data.users[0].accessRole")

      const v2 = await a.post("/v2/users/update", { organizationId: "org", documentId: "doc", users: [{ userId: "u1", accessRole: "viewer" }] })
      expect(v2.body.result.data.u1).toMatchObject({ success: true, message: "User updated." })
      expect(await roleOf(started, creds, "org", "document", "doc", "u1")).toBe("viewer")
      expect(await roleOf(started, creds, "org", "organization", "", "u1")).toBe("editor")
    })

    it("refuses documentId with folderId", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      for (const path of ["/v1/users/update", "/v2/users/update"]) {
        const refused = await a.post(path, { organizationId: "org", documentId: "d", folderId: "f", users: [{ userId: "u" }] })
        expect(refused.status).toBe(400)
        expect(refused.body.error.message).toContain("data.folderId")
      }
    })

    it("cannot update another API key's users", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      const b = api(client, await workspace())
      await a.add({ organizationId: "org", users: [user("u1")] })
      const attempt = await b.post("/v1/users/update", { organizationId: "org", users: [{ userId: "u1", name: "Hijack" }] })
      expect(attempt.body.result.data.u1).toEqual({ success: false, message: "User does not exist." })
      expect((await a.get({ organizationId: "org" })).body.result.data).toEqual([listed("u1")])
    })
  })

  describe("users/delete", () => {
    it("organization scope removes the user from the organization, its documents, folders and groups", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      await a.add({ organizationId: "org", users: [user("u1"), user("u2")] })
      await a.add({ organizationId: "org", documentId: "doc", createDocument: true, users: [user("u1"), user("u2")] })
      await a.add({ organizationId: "org", folderId: "f", createFolder: true, users: [user("u1")] })
      await a.add({ organizationId: "other", users: [user("u1")] })
      await a.post("/v2/organizations/usergroups/add", { organizationId: "org", organizationUserGroups: [{ groupId: "g", groupName: "G" }] })
      await a.post("/v2/organizations/usergroups/users/add", { organizationId: "org", organizationUserGroupId: "g", userIds: ["u1", "u2"] })

      const deleted = await a.post("/v2/users/delete", { organizationId: "org", userIds: ["u1", "ghost"] })
      expect(deleted.status).toBe(200)
      expect(deleted.body).toEqual({
        result: {
          status: "success",
          message: "User(s) deleted successfully.",
          data: {
            u1: { success: true, message: "User removed." },
            ghost: { success: false, message: "User does not exist." }
          }
        }
      })
      expect(await a.userIds({ organizationId: "org" })).toEqual(["u2"])
      expect(await a.userIds({ organizationId: "org", documentId: "doc" })).toEqual(["u2"])
      expect(await a.userIds({ organizationId: "org", folderId: "f" })).toEqual([])
      // Removed from the group too: adding u1 back at organization level does not bring back its group membership.
      await a.add({ organizationId: "org", users: [user("u1")] })
      expect(await a.userIds({ organizationId: "org", organizationUserGroupIds: ["g"] })).toEqual(["u2"])
      // Other organizations keep the user.
      expect(await a.userIds({ organizationId: "other" })).toEqual(["u1"])
    })

    it("organization scope removes a user that is only in a group", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      await a.post("/v2/organizations/usergroups/add", { organizationId: "org", createOrganization: true, organizationUserGroups: [{ groupId: "g", groupName: "G" }] })
      await a.post("/v2/organizations/usergroups/users/add", { organizationId: "org", organizationUserGroupId: "g", userIds: ["groupOnly"] })
      const deleted = await a.post("/v2/users/delete", { organizationId: "org", userIds: ["groupOnly"] })
      expect(deleted.body.result.data).toEqual({ groupOnly: { success: true, message: "User removed." } })
      const leftovers = await a.post("/v2/organizations/usergroups/users/delete", { organizationId: "org", organizationUserGroupId: "g", deleteAll: true })
      expect(leftovers.body.result.data).toEqual({})
    })

    it("document scope removes only that document's membership", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      await a.add({ organizationId: "org", users: [user("u1")] })
      await a.add({ organizationId: "org", documentId: "d1", createDocument: true, users: [user("u1")] })
      await a.add({ organizationId: "org", documentId: "d2", createDocument: true, users: [user("u1")] })
      const deleted = await a.post("/v2/users/delete", { organizationId: "org", documentId: "d1", userIds: ["u1"] })
      expect(deleted.body.result.data).toEqual({ u1: { success: true, message: "User removed." } })
      expect(await a.userIds({ organizationId: "org", documentId: "d1" })).toEqual([])
      expect(await a.userIds({ organizationId: "org", documentId: "d2" })).toEqual(["u1"])
      expect(await a.userIds({ organizationId: "org" })).toEqual(["u1"])
      const again = await a.post("/v2/users/delete", { organizationId: "org", documentId: "d1", userIds: ["u1"] })
      expect(again.body.result.data).toEqual({ u1: { success: false, message: "User does not exist." } })
    })

    it("validates its input", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ organizationId: "org" }, "data.userIds"],
        [{ organizationId: "org", userIds: [] }, "data.userIds"],
        [{ organizationId: "org", documentId: "d", folderId: "f", userIds: ["u"] }, "data.folderId"]
      ]
      for (const [data, field] of cases) {
        const refused = await a.post("/v2/users/delete", data)
        expect(refused.status).toBe(400)
        expect(refused.body.error.message).toContain(field)
      }
    })

    it("cannot remove another API key's users", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      const b = api(client, await workspace())
      await a.add({ organizationId: "org", users: [user("u1")] })
      const attempt = await b.post("/v2/users/delete", { organizationId: "org", userIds: ["u1"] })
      expect(attempt.body.result.data.u1).toEqual({ success: false, message: "User does not exist." })
      expect(await a.userIds({ organizationId: "org" })).toEqual(["u1"])
    })
  })

  describe("organization user groups", () => {
    it("adds groups and members, and removes members", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      await a.add({ organizationId: "org", users: ids("u", 3).map(user) })
      const groups = await a.post("/v2/organizations/usergroups/add", {
        organizationId: "org",
        organizationUserGroups: [{ groupId: "g1", groupName: "Group one" }]
      })
      expect(groups.body).toEqual({
        result: {
          status: "success",
          message: "Organization User Groups added successfully.",
          data: { g1: { success: true, id: "g1", message: "Organization user group added." } }
        }
      })
      const members = await a.post("/v2/organizations/usergroups/users/add", { organizationId: "org", organizationUserGroupId: "g1", userIds: ["u0", "u1", "u2"] })
      expect(members.body).toEqual({
        result: {
          status: "success",
          message: "Added organization users to group successfully.",
          data: Object.fromEntries(["u0", "u1", "u2"].map((u) => [u, { success: true, organizationUserGroupId: "g1", message: "User added to organization user group." }]))
        }
      })
      const removed = await a.post("/v2/organizations/usergroups/users/delete", { organizationId: "org", organizationUserGroupId: "g1", userIds: ["u0", "ghost"] })
      expect(removed.body).toEqual({
        result: {
          status: "success",
          message: "Deleted users from group successfully.",
          data: {
            u0: { success: true, organizationUserGroupId: "g1", message: "User deleted from organization user group." },
            ghost: { success: false, organizationUserGroupId: "g1", message: "User is not in the organization user group." }
          }
        }
      })
      expect(await a.userIds({ organizationId: "org", organizationUserGroupIds: ["g1"] })).toEqual(["u1", "u2"])

      const all = await a.post("/v2/organizations/usergroups/users/delete", { organizationId: "org", organizationUserGroupId: "g1", deleteAll: true })
      expect(Object.keys(all.body.result.data)).toEqual(["u1", "u2"])
      expect(all.body.result.data.u1).toEqual({ success: true, organizationUserGroupId: "g1", message: "User deleted from organization user group." })
      expect(await a.userIds({ organizationId: "org", organizationUserGroupIds: ["g1"] })).toEqual([])
    })

    it("needs the organization, or createOrganization", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      const body = { organizationId: "new-org", organizationUserGroups: [{ groupId: "g", groupName: "G" }] }
      const refused = await a.post("/v2/organizations/usergroups/add", body)
      expect(refused.status).toBe(404)
      expect(refused.body.error.message).toContain("createOrganization")
      expect((await a.post("/v2/organizations/usergroups/add", { ...body, createOrganization: true })).status).toBe(200)
      expect((await a.post("/v2/organizations/get", { organizationIds: ["new-org"] })).body.result.data).toHaveLength(1)
    })

    it("answers NOT_FOUND for an unknown group", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      await a.add({ organizationId: "org", users: [user("u1")] })
      for (const path of ["/v2/organizations/usergroups/users/add", "/v2/organizations/usergroups/users/delete"]) {
        const refused = await a.post(path, { organizationId: "org", organizationUserGroupId: "nope", userIds: ["u1"] })
        expect(refused.status).toBe(404)
        expect(refused.body.error.status).toBe("NOT_FOUND")
      }
    })

    it("validates its input", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      const cases: Array<[string, Record<string, unknown>, string]> = [
        ["/v2/organizations/usergroups/add", { organizationId: "org", organizationUserGroups: [] }, "data.organizationUserGroups"],
        ["/v2/organizations/usergroups/add", { organizationId: "org", organizationUserGroups: [{ groupId: "g" }] }, "data.organizationUserGroups[0].groupName"],
        ["/v2/organizations/usergroups/users/add", { organizationId: "org", organizationUserGroupId: "g", userIds: [] }, "data.userIds"],
        ["/v2/organizations/usergroups/users/delete", { organizationId: "org", organizationUserGroupId: "g" }, "data.userIds"]
      ]
      for (const [path, data, field] of cases) {
        const refused = await a.post(path, data)
        expect(refused.status, path).toBe(400)
        expect(refused.body.error.message).toContain(field)
      }
    })

    it("keeps groups per API key", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      const b = api(client, await workspace())
      await a.post("/v2/organizations/usergroups/add", { organizationId: "org", createOrganization: true, organizationUserGroups: [{ groupId: "g", groupName: "G" }] })
      await b.add({ organizationId: "org", users: [user("u1")] })
      const refused = await b.post("/v2/organizations/usergroups/users/add", { organizationId: "org", organizationUserGroupId: "g", userIds: ["u1"] })
      expect(refused.status).toBe(404)
    })
  })

  describe("caps (issue 21: one call's work stays short)", () => {
    it(`users/add, v1 and v2 users/update and users/delete take ${MAX_USERS_PER_CALL} users; one more is refused, nothing written`, async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      const users = (n: number, tag: string) => ids(`${tag}-`, n).map(user)
      await expectCap({ post: a.post, path: "/v2/users/add", field: "users", max: MAX_USERS_PER_CALL, data: (n, tag) => ({ organizationId: "org", users: users(n, tag) }) })
      expect(await a.userIds({ organizationId: "org", pageSize: 1000 })).toEqual(users(MAX_USERS_PER_CALL, "at").map((u) => u.userId).sort())
      for (const path of ["/v1/users/update", "/v2/users/update"]) {
        const updated = await expectCap({
          post: a.post,
          path,
          field: "users",
          max: MAX_USERS_PER_CALL,
          data: (n) => ({ organizationId: "org", users: users(n, "at").map((u) => ({ ...u, name: `${path} ${u.userId}` })) })
        })
        expect(Object.values(updated.body.result.data).every((item: any) => item.success)).toBe(true)
      }
      // The refused update changed nobody: every name is the last accepted call's.
      const names = (await a.get({ organizationId: "org", pageSize: 1000 })).body.result.data.map((u: { name: string }) => u.name)
      expect(names.every((name: string) => name.startsWith("/v2/users/update"))).toBe(true)
      const deleted = await expectCap({
        post: a.post,
        path: "/v2/users/delete",
        field: "userIds",
        max: MAX_USERS_PER_CALL,
        data: (n, tag) => ({ organizationId: "org", userIds: tag === "at" ? users(n, "at").map((u) => u.userId) : ids("at-", n) })
      })
      expect(Object.values(deleted.body.result.data).every((item: any) => item.success)).toBe(true)
      expect(await a.userIds({ organizationId: "org" })).toEqual([])
    })

    it(`usergroups/add, usergroups/users/add and usergroups/users/delete take ${MAX_GROUP_ENTRIES_PER_CALL} entries; one more is refused, nothing written`, async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      await a.add({ organizationId: "org", users: [user("u")] })
      await expectCap({
        post: a.post,
        path: "/v2/organizations/usergroups/add",
        field: "organizationUserGroups",
        max: MAX_GROUP_ENTRIES_PER_CALL,
        data: (n, tag) => ({ organizationId: "org", organizationUserGroups: ids(`${tag}-`, n).map((groupId) => ({ groupId, groupName: groupId })) })
      })
      const group = { organizationId: "org", organizationUserGroupId: "at-0" }
      await expectCap({ post: a.post, path: "/v2/organizations/usergroups/users/add", field: "userIds", max: MAX_GROUP_ENTRIES_PER_CALL, data: (n, tag) => ({ ...group, userIds: ids(`${tag}-`, n) }) })
      const members = await a.post("/v2/organizations/usergroups/users/delete", { ...group, deleteAll: true })
      expect(Object.keys(members.body.result.data).sort()).toEqual(ids("at-", MAX_GROUP_ENTRIES_PER_CALL).sort())
      await a.post("/v2/organizations/usergroups/users/add", { ...group, userIds: ids("at-", MAX_GROUP_ENTRIES_PER_CALL) })
      const removed = await expectCap({ post: a.post, path: "/v2/organizations/usergroups/users/delete", field: "userIds", max: MAX_GROUP_ENTRIES_PER_CALL, data: (n) => ({ ...group, userIds: ids("at-", n) }) })
      expect(Object.values(removed.body.result.data).every((item: any) => item.success)).toBe(true)
    })
  })

  describe("disabled organization", () => {
    it("refuses every user and group operation with PERMISSION_DENIED until re-enabled", async () => {
      const { client, workspace } = ctx()
      const a = api(client, await workspace())
      await a.add({ organizationId: "org", users: [user("u1")] })
      await a.post("/v2/organizations/usergroups/add", { organizationId: "org", organizationUserGroups: [{ groupId: "g", groupName: "G" }] })
      const disabled = await a.post("/v1/organizations/access/disablestate/update", { organizationIds: ["org"], disabled: true })
      expect(disabled.body.result.data.org.success).toBe(true)

      const calls: Array<[string, Record<string, unknown>]> = [
        ["/v2/users/add", { organizationId: "org", users: [user("u2")] }],
        ["/v2/users/get", { organizationId: "org" }],
        ["/v1/users/update", { organizationId: "org", users: [{ userId: "u1", name: "X" }] }],
        ["/v2/users/update", { organizationId: "org", users: [{ userId: "u1", name: "X" }] }],
        ["/v2/users/delete", { organizationId: "org", userIds: ["u1"] }],
        ["/v2/organizations/usergroups/add", { organizationId: "org", organizationUserGroups: [{ groupId: "g2", groupName: "G2" }] }],
        ["/v2/organizations/usergroups/users/add", { organizationId: "org", organizationUserGroupId: "g", userIds: ["u1"] }],
        ["/v2/organizations/usergroups/users/delete", { organizationId: "org", organizationUserGroupId: "g", deleteAll: true }]
      ]
      for (const [path, data] of calls) {
        const refused = await a.post(path, data)
        expect(refused.status, path).toBe(403)
        expect(refused.body.error.status).toBe("PERMISSION_DENIED")
      }

      await a.post("/v1/organizations/access/disablestate/update", { organizationIds: ["org"], disabled: false })
      expect(await a.userIds({ organizationId: "org" })).toEqual(["u1"])
    })
  })
})
