/**
 * auth/permissions/add, get and remove and auth/generate_signature over every storage, per the
 * facts (compatible-api-facts.md §1.5): shapes and messages, what get answers being the access
 * rule's decision, expiry, NOT_FOUND with per-user details, and the signature's properties.
 */
import { createHmac } from "node:crypto"
import { expect, it } from "vitest"
import { forEachBackend, type Started } from "../../../../test-support/backends.js"
import type { TestCredentials } from "../../src/testing/index.js"

forEachBackend("auth/permissions", (ctx: () => Started) => {
  const post = (creds: TestCredentials, path: string, data: unknown) => ctx().client.post(path, data, creds.headers)
  const ok = async (creds: TestCredentials, path: string, data: unknown) => {
    const answer = await post(creds, path, data)
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
    return answer.body.result
  }
  const get = (creds: TestCredentials, data: unknown) => ok(creds, "/v2/auth/permissions/get", data)

  /** "org" with folder "closed" (restricted) holding document "secret", and "readme" (public) at the root. */
  const workspace = async () => {
    const creds = await ctx().workspace()
    await ok(creds, "/v2/organizations/folders/add", { organizationId: "org", createOrganization: true, folders: [{ folderId: "closed", accessType: "restricted" }] })
    await ok(creds, "/v1/organizations/documents/add", { organizationId: "org", folderId: "closed", documents: [{ documentId: "secret" }] })
    await ok(creds, "/v1/organizations/documents/add", { organizationId: "org", documents: [{ documentId: "readme" }] })
    return creds
  }

  it("add answers the facts' message without data; get answers what the rule decides, per user", async () => {
    const creds = await workspace()
    const added = await post(creds, "/v2/auth/permissions/add", {
      user: { userId: "ann" },
      permissions: { resources: [{ type: "organization", id: "org", accessRole: "viewer" }, { type: "document", id: "secret", organizationId: "org", accessRole: "editor", expiresAt: 4_102_444_800 }] }
    })
    expect(added.status).toBe(200)
    expect(added.body).toEqual({ result: { status: "success", message: "Permissions added successfully." } })
    const answer = await get(creds, { organizationId: "org", userIds: ["ann", "bob"], folderIds: ["closed"], documentIds: ["secret", "readme"] })
    expect(answer.message).toBe("User permissions retrieved successfully.")
    expect(answer.data).toEqual({
      ann: {
        organization: { org: { accessRole: "viewer" } },
        // The folder has no grant of ann's: her organization grant decides.
        folders: { closed: { accessRole: "viewer", accessType: "restricted" } },
        // Seconds are stored as ms.
        documents: { secret: { accessRole: "editor", accessType: "restricted", expiresAt: 4_102_444_800_000 }, readme: { accessRole: "viewer", accessType: "public" } }
      },
      bob: {
        organization: { org: { error: "User does not have access to organization", errorCode: "permission_denied" } },
        folders: { closed: { error: "User does not have access to folder", errorCode: "permission_denied", accessType: "restricted" } },
        documents: {
          secret: { error: "User does not have access to document", errorCode: "permission_denied", accessType: "restricted" },
          readme: { accessRole: "editor", accessType: "public" }
        }
      }
    })
  })

  it("add and remove are refused, and write nothing, while an organization they name is disabled", async () => {
    const creds = await workspace()
    await ok(creds, "/v2/organizations/add", { organizations: [{ organizationId: "open" }] })
    const grant = (organizationId: string) => ({ type: "document", id: "secret", organizationId, accessRole: "viewer" })
    await ok(creds, "/v2/auth/permissions/add", { user: { userId: "ann" }, permissions: { resources: [grant("org")] } })
    await ok(creds, "/v1/organizations/access/disablestate/update", { organizationIds: ["org"], disabled: true })
    const refusals = [
      ["/v2/auth/permissions/add", { user: { userId: "bob" }, permissions: { resources: [{ type: "organization", id: "open" }, grant("org")] } }],
      ["/v2/auth/permissions/remove", { userId: "ann", permissions: { resources: [{ type: "organization", id: "open" }, { type: "document", id: "secret", organizationId: "org" }] } }]
    ] as const
    for (const [path, data] of refusals) {
      const refused = await post(creds, path, data)
      expect({ status: refused.status, error: refused.body.error }, path).toEqual({ status: 403, error: { status: "PERMISSION_DENIED", message: "Organization org is disabled." } })
    }
    await ok(creds, "/v1/organizations/access/disablestate/update", { organizationIds: ["org"], disabled: false })
    const answer = await get(creds, { organizationId: "org", userIds: ["ann", "bob"], documentIds: ["secret"] })
    // ann's grant was not removed, and bob got none (nor on "open": the call wrote nothing).
    expect(answer.data.ann.documents.secret).toMatchObject({ accessRole: "viewer" })
    expect(answer.data.bob.documents.secret).toMatchObject({ errorCode: "permission_denied" })
    expect((await get(creds, { organizationId: "open", userIds: ["bob"] })).data.bob.organization.open).toMatchObject({ errorCode: "permission_denied" })
  })

  it("a grant past its expiresAt no longer counts; add again replaces it", async () => {
    const creds = await workspace()
    const grant = (expiresAt?: number) => ok(creds, "/v2/auth/permissions/add", {
      user: { userId: "ann" },
      permissions: { resources: [{ type: "folder", id: "closed", organizationId: "org", accessRole: "viewer", ...(expiresAt !== undefined && { expiresAt }) }] }
    })
    await grant(Math.floor(Date.now() / 1000) - 60)
    expect((await get(creds, { organizationId: "org", userIds: ["ann"], documentIds: ["secret"] })).data.ann.documents.secret.errorCode).toBe("permission_denied")
    await grant()
    expect((await get(creds, { organizationId: "org", userIds: ["ann"], documentIds: ["secret"] })).data.ann.documents.secret).toEqual({ accessRole: "viewer", accessType: "restricted" })
  })

  it("remove takes the grants away, and a grant users/add made too", async () => {
    const creds = await workspace()
    await ok(creds, "/v2/users/add", { organizationId: "org", documentId: "secret", users: [{ userId: "ann", accessRole: "editor" }] })
    await ok(creds, "/v2/auth/permissions/add", { user: { userId: "ann" }, permissions: { resources: [{ type: "organization", id: "org" }] } })
    const removed = await post(creds, "/v2/auth/permissions/remove", {
      userId: "ann",
      permissions: { resources: [{ type: "document", id: "secret", organizationId: "org" }, { type: "folder", id: "never-granted", organizationId: "org" }] }
    })
    expect(removed.body).toEqual({ result: { status: "success", message: "Permissions removed successfully." } })
    // Her organization grant (editor, the default role) is what is left.
    expect((await get(creds, { organizationId: "org", userIds: ["ann"], documentIds: ["secret"] })).data.ann.documents.secret).toEqual({ accessRole: "editor", accessType: "restricted" })
    await ok(creds, "/v2/auth/permissions/remove", { userId: "ann", permissions: { resources: [{ type: "organization", id: "org" }] } })
    expect((await get(creds, { organizationId: "org", userIds: ["ann"], documentIds: ["secret"] })).data.ann.documents.secret.errorCode).toBe("permission_denied")
  })

  it("a folder or document that does not exist is NOT_FOUND, with each user's missing ones in details", async () => {
    const creds = await workspace()
    const answer = await post(creds, "/v2/auth/permissions/get", { organizationId: "org", userIds: ["ann"], folderIds: ["nowhere"], documentIds: ["secret", "ghost"] })
    expect(answer.status).toBe(404)
    expect(answer.body.error).toEqual({
      status: "NOT_FOUND",
      message: "Folder or document does not exist",
      details: {
        ann: {
          folders: { nowhere: { error: "Folder or document does not exist", errorCode: "does_not_exist" } },
          documents: { ghost: { error: "Folder or document does not exist", errorCode: "does_not_exist" } }
        }
      }
    })
  })

  it("refuses a document or folder resource without organizationId, and an empty list", async () => {
    const creds = await workspace()
    const noOrganization = await post(creds, "/v2/auth/permissions/add", { user: { userId: "ann" }, permissions: { resources: [{ type: "document", id: "secret" }] } })
    expect(noOrganization.status).toBe(400)
    expect(noOrganization.body.error.message).toContain("organizationId")
    expect(noOrganization.body.error.message).toContain("is required when type is document")
    const empty = await post(creds, "/v2/auth/permissions/remove", { userId: "ann", permissions: { resources: [] } })
    expect(empty.status).toBe(400)
    expect(empty.body.error.status).toBe("INVALID_ARGUMENT")
  })

  it("generate_signature: 64 hex characters, the same for the same permissions and key, another for another key or answer", async () => {
    const a = await workspace()
    const b = await ctx().workspace()
    const permissions = [{ userId: "ann", resourceId: "secret", type: "document", hasAccess: true, accessRole: "viewer", expiresAt: 1_900_000_000_000 }]
    const sign = async (creds: TestCredentials, data: unknown) => {
      const result = await ok(creds, "/v2/auth/generate_signature", data)
      expect(result.message).toBe("Signature generated successfully.")
      return result.data.signature as string
    }
    const first = await sign(a, { permissions })
    expect(first).toMatch(/^[0-9a-f]{64}$/)
    // Key order in the request does not matter: the permissions are signed as canonical JSON.
    expect(await sign(a, { permissions: [{ expiresAt: 1_900_000_000_000, accessRole: "viewer", hasAccess: true, type: "document", resourceId: "secret", userId: "ann" }] })).toBe(first)
    expect(await sign(a, { permissions: [{ ...permissions[0], hasAccess: false }] })).not.toBe(first)
    expect(await sign(b, { permissions })).not.toBe(first)
    // Not a bare hash of the request: a key only this server holds is in it.
    expect(first).not.toBe(createHmac("sha256", "").update(JSON.stringify(permissions)).digest("hex"))
  })
})
