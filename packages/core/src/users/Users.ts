import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { DocumentsRepo, newDocument } from "../documents/DocumentsRepo.js"
import { FoldersRepo, implicitFolder } from "../folders/FoldersRepo.js"
import { OrganizationsRepo } from "../organizations/OrganizationsRepo.js"
import { notFound } from "../protocol/ApiError.js"
import { pageOf, type PageScope, PageTokens } from "../protocol/PageTokens.js"
import { Ids } from "../ports/Ids.js"
import { Transactions } from "../ports/Transactions.js"
import { UserGroupsRepo } from "./UserGroupsRepo.js"
import type {
  AddUsersInput,
  DeleteUsersInput,
  GetUsersInput,
  UpdateUsersV2Input,
  User,
  UserInput
} from "./UserSchemas.js"
import { type MembershipLevel, newUser, type UserRow, userLock, UsersRepo } from "./UsersRepo.js"

const DEFAULT_PAGE_SIZE = 1000

/** The level a call acts on: a document, a folder, or else the organization itself. */
interface Scope {
  readonly level: MembershipLevel
  readonly scopeId: string
}

const scopeOf = (input: { readonly documentId?: string; readonly folderId?: string }): Scope =>
  input.documentId !== undefined
    ? { level: "document", scopeId: input.documentId }
    : input.folderId !== undefined
    ? { level: "folder", scopeId: input.folderId }
    : { level: "organization", scopeId: "" }

/** As the hosted service (docs/compatibility.md, "Users"): `initial` is derived from `name` when missing. */
const initialOf = (name: string): string | null => Array.from(name.trim())[0]?.toUpperCase() ?? null

/** The given fields over `base`; other fields of the User model are merged into the metadata. */
const merge = (base: UserRow, input: typeof UserInput.Type, now: number): UserRow => {
  const { accessRole: _role, email, initial, name, photoUrl, userId: _userId, ...metadata } = input
  return {
    ...base,
    name: name ?? base.name,
    email: email ?? base.email,
    photoUrl: photoUrl ?? base.photoUrl,
    initial: initial ?? (name !== undefined ? initialOf(name) : base.initial),
    metadata: { ...base.metadata, ...metadata },
    updatedAt: now
  }
}

const toUser = (row: UserRow): User => ({
  ...(row.email !== null && { email: row.email }),
  ...(row.name !== null && { name: row.name }),
  userId: row.userId
})

type UserItem = { success: boolean; id?: string; message: string }

/**
 * One page of users/get: its users, or (with allDocuments and groupByDocumentId) each document's users by
 * document id, as the answer's `data` carries them; `next` is the next page's token, undefined on the last.
 */
export interface UsersListing {
  readonly items: ReadonlyArray<User> | Readonly<Record<string, ReadonlyArray<User>>>
  readonly next: string | undefined
}

