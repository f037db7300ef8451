import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { AccessRole } from "./UserSchemas.js"

/** Where a membership applies: the organization itself, or one of its documents or folders. */
export type MembershipLevel = "organization" | "document" | "folder"

/** A user of an API key: one record per userId, whatever organizations it belongs to. */
export interface UserRow {
  readonly apiKey: string
  readonly userId: string
  /** Server-made id, returned as the per-item `id` of users/add and users/update. */
  readonly internalId: string
  readonly name: string | null
  readonly email: string | null
  readonly photoUrl: string | null
  readonly initial: string | null
  /** Caller-supplied user fields beyond the named ones (the SDK's User model: docs/compatibility.md, "Users"). */
  readonly metadata: Readonly<Record<string, unknown>>
  readonly createdAt: number
  readonly updatedAt: number
}

/** A user's access to an organization, or to one document or folder of it. */
export interface MembershipRow {
  readonly apiKey: string
  readonly organizationId: string
  readonly level: MembershipLevel
  /** The document or folder id; the empty string at organization level. */
  readonly scopeId: string
  readonly userId: string
  readonly accessRole: AccessRole
  /** Epoch ms past which the grant no longer counts (auth/permissions/add); undefined: no end. */
  readonly expiresAt?: number | undefined
  readonly createdAt: number
  readonly updatedAt: number
}

/** The transaction lock every change of one user's record or grants takes first (`Transactions.lock`). */
export const userLock = (apiKey: string, userId: string) => ["user", apiKey, userId] as const

/** A user with nothing but its id, as a grant to a user not added yet makes it. */
export const newUser = (apiKey: string, userId: string, internalId: string, now: number): UserRow => ({
  apiKey,
  userId,
  internalId,
  name: null,
  email: null,
  photoUrl: null,
  initial: null,
  metadata: {},
  createdAt: now,
  updatedAt: now
})

/** Which memberships a user list reads: a level, and the document or folder (any of that level when omitted). */
export interface MembershipFilter {
  readonly level: MembershipLevel
  readonly scopeId?: string
}

export interface UserListOptions {
  readonly userIds?: ReadonlyArray<string>
  /** Only members of at least one of these organization user groups. */
  readonly groupIds?: ReadonlyArray<string>
  readonly limit: number
}

export interface DocumentUser {
  readonly documentId: string
  readonly user: UserRow
}

/** Storage port: users of an API key and their memberships in organizations, documents and folders. */
export class UsersRepo extends Context.Tag("@atrium/core/UsersRepo")<UsersRepo, {
  readonly findUser: (apiKey: string, userId: string) => Effect.Effect<UserRow | undefined>
  /** Those of these users the key has, in no order. */
  readonly findUsers: (apiKey: string, userIds: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<UserRow>>
  /** Inserts the user, or replaces every field of the existing one. */
  readonly putUser: (row: UserRow) => Effect.Effect<void>
  readonly findMembership: (
    apiKey: string,
    organizationId: string,
    level: MembershipLevel,
    scopeId: string,
    userId: string
  ) => Effect.Effect<MembershipRow | undefined>
  /** Inserts the membership, or updates the role and expiry of the existing one. */
  readonly putMembership: (row: MembershipRow) => Effect.Effect<void>
  /** False when there was no such membership. */
  readonly deleteMembership: (
    apiKey: string,
    organizationId: string,
    level: MembershipLevel,
    scopeId: string,
    userId: string
  ) => Effect.Effect<boolean>
  /** Removes every membership of the user in the organization, at every level: where each was (none: there was none). */
  readonly deleteOrganizationMemberships: (
    apiKey: string,
    organizationId: string,
    userId: string
  ) => Effect.Effect<ReadonlyArray<{ readonly level: MembershipLevel; readonly scopeId: string }>>
  /** Keyset page of the users holding a membership that matches `filter`, each once, ordered by userId. */
  readonly list: (
    apiKey: string,
    organizationId: string,
    filter: MembershipFilter,
    options: UserListOptions & { readonly after?: string }
  ) => Effect.Effect<ReadonlyArray<UserRow>>
  /** Keyset page of (document, user) pairs of the organization's document memberships, ordered by documentId then userId. */
  readonly listByDocument: (
    apiKey: string,
    organizationId: string,
    options: UserListOptions & { readonly after?: { readonly documentId: string; readonly userId: string } }
  ) => Effect.Effect<ReadonlyArray<DocumentUser>>
}>() {}
