/**
 * DocumentAccess over every storage (issue 23, item 1): the facts the service gathers — from
 * rows the server API wrote, from the token's entries and from the permission provider — give
 * the rule's answer. The rule's own order is access-rule.test.ts's; here each source of facts is
 * shown to reach it.
 */
import * as Effect from "effect/Effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { forEachBackend, type Started } from "../../../../test-support/backends.js"
import { type Receiver, startReceiver } from "../../../../test-support/receiver.js"
import { type AccessQuestion, DocumentAccess } from "../../src/access/DocumentAccess.js"
import { createAtrium } from "../../src/Atrium.js"
import type { PermissionQuery } from "../../src/access/PermissionProvider.js"
import { MemoryStorage, type TestCredentials } from "../../src/testing/index.js"
import type { TokenResource } from "../../src/tokens/Jwt.js"

let receiver: Receiver
beforeAll(async () => {
  receiver = await startReceiver()
})
afterAll(() => receiver.close())

forEachBackend("document access", (ctx: () => Started) => {
  const ok = async (creds: TestCredentials, path: string, data: unknown) => {
    const answer = await ctx().client.post(path, data, creds.headers)
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
    return answer.body.result
  }
  const check = (creds: TestCredentials, question: Omit<AccessQuestion, "apiKey">) =>
    ctx().atrium.runtime.runPromise(Effect.map(DocumentAccess.check({ apiKey: creds.apiKey, ...question }), (d) => [d.accessRole, d.reason]))
  const question = (userId: string, documentId: string, tokenResources?: ReadonlyArray<TokenResource>) => ({
    userId,
    organizationId: "org",
    documentId,
    ...(tokenResources !== undefined && { tokenResources })
  })

  /** Organization "org": folder "closed" (restricted) holding "secret", folder "open" (public) holding "notes", "readme" at the root. */
  const workspace = async () => {
    const creds = await ctx().workspace()
    await ok(creds, "/v2/organizations/folders/add", {
      organizationId: "org",
      createOrganization: true,
      folders: [{ folderId: "closed", accessType: "restricted" }, { folderId: "open", accessType: "public" }, { folderId: "inner", parentFolderId: "closed" }]
    })
    await ok(creds, "/v1/organizations/documents/add", { organizationId: "org", folderId: "closed", documents: [{ documentId: "secret" }] })
    await ok(creds, "/v1/organizations/documents/add", { organizationId: "org", folderId: "inner", documents: [{ documentId: "deep" }] })
    await ok(creds, "/v1/organizations/documents/add", { organizationId: "org", folderId: "open", documents: [{ documentId: "notes" }] })
    await ok(creds, "/v1/organizations/documents/add", { organizationId: "org", documents: [{ documentId: "readme" }] })
    return creds
  }

  it("a document takes its folder's access type, a folder its parent's; the root and documents not added yet are public", async () => {
    const creds = await workspace()
    expect(await check(creds, question("nobody", "secret"))).toEqual([null, "restricted document"])
    expect(await check(creds, question("nobody", "deep"))).toEqual([null, "restricted document"])
    expect(await check(creds, question("nobody", "notes"))).toEqual(["editor", "public document"])
    expect(await check(creds, question("nobody", "readme"))).toEqual(["editor", "public document"])
    expect(await check(creds, question("nobody", "not-added"))).toEqual(["editor", "public document"])
  })

  it("grants stored by users/add at document, folder and organization level: the most specific wins", async () => {
    const creds = await workspace()
    await ok(creds, "/v2/users/add", { organizationId: "org", users: [{ userId: "ann", accessRole: "editor" }, { userId: "bob", accessRole: "viewer" }] })
    await ok(creds, "/v2/users/add", { organizationId: "org", documentId: "secret", users: [{ userId: "ann", accessRole: "viewer" }] })
    await ok(creds, "/v2/users/add", { organizationId: "org", folderId: "closed", users: [{ userId: "cat", accessRole: "viewer" }] })
    // Organization editor + document viewer: viewer.
    expect(await check(creds, question("ann", "secret"))).toEqual(["viewer", "document grant"])
    // A folder grant reaches documents in its subfolders.
    expect(await check(creds, question("cat", "deep"))).toEqual(["viewer", "folder grant"])
    expect(await check(creds, question("cat", "notes"))).toEqual(["editor", "public document"])
    // An organization viewer stays a viewer on a public document.
    expect(await check(creds, question("bob", "notes"))).toEqual(["viewer", "organization grant"])
    // users/update v2 changes the stored role.
    await ok(creds, "/v2/users/update", { organizationId: "org", documentId: "secret", users: [{ userId: "ann", accessRole: "editor" }] })
    expect(await check(creds, question("ann", "secret"))).toEqual(["editor", "document grant"])
  })

  it("the token's entries count, beat a stored grant at the same level, and stop counting once expired", async () => {
    const creds = await workspace()
    await ok(creds, "/v2/users/add", { organizationId: "org", documentId: "secret", users: [{ userId: "ann", accessRole: "editor" }] })
    const entry = (accessRole: "viewer" | "editor", expiresAt?: number): TokenResource => ({
      type: "document",
      id: "secret",
      organizationId: "org",
      accessRole,
      ...(expiresAt !== undefined && { expiresAt })
    })
    expect(await check(creds, question("ann", "secret", [entry("viewer")]))).toEqual(["viewer", "document grant"])
    expect(await check(creds, question("ann", "secret", [entry("viewer", Date.now() - 1000)]))).toEqual(["editor", "document grant"])
    expect(await check(creds, question("dan", "secret", [entry("editor", Math.floor(Date.now() / 1000) + 3600)]))).toEqual(["editor", "document grant"])
    // An entry of another organization does not count here.
    expect(await check(creds, question("dan", "secret", [{ ...entry("editor"), organizationId: "elsewhere" }]))).toEqual([null, "restricted document"])
    expect(await check(creds, question("dan", "deep", [{ type: "folder", id: "closed", organizationId: "org", accessRole: "viewer" }]))).toEqual(["viewer", "folder grant"])
    expect(await check(creds, question("dan", "deep", [{ type: "organization", id: "org", accessRole: "viewer" }]))).toEqual(["viewer", "organization grant"])
  })

  it("organizationPrivate opens a folder's documents to the organization's user groups", async () => {
    const creds = await workspace()
    await ok(creds, "/v2/organizations/folders/add", { organizationId: "org", folders: [{ folderId: "team", accessType: "organizationPrivate" }] })
    await ok(creds, "/v1/organizations/documents/add", { organizationId: "org", folderId: "team", documents: [{ documentId: "plan" }] })
    await ok(creds, "/v2/organizations/usergroups/add", { organizationId: "org", organizationUserGroups: [{ groupId: "staff", groupName: "Staff" }] })
    await ok(creds, "/v2/organizations/usergroups/users/add", { organizationId: "org", organizationUserGroupId: "staff", userIds: ["eve"] })
    expect(await check(creds, question("eve", "plan"))).toEqual(["editor", "organization member"])
    expect(await check(creds, question("fay", "plan"))).toEqual([null, "not an organization member"])
  })

  it("a disabled organization closes every document; a disabled one is read only", async () => {
    const creds = await workspace()
    await ok(creds, "/v2/users/add", { organizationId: "org", documentId: "secret", users: [{ userId: "ann", accessRole: "editor" }] })
    await ok(creds, "/v2/organizations/access/disablestate/update", { organizationIds: ["org"], disabled: true })
    expect(await check(creds, question("ann", "secret"))).toEqual([null, "organization disabled"])
    expect(await check(creds, question("ann", "notes"))).toEqual([null, "organization disabled"])
  })

  it("with the permission provider on, it decides, asked with the document's folder", async () => {
    const creds = await workspace()
    await ok(creds, "/v2/users/add", { organizationId: "org", documentId: "secret", users: [{ userId: "ann", accessRole: "editor" }] })
    await ok(creds, "/v2/workspace/permissionproviderconfig/update", {
      usePermissionProvider: true,
      permissionProviderConfig: { permissionProviderUrl: receiver.url, authToken: "provider-token" }
    })
    receiver.received.length = 0
    receiver.answer = (request) => {
      const { data } = JSON.parse(request.body) as { data: { requests: ReadonlyArray<PermissionQuery> } }
      return {
        status: 200,
        body: JSON.stringify({ data: data.requests.map((q) => ({ userId: q.userId, resourceId: q.resource.id, type: q.resource.type, hasAccess: q.userId === "ann", accessRole: "viewer" })) })
      }
    }
    expect(await check(creds, question("ann", "secret"))).toEqual(["viewer", "permission provider"])
    expect(await check(creds, question("bob", "notes"))).toEqual([null, "permission provider"])
    expect(JSON.parse(receiver.received[0]!.body).data.requests).toEqual([
      { userId: "ann", resource: { id: "secret", type: "document", source: "setDocuments", organizationId: "org", parentFolderId: "closed" } }
    ])
    expect(receiver.received[0]!.headers.authorization).toBe("Bearer provider-token")
  })
}, { options: { allowPrivateNetworks: true } })

