import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { accessEvents, resourceOf } from "../access/AccessEvents.js"
import { DocumentsRepo, newDocument } from "../documents/DocumentsRepo.js"
import type { NewEvent } from "../events/EventListener.js"
import { Events } from "../events/Events.js"
import { FoldersRepo, implicitFolder } from "../folders/FoldersRepo.js"
import { OrganizationsRepo } from "../organizations/OrganizationsRepo.js"
import { notFound } from "../protocol/ApiError.js"
import { pageOf, type PageScope, PageTokens } from "../protocol/PageTokens.js"
import { Ids } from "../ports/Ids.js"
import { lockInOrder, Transactions } from "../ports/Transactions.js"
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

/** One user's item of a batch answer, and the access events of what was written for it. */
interface Written<Item> {
  readonly item: Item
  readonly events: ReadonlyArray<NewEvent>
}

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
    const events = yield* Events
    const { lock, withTransaction } = yield* Transactions

    /**
     * Each user's item, written in the call's transaction (each user a savepoint in it: a commit per
     * user cost more than the user's own writes), and the events of every user's writes emitted in it.
     * A user's fields are merged on add and update, so concurrent writes of one user apply one after
     * the other, under its lock: the call locks every user it names before writing any, in one order
     * (`lockInOrder`), since it holds them until it commits and two calls naming them in other orders
     * would each wait for the other (docs/storage.md, "Concurrent writes").
     */
    const eachUser = <Entry, Item>(
      apiKey: string,
      entries: ReadonlyArray<Entry>,
      userIdOf: (entry: Entry) => string,
      write: (entry: Entry) => Effect.Effect<Written<Item>>
    ) =>
      Effect.gen(function*() {
        yield* lockInOrder(lock, entries.map((entry) => userLock(apiKey, userIdOf(entry))))
        const data: Record<string, Item> = {}
        const emitted: Array<NewEvent> = []
        for (const entry of entries) {
          const written = yield* write(entry)
          data[userIdOf(entry)] = written.item
          emitted.push(...written.events)
        }
        yield* events.emit(apiKey, emitted)
        return data
      })

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

    /** Adds one user, locked by the call (`eachUser`). */
    const addOne = (apiKey: string, organizationId: string, scope: Scope, input: typeof UserInput.Type) =>
      withTransaction(Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const existing = yield* repo.findUser(apiKey, input.userId)
        const base: UserRow = existing ?? newUser(apiKey, input.userId, yield* ids.make(), now)
        const row = merge(base, input, now)
        yield* repo.putUser(row)
        const accessRole = input.accessRole ?? "editor"
        yield* repo.putMembership({ apiKey, organizationId, ...scope, userId: input.userId, accessRole, createdAt: now, updatedAt: now })
        return {
          item: { success: true, id: row.internalId, message: "User added." } as UserItem,
          events: [accessEvents.granted(input.userId, resourceOf({ organizationId, ...scope }), accessRole)]
        }
      }))

    /** A user "exists" for an update when it has a membership at exactly the call's level. Locked by the call (`eachUser`). */
    const updateOne = (apiKey: string, organizationId: string, scope: Scope, input: typeof UserInput.Type) =>
      withTransaction(Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const existing = yield* repo.findUser(apiKey, input.userId)
        const membership = yield* repo.findMembership(apiKey, organizationId, scope.level, scope.scopeId, input.userId)
        if (existing === undefined || membership === undefined) {
          const item = { success: false, ...(existing !== undefined && { id: existing.internalId }), message: "User does not exist." } as UserItem
          return { item, events: [] }
        }
        yield* repo.putUser(merge(existing, input, now))
        const granted: Array<NewEvent> = []
        if (input.accessRole !== undefined) {
          yield* repo.putMembership({ ...membership, accessRole: input.accessRole, updatedAt: now })
          granted.push(accessEvents.granted(input.userId, resourceOf(membership), input.accessRole, membership.expiresAt))
        }
        return { item: { success: true, id: existing.internalId, message: "User updated." } as UserItem, events: granted }
      }))

    /**
     * Organization scope removes every membership in the organization and every group membership (spec users/delete):
     * `access.revoked` for each grant removed, `access.group_member_removed` for each group left.
     */
    const deleteOne = (apiKey: string, organizationId: string, scope: Scope, userId: string) =>
      withTransaction(Effect.gen(function*() {
        const removed: Array<NewEvent> = []
        if (scope.level !== "organization") {
          if (yield* repo.deleteMembership(apiKey, organizationId, scope.level, scope.scopeId, userId)) {
            removed.push(accessEvents.revoked(userId, resourceOf({ organizationId, ...scope })))
          }
        } else {
          for (const place of yield* repo.deleteOrganizationMemberships(apiKey, organizationId, userId)) {
            removed.push(accessEvents.revoked(userId, resourceOf({ organizationId, ...place })))
          }
          for (const groupId of yield* groups.removeFromOrganizationGroups(apiKey, organizationId, userId)) {
            removed.push(accessEvents.groupMemberRemoved(userId, organizationId, groupId))
          }
        }
        const item = removed.length > 0 ? { success: true, message: "User removed." } : { success: false, message: "User does not exist." }
        return { item, events: removed }
      }))

    return {
      /**
       * users/add (docs/compatibility.md, "Users"): a missing organization is created; users join only the level named,
       * each with `access.granted` there.
       */
      add: (apiKey: string, input: typeof AddUsersInput.Type) =>
        withTransaction(Effect.gen(function*() {
          const scope = scopeOf(input)
          yield* prepare(apiKey, input, scope)
          return yield* eachUser(apiKey, input.users, (user) => user.userId, (user) => addOne(apiKey, input.organizationId, scope, user))
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

      /**
       * Spec v1 users/update and v2 users/update, which also sets accessRole at the call's level
       * (`access.granted` for each user it sets it for); one transaction, as add.
       */
      update: (apiKey: string, input: typeof UpdateUsersV2Input.Type) =>
        withTransaction(eachUser(apiKey, input.users, (user) => user.userId, (user) => updateOne(apiKey, input.organizationId, scopeOf(input), user))),

      /** Spec users/delete: an unknown user is an entry with success false; one transaction, as add. */
      delete: (apiKey: string, input: typeof DeleteUsersInput.Type) =>
        withTransaction(eachUser(apiKey, input.userIds, (userId) => userId, (userId) => deleteOne(apiKey, input.organizationId, scopeOf(input), userId)))
    }
  })
}) {}
