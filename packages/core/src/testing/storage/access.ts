/** access/: AccessRepo, the access rule's facts read from the other domains' rows. */
import * as Effect from "effect/Effect"
import { AccessRepo } from "../../access/AccessRepo.js"
import { DocumentsRepo } from "../../documents/DocumentsRepo.js"
import { FoldersRepo } from "../../folders/FoldersRepo.js"
import { OrganizationsRepo } from "../../organizations/OrganizationsRepo.js"
import { UserGroupsRepo } from "../../users/UserGroupsRepo.js"
import { UsersRepo } from "../../users/UsersRepo.js"
import { document, folder, membership, organization, type StorageCases, T0, unique } from "./fixtures.js"

export const cases: StorageCases = (it, expect) => {
  it.effect("AccessRepo: a document and organization not added yet have no facts but none", () =>
    Effect.gen(function*() {
      const access = yield* AccessRepo
      expect(yield* access.facts(unique("key"), "org", "doc", "u1")).toEqual({ organization: undefined, document: undefined, grants: [], inUserGroup: false })
    }))

  it.effect("AccessRepo: the organization's flag, the document's, its folder chain nearest first, and the user's grants and groups", () =>
    Effect.gen(function*() {
      const access = yield* AccessRepo
      const organizations = yield* OrganizationsRepo
      const documents = yield* DocumentsRepo
      const folders = yield* FoldersRepo
      const users = yield* UsersRepo
      const groups = yield* UserGroupsRepo
      const apiKey = unique("key")
      const other = unique("key")
      yield* organizations.upsert(organization(apiKey, "org", { disabled: true }))
      yield* folders.insert(folder(apiKey, "org", "outer"))
      yield* folders.insert({ ...folder(apiKey, "org", "middle", "outer"), accessType: "public" })
      yield* folders.insert({ ...folder(apiKey, "org", "inner", "middle"), ancestors: ["root", "outer", "middle"], accessType: "organizationPrivate", inheritAccessFromParent: true })
      yield* documents.insert({ ...document(apiKey, "org", "doc", { folderId: "inner", disabled: true }), accessType: "restricted" })
      yield* documents.insert(document(apiKey, "org", "at-root"))
      yield* users.putMembership(membership(apiKey, "org", "u1", { accessRole: "viewer" }))
      yield* users.putMembership(membership(apiKey, "org", "u1", { level: "folder", scopeId: "middle" }))
      yield* users.putMembership(membership(apiKey, "org", "u1", { level: "document", scopeId: "doc", accessRole: "viewer" }))
      // Not u1's, not this organization's, not this key's: none of them counts.
      yield* users.putMembership(membership(apiKey, "org", "u2", { level: "document", scopeId: "doc" }))
      yield* users.putMembership(membership(apiKey, "org2", "u1"))
      yield* users.putMembership(membership(other, "org", "u1", { level: "document", scopeId: "doc" }))

      const facts = yield* access.facts(apiKey, "org", "doc", "u1")
      expect(facts.organization).toEqual({ disabled: true })
      expect(facts.document).toEqual({
        disabled: true,
        accessType: "restricted",
        // Documents inherit their folder's type until documents/access/update gives them one (migration 0013).
        inheritAccess: true,
        folderChain: ["inner", "middle", "outer"],
        folderAccessType: "organizationPrivate"
      })
      expect([...facts.grants].sort((a, b) => a.level.localeCompare(b.level))).toEqual([
        { level: "document", id: "doc", accessRole: "viewer", expiresAt: undefined },
        { level: "folder", id: "middle", accessRole: "editor", expiresAt: undefined },
        { level: "organization", id: "org", accessRole: "viewer", expiresAt: undefined }
      ])
      expect(facts.inUserGroup).toBe(false)
      yield* groups.addMember(apiKey, "org", "group", "u1", T0)
      expect((yield* access.facts(apiKey, "org", "doc", "u1")).inUserGroup).toBe(true)
      expect((yield* access.facts(apiKey, "org2", "doc", "u1")).inUserGroup).toBe(false)

      const atRoot = yield* access.facts(apiKey, "org", "at-root", "u2")
      expect(atRoot.document).toMatchObject({ disabled: false, folderChain: [], folderAccessType: undefined })
      expect(atRoot.grants).toEqual([{ level: "document", id: "doc", accessRole: "editor", expiresAt: undefined }])
    }))
}