describe("a host's own permission resolver (createAtrium({ permissionResolver }))", () => {
  it("decides for every key instead of a URL, asked with the same queries, its answers kept", async () => {
    const asked: Array<ReadonlyArray<PermissionQuery>> = []
    const atrium = createAtrium({
      storage: MemoryStorage,
      permissionResolver: async (_apiKey, queries) => {
        asked.push(queries)
        return queries.map((q) => ({ userId: q.userId, resourceId: q.resource.id, type: q.resource.type, hasAccess: q.userId !== "mallory", accessRole: "viewer" as const }))
      }
    })
    try {
      const check = (userId: string) =>
        atrium.runtime.runPromise(Effect.map(DocumentAccess.check({ apiKey: "key", userId, organizationId: "org", documentId: "doc" }), (d) => [d.accessRole, d.reason]))
      expect(await check("ann")).toEqual(["viewer", "permission provider"])
      expect(await check("mallory")).toEqual([null, "permission provider"])
      expect(await check("ann")).toEqual(["viewer", "permission provider"])
      expect(asked.map((queries) => queries.map((q) => [q.userId, q.resource.type, q.resource.id, q.resource.source]))).toEqual([
        [["ann", "document", "doc", "setDocuments"]],
        [["mallory", "document", "doc", "setDocuments"]]
      ])
    } finally {
      await atrium.dispose()
    }
  })
})
