import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { accessEvents } from "../access/AccessEvents.js"
import { Events } from "../events/Events.js"
import { OrganizationsRepo } from "../organizations/OrganizationsRepo.js"
import { notFound } from "../protocol/ApiError.js"
import { lockInOrder, Transactions } from "../ports/Transactions.js"
import type { AddGroupUsersInput, AddUserGroupsInput, DeleteGroupUsersInput } from "./UserGroupSchemas.js"
import { UserGroupsRepo } from "./UserGroupsRepo.js"
import { userLock } from "./UsersRepo.js"

type GroupUserItem = { success: boolean; organizationUserGroupId: string; message: string }

/**
 * Organization user groups (docs/compatibility.md, "Users"): named sets of user ids, a filter of
 * users/get, and the organization's members for `organizationPrivate` (the access rule), so adding
 * and removing members emits `access.group_member_added` / `_removed`.
 */
export class UserGroups extends Effect.Service<UserGroups>()("@atrium/core/UserGroups", {
  accessors: true,
  effect: Effect.gen(function*() {
    const repo = yield* UserGroupsRepo
    const organizations = yield* OrganizationsRepo
    const events = yield* Events
    const { lock, withTransaction } = yield* Transactions

    /**
     * The users a call adds to or removes from a group, locked before any is written and in one order
     * (`lockInOrder`), as users/delete locks them: each membership is held until the call commits, and two
     * calls naming the same users in other orders would each wait for the other.
     */
    const lockUsers = (apiKey: string, userIds: ReadonlyArray<string>) => lockInOrder(lock, userIds.map((userId) => userLock(apiKey, userId)))

    const requireGroup = (apiKey: string, organizationId: string, groupId: string) =>
      Effect.flatMap(repo.findGroup(apiKey, organizationId, groupId), (group) =>
        group === undefined
          ? notFound(`Organization user group ${groupId} does not exist in organization ${organizationId}.`)
          : Effect.void)

    const entry = (groupId: string, done: boolean, message: string): GroupUserItem => ({
      success: done,
      organizationUserGroupId: groupId,
      message
    })

    return {
      /** Adds groups, or renames existing ones; a missing organization is created only with createOrganization. */
      add: (apiKey: string, input: typeof AddUserGroupsInput.Type) =>
        withTransaction(Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          if (input.createOrganization === true) yield* organizations.ensure(apiKey, input.organizationId, now)
          else if ((yield* organizations.find(apiKey, input.organizationId)) === undefined) {
            return yield* notFound(`Organization ${input.organizationId} does not exist; pass createOrganization: true to create it.`)
          }
          // Each group is an upsert, its row held until the call commits: the call's groups are locked first, in one order.
          yield* lockInOrder(lock, input.organizationUserGroups.map(({ groupId }) => ["user-group", apiKey, input.organizationId, groupId]))
          const data: Record<string, { success: boolean; id: string; message: string }> = {}
          for (const { groupId, groupName } of input.organizationUserGroups) {
            yield* withTransaction(repo.putGroup({
              apiKey,
              organizationId: input.organizationId,
              groupId,
              name: groupName,
              createdAt: now,
              updatedAt: now
            }))
            data[groupId] = { success: true, id: groupId, message: "Organization user group added." }
          }
          return data
        })),

      addUsers: (apiKey: string, input: typeof AddGroupUsersInput.Type) =>
        withTransaction(Effect.gen(function*() {
          const { organizationId, organizationUserGroupId: groupId } = input
          yield* requireGroup(apiKey, organizationId, groupId)
          yield* lockUsers(apiKey, input.userIds)
          const now = yield* Clock.currentTimeMillis
          const data: Record<string, GroupUserItem> = {}
          for (const userId of input.userIds) {
            yield* withTransaction(repo.addMember(apiKey, organizationId, groupId, userId, now))
            data[userId] = entry(groupId, true, "User added to organization user group.")
          }
          yield* events.emit(apiKey, [...new Set(input.userIds)].map((userId) => accessEvents.groupMemberAdded(userId, organizationId, groupId)))
          return data
        })),

      /** With deleteAll, every member leaves and each is reported; otherwise each listed user. */
      deleteUsers: (apiKey: string, input: typeof DeleteGroupUsersInput.Type) =>
        withTransaction(Effect.gen(function*() {
          const { organizationId, organizationUserGroupId: groupId } = input
          yield* requireGroup(apiKey, organizationId, groupId)
          const deleted = entry(groupId, true, "User deleted from organization user group.")
          const data: Record<string, GroupUserItem> = {}
          const removed: Array<string> = []
          if (input.deleteAll === true) {
            removed.push(...yield* withTransaction(repo.removeAllMembers(apiKey, organizationId, groupId)))
            for (const userId of removed) data[userId] = deleted
          } else {
            yield* lockUsers(apiKey, input.userIds ?? [])
            for (const userId of input.userIds ?? []) {
              const wasMember = yield* withTransaction(repo.removeMember(apiKey, organizationId, groupId, userId))
              if (wasMember) removed.push(userId)
              data[userId] = wasMember ? deleted : entry(groupId, false, "User is not in the organization user group.")
            }
          }
          yield* events.emit(apiKey, removed.map((userId) => accessEvents.groupMemberRemoved(userId, organizationId, groupId)))
          return data
        }))
    }
  })
}) {}