/** Users of an API key, and their access to organizations, documents and folders. */
export class Users extends Effect.Service<Users>()("@atrium/core/Users", {
  accessors: true,
  effect: Effect.gen(function*() {
    const repo = yield* UsersRepo
    const groups = yield* UserGroupsRepo
    const organizations = yield* OrganizationsRepo
    const documents = yield* DocumentsRepo
    const folders = yield* FoldersRepo
    const pageTokens = yield* PageTokens
    const ids = yield* Ids
    const { lock, withTransaction } = yield* Transactions

    /** A user's fields are merged on add and update: concurrent writes of one user apply one after the other. */
    const lockUser = (apiKey: string, userId: string) => lock(...userLock(apiKey, userId))

    /**
     * users/add creates a missing organization (docs/compatibility.md, "Users"); a missing
     * document or folder only with createDocument / createFolder, else the call is
     * NOT_FOUND and, being one transaction, writes nothing.
     */
    const prepare = (apiKey: string, input: typeof AddUsersInput.Type, scope: Scope) =>
      withTransaction(Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const { organizationId } = input
        yield* organizations.ensure(apiKey, organizationId, now)
        if (scope.level === "document" && (yield* documents.find(apiKey, organizationId, scope.scopeId)) === undefined) {
          if (input.createDocument !== true) {
            return yield* notFound(`Document ${scope.scopeId} does not exist; pass createDocument: true to create it.`)
          }
          yield* documents.insert(newDocument({ apiKey, organizationId, id: scope.scopeId, internalId: yield* ids.make(), now }))
        }
        if (scope.level === "folder" && (yield* folders.find(apiKey, organizationId, scope.scopeId)) === undefined) {
          if (input.createFolder !== true) {
            return yield* notFound(`Folder ${scope.scopeId} does not exist; pass createFolder: true to create it.`)
          }
          yield* folders.insert(implicitFolder(apiKey, organizationId, scope.scopeId, now))
        }
      }))

    const addOne = (apiKey: string, organizationId: string, scope: Scope, input: typeof UserInput.Type) =>
      withTransaction(Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        yield* lockUser(apiKey, input.userId)
        const existing = yield* repo.findUser(apiKey, input.userId)
        const base: UserRow = existing ?? newUser(apiKey, input.userId, yield* ids.make(), now)
        const row = merge(base, input, now)
        yield* repo.putUser(row)
        yield* repo.putMembership({
          apiKey,
          organizationId,
          ...scope,
          userId: input.userId,
          accessRole: input.accessRole ?? "editor",
          createdAt: now,
          updatedAt: now
        })
        return { success: true, id: row.internalId, message: "User added." } as UserItem
      }))

    /** A user "exists" for an update when it has a membership at exactly the call's level. */
    const updateOne = (apiKey: string, organizationId: string, scope: Scope, input: typeof UserInput.Type) =>
      withTransaction(Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        yield* lockUser(apiKey, input.userId)
        const existing = yield* repo.findUser(apiKey, input.userId)
        const membership = yield* repo.findMembership(apiKey, organizationId, scope.level, scope.scopeId, input.userId)
        if (existing === undefined || membership === undefined) {
          return { success: false, ...(existing !== undefined && { id: existing.internalId }), message: "User does not exist." } as UserItem
        }
        yield* repo.putUser(merge(existing, input, now))
        if (input.accessRole !== undefined) yield* repo.putMembership({ ...membership, accessRole: input.accessRole, updatedAt: now })
        return { success: true, id: existing.internalId, message: "User updated." } as UserItem
      }))

    /** Organization scope removes every membership in the organization and every group membership (spec users/delete). */
    const deleteOne = (apiKey: string, organizationId: string, scope: Scope, userId: string) =>
      withTransaction(Effect.gen(function*() {
        if (scope.level !== "organization") {
          return yield* repo.deleteMembership(apiKey, organizationId, scope.level, scope.scopeId, userId)
        }
        const hadMemberships = yield* repo.deleteOrganizationMemberships(apiKey, organizationId, userId)
        const hadGroups = yield* groups.removeFromOrganizationGroups(apiKey, organizationId, userId)
        return hadMemberships || hadGroups
      }))

    return {
      /**
       * users/add (docs/compatibility.md, "Users"): a missing organization is created; users join only the level named.
       * One transaction, each user a savepoint in it: a commit per user cost more than the user's own writes.
       */
      add: (apiKey: string, input: typeof AddUsersInput.Type) =>
        withTransaction(Effect.gen(function*() {
          const scope = scopeOf(input)
          yield* prepare(apiKey, input, scope)
          const data: Record<string, UserItem> = {}
          for (const user of input.users) data[user.userId] = yield* addOne(apiKey, input.organizationId, scope, user)
          return data
        })),

      /**
       * Spec users/get. The level is the document, the folder, every document
       * (allDocuments: organization-level users excluded), or else the organization;
       * userIds and group ids narrow it. Keyset pages by userId, or by
       * (documentId, userId) when grouped by document.
       */
      get: (apiKey: string, input: typeof GetUsersInput.Type) =>
        Effect.gen(function*() {
          const limit = input.pageSize ?? DEFAULT_PAGE_SIZE
          const allDocuments = input.allDocuments === true
          const grouped = allDocuments && input.groupByDocumentId === true
          const pageScope: PageScope = {
            apiKey,
            operation: "users.get",
            filters: {
              organizationId: input.organizationId,
              documentId: input.documentId ?? null,
              folderId: input.folderId ?? null,
              userIds: input.userIds ?? null,
              groupIds: input.organizationUserGroupIds ?? null,
              allDocuments,
              grouped
            }
          }
          const after = input.pageToken === undefined ? undefined : yield* pageTokens.decode(pageScope, input.pageToken)
          const options = {
            ...(input.userIds && { userIds: input.userIds }),
            ...(input.organizationUserGroupIds && { groupIds: input.organizationUserGroupIds }),
            limit: limit + 1
          }
          const withNextToken = (items: UsersListing["items"], cursor: unknown): Effect.Effect<UsersListing> =>
            cursor === undefined
              ? Effect.succeed({ items, next: undefined })
              : Effect.map(pageTokens.encode(pageScope, cursor), (next) => ({ items, next }))

          if (grouped) {
            const cursor = after as readonly [string, string] | undefined
            const page = pageOf(
              yield* repo.listByDocument(apiKey, input.organizationId, {
                ...options,
                ...(cursor !== undefined && { after: { documentId: cursor[0], userId: cursor[1] } })
              }),
              limit
            )
            const data: Record<string, Array<User>> = {}
            for (const { documentId, user } of page.items) (data[documentId] ??= []).push(toUser(user))
            const last = page.items[page.items.length - 1]
            return yield* withNextToken(data, page.hasMore && last ? [last.documentId, last.user.userId] : undefined)
          }

          const scope = scopeOf(input)
          const page = pageOf(
            yield* repo.list(
              apiKey,
              input.organizationId,
              allDocuments ? { level: "document" } : scope,
              { ...options, ...(after !== undefined && { after: after as string }) }
            ),
            limit
          )
          const last = page.items[page.items.length - 1]
          return yield* withNextToken(page.items.map(toUser), page.hasMore && last ? last.userId : undefined)
        }),

      /** Spec v1 users/update and v2 users/update (which also sets accessRole at the call's level); one transaction, as add. */
      update: (apiKey: string, input: typeof UpdateUsersV2Input.Type) =>
        withTransaction(Effect.gen(function*() {
          const scope = scopeOf(input)
          const data: Record<string, UserItem> = {}
          for (const user of input.users) data[user.userId] = yield* updateOne(apiKey, input.organizationId, scope, user)
          return data
        })),

      /** Spec users/delete: an unknown user is an entry with success false; one transaction, as add. */
      delete: (apiKey: string, input: typeof DeleteUsersInput.Type) =>
        withTransaction(Effect.gen(function*() {
          const scope = scopeOf(input)
          const data: Record<string, { success: boolean; message: string }> = {}
          for (const userId of input.userIds) {
            data[userId] = (yield* deleteOne(apiKey, input.organizationId, scope, userId))
              ? { success: true, message: "User removed." }
              : { success: false, message: "User does not exist." }
          }
          return data
        }))
    }
  })
}) {}
