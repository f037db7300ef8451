/**
 * client presence/get (spec client-api.md, "Operations"; issue 24): the users on a document's list,
 * for a user who may read the document, over every storage.
 */
import { expect, it } from "vitest"
import { forEachBackend, type Started } from "../../../../test-support/backends.js"
import { userHeadersFor } from "../../src/testing/index.js"
import type { TestCredentials } from "../../src/testing/index.js"

forEachBackend("client presence/get", (ctx: () => Started) => {
  const ok = async (creds: TestCredentials, path: string, data: unknown) => {
    const answer = await ctx().client.post(path, data, creds.headers)
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
    return answer.body.result
  }

  it("lists who is on the document to a reader; refuses a user with no access, naming the document", async () => {
    const creds = await ctx().workspace()
    await ok(creds, "/v2/organizations/folders/add", { organizationId: "org", createOrganization: true, folders: [{ folderId: "closed", accessType: "restricted" }] })
    await ok(creds, "/v1/organizations/documents/add", { organizationId: "org", folderId: "closed", documents: [{ documentId: "doc" }] })
    await ok(creds, "/v2/presence/add", { organizationId: "org", documentId: "doc", users: [{ userId: "ann", name: "Ann", email: "ann@example.com" }, { userId: "bob", status: "away" }] })
    const reader = await userHeadersFor(ctx().client, creds.headers, "cat", [{ type: "document", id: "doc", organizationId: "org", accessRole: "viewer" }])
    const answer = await ctx().client.post("/v2/client/presence/get", { organizationId: "org", documentId: "doc" }, reader)
    expect(answer.status).toBe(200)
    expect(answer.body.result.message).toBe("Presence retrieved successfully.")
    expect(answer.body.result.data).toEqual([
      { userId: "ann", name: "Ann", email: "ann@example.com", status: "online", data: null, lastSeenAt: expect.any(Number) },
      { userId: "bob", name: null, email: null, status: "away", data: null, lastSeenAt: expect.any(Number) }
    ])
    const stranger = await userHeadersFor(ctx().client, creds.headers, "dan")
    const refused = await ctx().client.post("/v2/client/presence/get", { organizationId: "org", documentId: "doc" }, stranger)
    expect([refused.status, refused.body.error]).toEqual([403, { status: "PERMISSION_DENIED", message: "User dan has no access to document doc." }])
  })
})
