import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MemoryDb } from "../testing/memory/MemoryDb.js"
import { compareText } from "../TextOrder.js"
import { type UserGroupMemberRow, type UserGroupRow, UserGroupsRepo } from "./UserGroupsRepo.js"

/** Shared with MemoryUsersRepo, whose user lists filter by group. */
export const GROUP_MEMBERS_TABLE = "user_group_members"

export const MemoryUserGroupsRepo = Layer.effect(
  UserGroupsRepo,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const groups = db.table<UserGroupRow>("user_groups")
    const members = db.table<UserGroupMemberRow>(GROUP_MEMBERS_TABLE)
    const groupKey = (apiKey: string, organizationId: string, groupId: string) => `${apiKey}\n${organizationId}\n${groupId}`
    const memberKey = (apiKey: string, organizationId: string, groupId: string, userId: string) =>
      `${groupKey(apiKey, organizationId, groupId)}\n${userId}`
    const removeWhere = (predicate: (m: UserGroupMemberRow) => boolean) => {
      const removed = members.values().filter(predicate)
      for (const m of removed) members.delete(memberKey(m.apiKey, m.organizationId, m.groupId, m.userId))
      return removed
    }
    return {
      findGroup: (apiKey, organizationId, groupId) => Effect.sync(() => groups.get(groupKey(apiKey, organizationId, groupId))),
      putGroup: (g) =>
        Effect.sync(() => {
          const existing = groups.get(groupKey(g.apiKey, g.organizationId, g.groupId))
          groups.set(
            groupKey(g.apiKey, g.organizationId, g.groupId),
            existing === undefined ? g : { ...existing, name: g.name, updatedAt: g.updatedAt }
          )
        }),
      addMember: (apiKey, organizationId, groupId, userId, now) =>
        Effect.sync(() => {
          const key = memberKey(apiKey, organizationId, groupId, userId)
          if (members.get(key) === undefined) members.set(key, { apiKey, organizationId, groupId, userId, createdAt: now })
        }),
      removeMember: (apiKey, organizationId, groupId, userId) =>
        Effect.sync(() => members.delete(memberKey(apiKey, organizationId, groupId, userId))),
      removeAllMembers: (apiKey, organizationId, groupId) =>
        Effect.sync(() =>
          removeWhere((m) => m.apiKey === apiKey && m.organizationId === organizationId && m.groupId === groupId)
            .map((m) => m.userId)
            .sort(compareText)
        ),
      removeFromOrganizationGroups: (apiKey, organizationId, userId) =>
        Effect.sync(() =>
          removeWhere((m) => m.apiKey === apiKey && m.organizationId === organizationId && m.userId === userId).length > 0
        )
    }
  })
)
