import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

export interface UserGroupRow {
  readonly apiKey: string
  readonly organizationId: string
  readonly groupId: string
  readonly name: string
  readonly createdAt: number
  readonly updatedAt: number
}

/** A user id in an organization user group. */
export interface UserGroupMemberRow {
  readonly apiKey: string
  readonly organizationId: string
  readonly groupId: string
  readonly userId: string
  readonly createdAt: number
}

/** Storage port: organization user groups and their members (user ids). */
export class UserGroupsRepo extends Context.Tag("@atrium/core/UserGroupsRepo")<UserGroupsRepo, {
  readonly findGroup: (apiKey: string, organizationId: string, groupId: string) => Effect.Effect<UserGroupRow | undefined>
  /** Inserts the group, or renames the existing one. */
  readonly putGroup: (row: UserGroupRow) => Effect.Effect<void>
  /** Adds the user to the group; nothing happens when it is a member already. */
  readonly addMember: (apiKey: string, organizationId: string, groupId: string, userId: string, now: number) => Effect.Effect<void>
  /** False when the user was not a member. */
  readonly removeMember: (apiKey: string, organizationId: string, groupId: string, userId: string) => Effect.Effect<boolean>
  /** Empties the group; the user ids that were members, ordered. */
  readonly removeAllMembers: (apiKey: string, organizationId: string, groupId: string) => Effect.Effect<ReadonlyArray<string>>
  /** Removes the user from every group of the organization; the ids of the groups it was in, ordered. */
  readonly removeFromOrganizationGroups: (apiKey: string, organizationId: string, userId: string) => Effect.Effect<ReadonlyArray<string>>
}>() {}
