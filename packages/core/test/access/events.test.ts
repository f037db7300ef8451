/**
 * Every write the access rule reads emits its event, inside its transaction, so realtime can
 * re-check who may read what (issue 23 item 2; docs/decisions.md, "Access"): grants (auth/permissions,
 * users/add, users/update, users/delete), user group members, the organization's disabled flag,
 * a document's folder, the permission provider, and the jobs that remove or move such rows. Each
 * event's type, data and channels, over every storage. The access-type operations' events are
 * tested beside them (documents/access.test.ts, folders/access.test.ts); that no write of these
 * facts goes without an event, from the operation table: every-write-emits.test.ts.
 */
import { JobRunner } from "@atrium/core"
import { expect, it } from "vitest"
import { forEachBackend, type Started } from "../../../../test-support/backends.js"
import { eventRecorder } from "../../../../test-support/eventRecorder.js"
import type { TestCredentials } from "../../src/testing/index.js"

const { eventsOf, listener: recorder } = eventRecorder()

const organization = (id: string) => ({ type: "organization", id, organizationId: id })
const folder = (organizationId: string, id: string) => ({ type: "folder", id, organizationId })
const document = (organizationId: string, id: string) => ({ type: "document", id, organizationId })

forEachBackend("access events", (ctx: () => Started) => {
  const ok = async (creds: TestCredentials, path: string, data: unknown) => {
    const answer = await ctx().client.post(path, data, creds.headers)
    if (answer.status >= 300) throw new Error(`${path}: ${answer.status} ${answer.text}`)
    return answer.body.result
  }
  /** The events the key's calls in `act` emitted, as [type, data, channels, organizationId]. */
  const emittedBy = async (creds: TestCredentials, act: () => Promise<unknown>) => {
    const before = eventsOf(creds.apiKey).length
    await act()
    return eventsOf(creds.apiKey).slice(before).map((e) => [e.type, e.data, e.channels, e.organizationId])
  }
  const call = (creds: TestCredentials, path: string, data: unknown) => emittedBy(creds, () => ok(creds, path, data))
  const runJobs = async () => {
    while ((await ctx().atrium.runtime.runPromise(JobRunner.runDue("test"))) > 0) {
      // Until nothing is due.
    }
  }

  /** "org" with folder "f" holding document "d", and group "g". */
  const workspace = async () => {
    const creds = await ctx().workspace()
    await ok(creds, "/v2/organizations/folders/add", { organizationId: "org", createOrganization: true, folders: [{ folderId: "f" }] })
    await ok(creds, "/v1/organizations/documents/add", { organizationId: "org", folderId: "f", documents: [{ documentId: "d" }] })
    await ok(creds, "/v2/organizations/usergroups/add", { organizationId: "org", organizationUserGroups: [{ groupId: "g", groupName: "G" }] })
    return creds
  }

  it("auth/permissions/add: access.granted per resource, expiresAt in ms; remove: access.revoked per grant removed", async () => {
    const creds = await workspace()
    expect(await call(creds, "/v2/auth/permissions/add", {
      user: { userId: "ann" },
      permissions: { resources: [{ type: "organization", id: "org", accessRole: "viewer" }, { type: "document", id: "d", organizationId: "org", expiresAt: 4_102_444_800 }] }
    })).toEqual([
      ["access.granted", { userId: "ann", resource: organization("org"), accessRole: "viewer" }, ["org"], "org"],
      ["access.granted", { userId: "ann", resource: document("org", "d"), accessRole: "editor", expiresAt: 4_102_444_800_000 }, ["org", "org/d"], "org"]
    ])
    expect(await call(creds, "/v2/auth/permissions/remove", {
      userId: "ann",
      permissions: { resources: [{ type: "document", id: "d", organizationId: "org" }, { type: "folder", id: "f", organizationId: "org" }] }
    })).toEqual([["access.revoked", { userId: "ann", resource: document("org", "d") }, ["org", "org/d"], "org"]])
  })

  it("users/add: access.granted per user at the level named, editor by default", async () => {
    const creds = await workspace()
    expect(await call(creds, "/v2/users/add", { organizationId: "org", users: [{ userId: "ann" }, { userId: "bob", accessRole: "viewer" }] })).toEqual([
      ["access.granted", { userId: "ann", resource: organization("org"), accessRole: "editor" }, ["org"], "org"],
      ["access.granted", { userId: "bob", resource: organization("org"), accessRole: "viewer" }, ["org"], "org"]
    ])
    expect(await call(creds, "/v2/users/add", { organizationId: "org", folderId: "f", users: [{ userId: "ann", accessRole: "viewer" }] })).toEqual([
      ["access.granted", { userId: "ann", resource: folder("org", "f"), accessRole: "viewer" }, ["org"], "org"]
    ])
    // A document made on the way lies at the root, where a document not added yet is judged: only the grant changes access.
    expect(await call(creds, "/v2/users/add", { organizationId: "org", documentId: "new", createDocument: true, users: [{ userId: "ann" }] })).toEqual([
      ["access.granted", { userId: "ann", resource: document("org", "new"), accessRole: "editor" }, ["org", "org/new"], "org"]
    ])
    // A call that fails writes nothing and emits nothing.
    const refused = await emittedBy(creds, () => ctx().client.post("/v2/users/add", { organizationId: "org", documentId: "ghost", users: [{ userId: "ann" }] }, creds.headers))
    expect(refused).toEqual([])
  })

  it("users/update: v2 access.granted per user whose accessRole it sets, keeping the grant's expiry; v1 and no accessRole emit nothing", async () => {
    const creds = await workspace()
    await ok(creds, "/v2/auth/permissions/add", { user: { userId: "ann" }, permissions: { resources: [{ type: "document", id: "d", organizationId: "org", expiresAt: 4_102_444_800_000 }] } })
    expect(await call(creds, "/v2/users/update", { organizationId: "org", documentId: "d", users: [{ userId: "ann", accessRole: "viewer" }, { userId: "nobody", accessRole: "viewer" }] })).toEqual([
      ["access.granted", { userId: "ann", resource: document("org", "d"), accessRole: "viewer", expiresAt: 4_102_444_800_000 }, ["org", "org/d"], "org"]
    ])
    expect(await call(creds, "/v2/users/update", { organizationId: "org", documentId: "d", users: [{ userId: "ann", name: "Ann" }] })).toEqual([])
    expect(await call(creds, "/v1/users/update", { organizationId: "org", documentId: "d", users: [{ userId: "ann", name: "Ann" }] })).toEqual([])
  })

  it("users/delete: access.revoked per grant removed, at every level for the organization, and access.group_member_removed per group left", async () => {
    const creds = await workspace()
    await ok(creds, "/v2/users/add", { organizationId: "org", users: [{ userId: "ann" }, { userId: "bob" }] })
    await ok(creds, "/v2/users/add", { organizationId: "org", documentId: "d", users: [{ userId: "ann" }] })
    await ok(creds, "/v2/users/add", { organizationId: "org", folderId: "f", users: [{ userId: "ann" }] })
    await ok(creds, "/v2/organizations/usergroups/users/add", { organizationId: "org", organizationUserGroupId: "g", userIds: ["ann"] })
    expect(await call(creds, "/v2/users/delete", { organizationId: "org", documentId: "d", userIds: ["ann", "bob"] })).toEqual([
      ["access.revoked", { userId: "ann", resource: document("org", "d") }, ["org", "org/d"], "org"]
    ])
    expect(await call(creds, "/v2/users/delete", { organizationId: "org", userIds: ["ann", "nobody"] })).toEqual([
      ["access.revoked", { userId: "ann", resource: folder("org", "f") }, ["org"], "org"],
      ["access.revoked", { userId: "ann", resource: organization("org") }, ["org"], "org"],
      ["access.group_member_removed", { userId: "ann", resource: organization("org"), organizationUserGroupId: "g" }, ["org"], "org"]
    ])
  })

  it("usergroups/users/add: access.group_member_added per user; delete: access.group_member_removed per member removed, deleteAll too", async () => {
    const creds = await workspace()
    expect(await call(creds, "/v2/organizations/usergroups/users/add", { organizationId: "org", organizationUserGroupId: "g", userIds: ["ann", "bob", "ann", "cy"] })).toEqual(
      ["ann", "bob", "cy"].map((userId) => ["access.group_member_added", { userId, resource: organization("org"), organizationUserGroupId: "g" }, ["org"], "org"])
    )
    expect(await call(creds, "/v2/organizations/usergroups/users/delete", { organizationId: "org", organizationUserGroupId: "g", userIds: ["bob", "nobody"] })).toEqual([
      ["access.group_member_removed", { userId: "bob", resource: organization("org"), organizationUserGroupId: "g" }, ["org"], "org"]
    ])
    expect(await call(creds, "/v2/organizations/usergroups/users/delete", { organizationId: "org", organizationUserGroupId: "g", deleteAll: true })).toEqual(
      ["ann", "cy"].map((userId) => ["access.group_member_removed", { userId, resource: organization("org"), organizationUserGroupId: "g" }, ["org"], "org"])
    )
    // Groups themselves decide nothing until they have members.
    expect(await call(creds, "/v2/organizations/usergroups/add", { organizationId: "org", organizationUserGroups: [{ groupId: "g2", groupName: "Two" }] })).toEqual([])
  })

  it("organizations/access/disablestate/update: access.organization_disabled_updated per organization that exists", async () => {
    const creds = await workspace()
    await ok(creds, "/v2/organizations/add", { organizations: [{ organizationId: "other" }] })
    expect(await call(creds, "/v1/organizations/access/disablestate/update", { organizationIds: ["org", "missing", "other"], disabled: true })).toEqual([
      ["access.organization_disabled_updated", { resource: organization("org"), disabled: true }, ["org"], "org"],
      ["access.organization_disabled_updated", { resource: organization("other"), disabled: true }, ["other"], "other"]
    ])
    expect(await call(creds, "/v2/organizations/access/disablestate/update", { organizationIds: ["org"], disabled: false })).toEqual([
      ["access.organization_disabled_updated", { resource: organization("org"), disabled: false }, ["org"], "org"]
    ])
    // An organization's own record is no access fact.
    expect(await call(creds, "/v2/organizations/add", { organizations: [{ organizationId: "org", organizationName: "Renamed" }, { organizationId: "third" }] })).toEqual([])
  })

  it("documents/add: access.document_folder_updated for a document added in a folder or moved to another; none at the root or where it was", async () => {
    const creds = await workspace()
    await ok(creds, "/v2/organizations/folders/add", { organizationId: "org", folders: [{ folderId: "f2", accessType: "restricted" }] })
    const moved = (id: string, folderId: string | null) =>
      ["access.document_folder_updated", { resource: document("org", id), folderId }, ["org", `org/${id}`], "org"]
    expect(await call(creds, "/v1/organizations/documents/add", { organizationId: "org", documents: [{ documentId: "root-doc" }] })).toEqual([])
    expect(await call(creds, "/v1/organizations/documents/add", { organizationId: "org", folderId: "f2", documents: [{ documentId: "new" }, { documentId: "d" }] }))
      .toEqual([moved("new", "f2"), moved("d", "f2")])
    expect(await call(creds, "/v1/organizations/documents/add", { organizationId: "org", folderId: "f2", documents: [{ documentId: "d", documentName: "Renamed" }] })).toEqual([])
    // v1 without folderId puts the document at the root (docs/decisions.md, "Product rulings").
    expect(await call(creds, "/v1/organizations/documents/add", { organizationId: "org", documents: [{ documentId: "d" }] })).toEqual([moved("d", null)])
    expect(await call(creds, "/v2/organizations/documents/add", { organizationId: "org", folderId: "made", createFolder: true, documents: [{ documentId: "v2" }] }))
      .toEqual([moved("v2", "made")])
    // Folders hold no document when added: nothing anyone was judged on changes.
    expect(await call(creds, "/v2/organizations/folders/add", { organizationId: "org", folders: [{ folderId: "f3", parentFolderId: "f2" }] })).toEqual([])
  })

  it("permissionproviderconfig/update: access.permission_provider_updated on no channel, without the settings themselves", async () => {
    const creds = await workspace()
    expect(await call(creds, "/v2/workspace/permissionproviderconfig/update", {
      usePermissionProvider: true,
      permissionProviderConfig: { permissionProviderUrl: "https://perm.example.com/check", authToken: "provider-secret-token" }
    })).toEqual([["access.permission_provider_updated", { usePermissionProvider: true }, [], null]])
    expect(await call(creds, "/v2/workspace/permissionproviderconfig/update", { usePermissionProvider: false }))
      .toEqual([["access.permission_provider_updated", { usePermissionProvider: false }, [], null]])
  })

  it("users/data/delete: access.user_data_deleted per organization and user whose grants or group memberships a task removed", async () => {
    const creds = await workspace()
    await ok(creds, "/v2/users/add", { organizationId: "org", documentId: "d", users: [{ userId: "ann" }] })
    await ok(creds, "/v2/users/add", { organizationId: "other", users: [{ userId: "ann" }, { userId: "bob" }] })
    await ok(creds, "/v2/organizations/usergroups/users/add", { organizationId: "org", organizationUserGroupId: "g", userIds: ["ann"] })
    // Starting the job writes only the job.
    expect(await call(creds, "/v2/users/data/delete", { userIds: ["ann", "bob", "nobody"] })).toEqual([])
    const deleted = (userId: string, organizationId: string) =>
      ["access.user_data_deleted", { userId, resource: organization(organizationId) }, [organizationId], organizationId]
    // The group members' task, then the grants' (the users domain's order of its tables): one event per organization and user each.
    expect(await emittedBy(creds, runJobs)).toEqual([deleted("ann", "org"), deleted("ann", "org"), deleted("ann", "other"), deleted("bob", "other")])
    // Narrowed to an organization: only there.
    await ok(creds, "/v2/users/add", { organizationId: "org", users: [{ userId: "cy" }] })
    await ok(creds, "/v2/users/add", { organizationId: "other", users: [{ userId: "cy" }] })
    await ok(creds, "/v2/users/data/delete", { userIds: ["cy"], organizationIds: ["other"] })
    expect(await emittedBy(creds, runJobs)).toEqual([deleted("cy", "other")])
  })

  it("documents/migrate: access.document_migrated when a task moved the document's row, and again when one moved its grants", async () => {
    const creds = await workspace()
    const migrated = ["access.document_migrated", { resource: document("org", "d"), newDocumentId: "d2" }, ["org", "org/d", "org/d2"], "org"]
    await ok(creds, "/v2/users/add", { organizationId: "org", documentId: "d", users: [{ userId: "ann", accessRole: "viewer" }] })
    expect(await call(creds, "/v2/organizations/documents/migrate", { organizationId: "org", documentId: "d", newDocumentId: "d2" })).toEqual([])
    expect(await emittedBy(creds, runJobs)).toEqual([migrated, migrated])
    // A document without grants: its row alone.
    expect(await emittedBy(creds, async () => {
      await ok(creds, "/v2/users/delete", { organizationId: "org", documentId: "d2", userIds: ["ann"] })
      await ok(creds, "/v2/organizations/documents/migrate", { organizationId: "org", documentId: "d2", newDocumentId: "d3" })
      await runJobs()
    })).toEqual([
      ["access.revoked", { userId: "ann", resource: document("org", "d2") }, ["org", "org/d2"], "org"],
      ["access.document_migrated", { resource: document("org", "d2"), newDocumentId: "d3" }, ["org", "org/d2", "org/d3"], "org"]
    ])
  })
}, { listeners: [recorder] })
