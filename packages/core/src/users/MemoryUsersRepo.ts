import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MemoryDb } from "../testing/memory/MemoryDb.js"
import { compareText } from "../TextOrder.js"
import { GROUP_MEMBERS_TABLE } from "./MemoryUserGroupsRepo.js"
import type { UserGroupMemberRow } from "./UserGroupsRepo.js"
import { type MembershipRow, type UserListOptions, type UserRow, UsersRepo } from "./UsersRepo.js"

export const MemoryUsersRepo = Layer.effect(
  UsersRepo,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const users = db.table<UserRow>("users")
    const memberships = db.table<MembershipRow>("user_memberships")
    const groupMembers = db.table<UserGroupMemberRow>(GROUP_MEMBERS_TABLE)
    const userKey = (apiKey: string, userId: string) => `${apiKey}\n${userId}`
    const membershipKey = (apiKey: string, organizationId: string, level: string, scopeId: string, userId: string) =>
      `${apiKey}\n${organizationId}\n${level}\n${scopeId}\n${userId}`

    /** The organization's memberships that pass the user and group filters. */
    const matching = (apiKey: string, organizationId: string, { groupIds, userIds }: UserListOptions) => {
      const inGroups = groupIds === undefined ? undefined : new Set(
        groupMembers.values()
          .filter((g) => g.apiKey === apiKey && g.organizationId === organizationId && groupIds.includes(g.groupId))
          .map((g) => g.userId)
      )
      return memberships.values().filter((m) =>
        m.apiKey === apiKey && m.organizationId === organizationId &&
        (userIds === undefined || userIds.includes(m.userId)) && (inGroups === undefined || inGroups.has(m.userId))
      )
    }

    return {
      findUser: (apiKey, userId) => Effect.sync(() => users.get(userKey(apiKey, userId))),
      putUser: (u) => Effect.sync(() => users.set(userKey(u.apiKey, u.userId), u)),
      findMembership: (apiKey, organizationId, level, scopeId, userId) =>
        Effect.sync(() => memberships.get(membershipKey(apiKey, organizationId, level, scopeId, userId))),
      putMembership: (m) =>
        Effect.sync(() => {
          const key = membershipKey(m.apiKey, m.organizationId, m.level, m.scopeId, m.userId)
          const existing = memberships.get(key)
          memberships.set(key, existing === undefined ? m : { ...existing, accessRole: m.accessRole, updatedAt: m.updatedAt })
        }),
      deleteMembership: (apiKey, organizationId, level, scopeId, userId) =>
        Effect.sync(() => memberships.delete(membershipKey(apiKey, organizationId, level, scopeId, userId))),
      deleteOrganizationMemberships: (apiKey, organizationId, userId) =>
        Effect.sync(() => {
          const removed = memberships.values().filter((m) =>
            m.apiKey === apiKey && m.organizationId === organizationId && m.userId === userId
          )
          for (const m of removed) memberships.delete(membershipKey(m.apiKey, m.organizationId, m.level, m.scopeId, m.userId))
          return removed.length > 0
        }),
      list: (apiKey, organizationId, filter, options) =>
        Effect.sync(() => {
          const ids = new Set(
            matching(apiKey, organizationId, options)
              .filter((m) =>
                m.level === filter.level && (filter.scopeId === undefined || m.scopeId === filter.scopeId) &&
                (options.after === undefined || compareText(m.userId, options.after) > 0)
              )
              .map((m) => m.userId)
          )
          return Array.from(ids).sort(compareText).slice(0, options.limit).map((userId) => users.get(userKey(apiKey, userId))!)
        }),
      listByDocument: (apiKey, organizationId, options) =>
        Effect.sync(() => {
          const { after } = options
          return matching(apiKey, organizationId, options)
            .filter((m) =>
              m.level === "document" &&
              (after === undefined || (compareText(m.scopeId, after.documentId) || compareText(m.userId, after.userId)) > 0)
            )
            .sort((a, b) => compareText(a.scopeId, b.scopeId) || compareText(a.userId, b.userId))
            .slice(0, options.limit)
            .map((m) => ({ documentId: m.scopeId, user: users.get(userKey(apiKey, m.userId))! }))
        })
    }
  })
)
