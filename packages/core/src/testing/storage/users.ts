/** users/: UsersRepo and UserGroupsRepo. */
import * as Effect from "effect/Effect"
import { UserGroupsRepo } from "../../users/UserGroupsRepo.js"
import { UsersRepo } from "../../users/UsersRepo.js"
import { allPages, membership, type StorageCases, T0, unique, user } from "./fixtures.js"

export const cases: StorageCases = (it, expect) => {
  it.effect("UsersRepo lists users once each by id, and (document, user) pairs in order", () =>
    Effect.gen(function*() {
      const users = yield* UsersRepo
      const groups = yield* UserGroupsRepo
      const apiKey = unique("key")
      for (const id of ["u3", "u1", "u2", "u4"]) yield* users.putUser(user(apiKey, id))
      for (const [documentId, userId] of [["d2", "u1"], ["d1", "u3"], ["d1", "u1"], ["d2", "u2"], ["d3", "u1"]]) {
        yield* users.putMembership(membership(apiKey, "org", userId!, { level: "document", scopeId: documentId! }))
      }
      yield* users.putMembership(membership(apiKey, "other-org", "u4", { level: "document", scopeId: "d1" }))
      const byUser = yield* allPages(
        (after?: string) => users.list(apiKey, "org", { level: "document" }, { limit: 2, ...(after !== undefined && { after }) }),
        (u) => u.userId,
        2
      )
      expect(byUser.map((u) => u.userId)).toEqual(["u1", "u2", "u3"])
      const ofD1 = yield* users.list(apiKey, "org", { level: "document", scopeId: "d1" }, { limit: 10 })
      expect(ofD1.map((u) => u.userId)).toEqual(["u1", "u3"])
      const pairs = yield* allPages(
        (after?: { readonly documentId: string; readonly userId: string }) => users.listByDocument(apiKey, "org", { limit: 2, ...(after && { after }) }),
        (p) => ({ documentId: p.documentId, userId: p.user.userId }),
        2
      )
      expect(pairs.map((p) => `${p.documentId}/${p.user.userId}`)).toEqual(["d1/u1", "d1/u3", "d2/u1", "d2/u2", "d3/u1"])
      yield* groups.addMember(apiKey, "org", "g1", "u2", T0)
      yield* groups.addMember(apiKey, "org", "g1", "u3", T0)
      expect((yield* users.list(apiKey, "org", { level: "document" }, { groupIds: ["g1"], userIds: ["u2", "u1"], limit: 10 }))
        .map((u) => u.userId)).toEqual(["u2"])
      expect((yield* users.listByDocument(apiKey, "org", { groupIds: ["g1"], limit: 10 })).map((p) => `${p.documentId}/${p.user.userId}`))
        .toEqual(["d1/u3", "d2/u2"])
    }))

  it.effect("UsersRepo and UserGroupsRepo: replace, memberships by level, group membership", () =>
    Effect.gen(function*() {
      const users = yield* UsersRepo
      const groups = yield* UserGroupsRepo
      const apiKey = unique("key")
      yield* users.putUser(user(apiKey, "u"))
      const replaced = user(apiKey, "u", { name: null, email: "u@example.com", photoUrl: "p", initial: "U", metadata: { k: "v" }, updatedAt: T0 + 1 })
      yield* users.putUser(replaced)
      expect(yield* users.findUser(apiKey, "u")).toEqual(replaced)
      yield* users.putUser(user(apiKey, "w"))
      expect((yield* users.findUsers(apiKey, ["w", "nobody", "u"])).map((found) => found.userId).sort()).toEqual(["u", "w"])
      expect(yield* users.findUsers(apiKey, [])).toEqual([])
      expect(yield* users.findUsers(unique("key"), ["u"])).toEqual([])
      const folderAccess = membership(apiKey, "org", "u", { level: "folder", scopeId: "f", accessRole: "viewer" })
      yield* users.putMembership(folderAccess)
      yield* users.putMembership({ ...folderAccess, accessRole: "editor", updatedAt: T0 + 2 })
      expect(yield* users.findMembership(apiKey, "org", "folder", "f", "u")).toEqual({ ...folderAccess, accessRole: "editor", updatedAt: T0 + 2 })
      yield* users.putMembership(membership(apiKey, "org", "u"))
      expect(yield* users.deleteMembership(apiKey, "org", "folder", "f", "u")).toBe(true)
      expect(yield* users.deleteMembership(apiKey, "org", "folder", "f", "u")).toBe(false)
      yield* users.putMembership(membership(apiKey, "org", "u", { level: "document", scopeId: "d" }))
      yield* users.putMembership(membership(apiKey, "other-org", "u"))
      // Where each removed grant was, ordered: what users/delete's events name.
      expect(yield* users.deleteOrganizationMemberships(apiKey, "org", "u")).toEqual([{ level: "document", scopeId: "d" }, { level: "organization", scopeId: "" }])
      expect(yield* users.deleteOrganizationMemberships(apiKey, "org", "u")).toEqual([])
      expect(yield* users.findMembership(apiKey, "other-org", "organization", "", "u")).toBeDefined()

      const group = { apiKey, organizationId: "org", groupId: "g", name: "G", createdAt: T0, updatedAt: T0 }
      yield* groups.putGroup(group)
      yield* groups.putGroup({ ...group, name: "G2", createdAt: T0 + 5, updatedAt: T0 + 5 })
      expect(yield* groups.findGroup(apiKey, "org", "g")).toEqual({ ...group, name: "G2", updatedAt: T0 + 5 })
      for (const id of ["u2", "u1", "u2"]) yield* groups.addMember(apiKey, "org", "g", id, T0)
      yield* groups.addMember(apiKey, "org", "g2", "u1", T0)
      expect(yield* groups.removeMember(apiKey, "org", "g", "nobody")).toBe(false)
      expect(yield* groups.removeFromOrganizationGroups(apiKey, "org", "u1")).toEqual(["g", "g2"])
      expect(yield* groups.removeFromOrganizationGroups(apiKey, "org", "u1")).toEqual([])
      expect(yield* groups.removeAllMembers(apiKey, "org", "g")).toEqual(["u2"])
      expect(yield* groups.removeAllMembers(apiKey, "org", "g")).toEqual([])
    }))
}
