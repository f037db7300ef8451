import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { accessEvents } from "../access/AccessEvents.js"
import { documentLock, DocumentsRepo } from "../documents/DocumentsRepo.js"
import { Events } from "../events/Events.js"
import { Deletions } from "../jobs/Deletions.js"
import { OrganizationsRepo } from "../organizations/OrganizationsRepo.js"
import { notFound } from "../protocol/ApiError.js"
import { lockInOrder, Transactions } from "../ports/Transactions.js"
import {
  type AddFoldersInput,
  type DeleteFolderInput,
  type Folder,
  type FolderAccessItem,
  type FolderInput,
  type GetFoldersInput,
  ROOT,
  type UpdateFolderAccessInput,
  type UpdateFoldersInput
} from "./FolderSchemas.js"
import { type AccessType, folderTreeLock, type FolderRow, FoldersRepo } from "./FoldersRepo.js"

/** The access type of a folder that follows its parent at the root (folders/add's too). */
const ROOT_ACCESS_TYPE: AccessType = "public"

/** A folder whose stored access type changed, for its event. */
interface AccessChange {
  readonly folderId: string
  readonly accessType: AccessType
  readonly inheritFromParent: boolean
}

type ItemResult = { success: boolean; id: string; message: string }

const toFolder = (row: FolderRow): Folder => ({
  folderId: row.id,
  folderName: row.name,
  organizationId: row.organizationId,
  parentFolderId: row.parentFolderId,
  apiKey: row.apiKey,
  createdAt: row.createdAt,
  lastUpdated: row.lastUpdated,
  ancestors: row.ancestors,
  accessType: row.accessType,
  inheritAccessFromParent: row.inheritAccessFromParent
})

/** Folders of an organization: a tree under `root`, each folder knowing its ancestors. */
export class Folders extends Effect.Service<Folders>()("@atrium/core/Folders", {
  accessors: true,
  effect: Effect.gen(function*() {
    const repo = yield* FoldersRepo
    const organizations = yield* OrganizationsRepo
    const events = yield* Events
    const documents = yield* DocumentsRepo
    const deletions = yield* Deletions
    const { lock, withTransaction } = yield* Transactions

    /** The ids of the documents in these folders, a page at a time. */
    const documentsIn = (apiKey: string, organizationId: string, folderIds: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        const found: Array<string> = []
        for (const folderId of folderIds) {
          let after: string | undefined
          for (;;) {
            const page = yield* documents.list(apiKey, organizationId, { folderId, after, limit: 1000 })
            found.push(...page.map((document) => document.id))
            if (page.length < 1000) break
            after = page[page.length - 1]!.id
          }
        }
        return found
      })

    /**
     * Gives the folders under `folder` that follow their parent the type `folder` now has, level by
     * level, one query per level. A subfolder whose stored type already was that one keeps its
     * subtree as it is: every write keeps the stored types consistent, so below it nothing changes.
     */
    const recomputeSubtree = (apiKey: string, organizationId: string, folder: { readonly id: string; readonly accessType: AccessType }, now: number) =>
      Effect.gen(function*() {
        const changed: Array<AccessChange> = []
        let parents = new Map([[folder.id, folder.accessType]])
        while (parents.size > 0) {
          const children = yield* repo.listChildren(apiKey, organizationId, [...parents.keys()])
          const next = new Map<string, AccessType>()
          for (const child of children) {
            const accessType = parents.get(child.parentFolderId)
            if (!child.inheritAccessFromParent || accessType === undefined || child.accessType === accessType) continue
            yield* repo.setAccess(apiKey, organizationId, child.id, { accessType, inheritAccessFromParent: true }, now)
            changed.push({ folderId: child.id, accessType, inheritFromParent: true })
            next.set(child.id, accessType)
          }
          parents = next
        }
        return changed
      })

    /** Adds one folder under an existing parent, in its own transaction. */
    const addOne = (apiKey: string, organizationId: string, input: typeof FolderInput.Type, now: number) =>
      withTransaction(Effect.gen(function*() {
        const failed = (message: string): ItemResult => ({ success: false, id: input.folderId, message })
        if (input.folderId === ROOT) return failed(`${ROOT} is reserved for the organization root.`)
        if ((yield* repo.find(apiKey, organizationId, input.folderId)) !== undefined) return failed("Folder already exists.")
        const parentFolderId = input.parentFolderId ?? ROOT
        const parent = parentFolderId === ROOT ? undefined : yield* repo.find(apiKey, organizationId, parentFolderId)
        if (parentFolderId !== ROOT && parent === undefined) {
          return failed(`Parent folder ${parentFolderId} does not exist.`)
        }
        yield* repo.insert({
          apiKey,
          organizationId,
          id: input.folderId,
          name: input.folderName ?? input.folderId,
          parentFolderId,
          ancestors: parent === undefined ? [ROOT] : [...parent.ancestors, parent.id],
          // Without an accessType the folder follows its parent (folders/access/update's `inheritFromParent`, docs/compatibility.md).
          accessType: input.accessType ?? parent?.accessType ?? "public",
          inheritAccessFromParent: input.accessType === undefined,
          createdAt: now,
          lastUpdated: now
        })
        return { success: true, id: input.folderId, message: "Folder added." } as ItemResult
      }))

    /** `access.folder_type_updated` for each folder whose stored access type a call changed (realtime re-checks its readers). */
    const emitAccessChanges = (apiKey: string, organizationId: string, changed: ReadonlyArray<AccessChange>) =>
      events.emit(apiKey, Effect.sync(() =>
        changed.map((change) => accessEvents.folderTypeUpdated(organizationId, change.folderId, change.accessType, change.inheritFromParent))
      ))

    /**
     * Rewrites the ancestors of every folder under `folder`, level by level (one query per level),
     * after `folder` itself moved: each one's chain is its parent's chain and its parent.
     */
    const reparentSubtree = (apiKey: string, organizationId: string, folder: { readonly id: string; readonly ancestors: ReadonlyArray<string> }, now: number) =>
      Effect.gen(function*() {
        let chains = new Map([[folder.id, [...folder.ancestors, folder.id]]])
        while (chains.size > 0) {
          const children = yield* repo.listChildren(apiKey, organizationId, [...chains.keys()])
          const next = new Map<string, Array<string>>()
          for (const child of children) {
            const ancestors = chains.get(child.parentFolderId)!
            yield* repo.setPlace(apiKey, organizationId, child.id, { name: child.name, parentFolderId: child.parentFolderId, ancestors }, now)
            next.set(child.id, [...ancestors, child.id])
          }
          chains = next
        }
      })

    /**
     * folders/update of one folder, in a savepoint: a new name, and a new parent that exists and is not the folder
     * or under it. A move rewrites the subtree's ancestors and, for a folder that follows its parent, its access
     * type and that of the folders under it that follow theirs.
     */
    const updateOne = (apiKey: string, organizationId: string, input: typeof UpdateFoldersInput.Type["folders"][number], now: number) =>
      withTransaction(Effect.gen(function*() {
        const failed = (message: string) => ({ item: { success: false, id: input.folderId, message } as ItemResult, changed: [] as Array<AccessChange> })
        const folder = yield* repo.find(apiKey, organizationId, input.folderId)
        if (folder === undefined) return failed("Folder does not exist")
        const name = input.folderName ?? folder.name
        const parentFolderId = input.parentFolderId ?? folder.parentFolderId
        if (parentFolderId === folder.parentFolderId) {
          yield* repo.setPlace(apiKey, organizationId, folder.id, { name, parentFolderId, ancestors: folder.ancestors }, now)
          return { item: { success: true, id: folder.id, message: "Folder Updated." } as ItemResult, changed: [] as Array<AccessChange> }
        }
        const parent = parentFolderId === ROOT ? undefined : yield* repo.find(apiKey, organizationId, parentFolderId)
        if (parentFolderId !== ROOT && parent === undefined) return failed(`Parent folder ${parentFolderId} does not exist.`)
        if (parentFolderId === folder.id || parent?.ancestors.includes(folder.id)) {
          return failed(`Folder ${folder.id} cannot move under ${parentFolderId}: it is the folder itself or one of its subfolders.`)
        }
        const ancestors = parent === undefined ? [ROOT] : [...parent.ancestors, parent.id]
        yield* repo.setPlace(apiKey, organizationId, folder.id, { name, parentFolderId, ancestors }, now)
        yield* reparentSubtree(apiKey, organizationId, { id: folder.id, ancestors }, now)
        const changed: Array<AccessChange> = []
        const accessType = folder.inheritAccessFromParent ? parent?.accessType ?? ROOT_ACCESS_TYPE : folder.accessType
        if (accessType !== folder.accessType) {
          yield* repo.setAccess(apiKey, organizationId, folder.id, { accessType, inheritAccessFromParent: true }, now)
          changed.push({ folderId: folder.id, accessType, inheritFromParent: true }, ...yield* recomputeSubtree(apiKey, organizationId, { id: folder.id, accessType }, now))
        }
        return { item: { success: true, id: folder.id, message: "Folder Updated." } as ItemResult, changed }
      }))

    /** `folder` with `depth` levels of subFolders, one storage query per level. */
    const withSubFolders = (apiKey: string, organizationId: string, folder: FolderRow, depth: number) =>
      Effect.gen(function*() {
        const root = toFolder(folder)
        if (depth === 0) return root
        // Folders above the depth limit carry `subFolders` (maybe empty); folders at the limit carry none.
        const childrenOf = new Map<string, Array<Folder>>([[folder.id, []]])
        const levels: Array<ReadonlyArray<FolderRow>> = []
        let parents: ReadonlyArray<string> = [folder.id]
        for (let level = 1; level <= depth && parents.length > 0; level++) {
          const rows = yield* repo.listChildren(apiKey, organizationId, parents)
          levels.push(rows)
          for (const row of rows) if (level < depth) childrenOf.set(row.id, [])
          parents = rows.map((row) => row.id)
        }
        const build = (row: FolderRow): Folder => {
          const children = childrenOf.get(row.id)
          return children === undefined ? toFolder(row) : { ...toFolder(row), subFolders: children }
        }
        // Deepest level first, so each folder is built after its children.
        for (const rows of levels.reverse()) {
          for (const row of rows) childrenOf.get(row.parentFolderId)!.push(build(row))
        }
        return { ...root, subFolders: childrenOf.get(folder.id)! }
      })

    return {
      /**
       * folders/add (docs/compatibility.md, "Organizations, documents and folders"). Items run in order, so a folder may name a parent
       * added earlier in the same call; an unknown parent fails only that item. One transaction, each folder a
       * savepoint in it: a commit per folder cost more than the folder's own writes.
       */
      add: (apiKey: string, input: typeof AddFoldersInput.Type) =>
        withTransaction(Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          yield* lock(...folderTreeLock(apiKey, input.organizationId)) // a new folder reads its parent's access type
          if (input.createOrganization === true) yield* organizations.ensure(apiKey, input.organizationId, now)
          else if ((yield* organizations.find(apiKey, input.organizationId)) === undefined) {
            return yield* notFound(`Organization ${input.organizationId} does not exist; pass createOrganization: true to create it.`)
          }
          const data: Record<string, ItemResult> = {}
          for (const folder of input.folders) {
            data[folder.folderId] = yield* addOne(apiKey, input.organizationId, folder, now)
          }
          return data
        })),

      /**
       * folders/update (compatibility facts §1.7): renames and moves, in order, under the organization's folder lock, in one
       * transaction with each folder a savepoint; a missing folder or parent fails its item only. Emits
       * `access.folder_type_updated` for each folder whose access type the move changed (realtime re-checks its readers).
       */
      update: (apiKey: string, input: typeof UpdateFoldersInput.Type) =>
        withTransaction(Effect.gen(function*() {
          const { organizationId } = input
          yield* lock(...folderTreeLock(apiKey, organizationId))
          const now = yield* Clock.currentTimeMillis
          const data: Record<string, ItemResult> = {}
          const changed: Array<AccessChange> = []
          for (const folder of input.folders) {
            const updated = yield* updateOne(apiKey, organizationId, folder, now)
            data[folder.folderId] = updated.item
            changed.push(...updated.changed)
          }
          yield* emitAccessChanges(apiKey, organizationId, changed)
          return data
        })),

      /**
       * folders/delete: the folder, every folder under it, and every document in them with all its rows
       * (jobs/Deletions.ts), in one transaction under the organization's folder lock and each document's, emitting
       * `document.delete` for each document and `folder.delete` for each folder (with their `access.*_deleted`).
       * Answered when done, with the hosted message ("initiated": docs/decisions.md). A missing folder is
       * NOT_FOUND "Folder not found.", so a repeated call changes nothing.
       */
      delete: (apiKey: string, input: typeof DeleteFolderInput.Type) =>
        withTransaction(Effect.gen(function*() {
          const { folderId, organizationId } = input
          yield* lock(...folderTreeLock(apiKey, organizationId))
          if ((yield* repo.find(apiKey, organizationId, folderId)) === undefined) return yield* notFound("Folder not found.")
          const subtree = [folderId, ...(yield* repo.listByOrganization(apiKey, organizationId)).filter((f) => f.ancestors.includes(folderId)).map((f) => f.id)]
          const documentIds = yield* documentsIn(apiKey, organizationId, subtree)
          yield* lockInOrder(lock, documentIds.map((documentId) => documentLock(apiKey, organizationId, documentId)))
          yield* deletions.documents(apiKey, organizationId, documentIds)
          yield* deletions.folders(apiKey, organizationId, subtree)
        })),

      /**
       * folders/access/update: each folder gets the access type as its own, or follows its parent's
       * (`inheritFromParent`), and every folder under it that follows its parent is recomputed, in
       * one transaction under the organization's folder lock. Documents that follow their folder
       * read its stored type when they are checked, so they follow without a write.
       */
      updateAccess: (apiKey: string, input: typeof UpdateFolderAccessInput.Type): Effect.Effect<Record<string, FolderAccessItem>> =>
        withTransaction(Effect.gen(function*() {
          const { organizationId } = input
          const inheritFromParent = input.inheritFromParent === true
          yield* lock(...folderTreeLock(apiKey, organizationId))
          const now = yield* Clock.currentTimeMillis
          const data: Record<string, FolderAccessItem> = {}
          const changed: Array<AccessChange> = []
          for (const folderId of input.folderIds) {
            const folder = yield* repo.find(apiKey, organizationId, folderId)
            if (folder === undefined) {
              data[folderId] = { success: false, message: "Folder does not exist" }
              continue
            }
            const parent = folder.parentFolderId === ROOT ? undefined : yield* repo.find(apiKey, organizationId, folder.parentFolderId)
            // The schema requires accessType unless the folder inherits.
            const accessType = inheritFromParent ? parent?.accessType ?? ROOT_ACCESS_TYPE : input.accessType!
            yield* repo.setAccess(apiKey, organizationId, folderId, { accessType, inheritAccessFromParent: inheritFromParent }, now)
            changed.push({ folderId, accessType, inheritFromParent }, ...yield* recomputeSubtree(apiKey, organizationId, { id: folderId, accessType }, now))
            data[folderId] = { success: true, accessType: inheritFromParent ? null : accessType, inheritFromParent, message: "Folder access type updated." }
          }
          yield* emitAccessChanges(apiKey, organizationId, changed)
          return data
        })),

      /**
       * Spec folders/get. With folderId: that folder with `maxDepth` (default 1)
       * levels of subFolders. Without: every folder of the organization, flat,
       * ordered by id (their tree is in parentFolderId and ancestors).
       */
      get: (apiKey: string, input: typeof GetFoldersInput.Type) =>
        Effect.gen(function*() {
          if (input.folderId === undefined) {
            const rows = yield* repo.listByOrganization(apiKey, input.organizationId)
            return rows.map(toFolder)
          }
          const folder = yield* repo.find(apiKey, input.organizationId, input.folderId)
          if (folder === undefined) return yield* notFound("Folder not found.")
          const tree = yield* withSubFolders(apiKey, input.organizationId, folder, input.maxDepth ?? 1)
          return [tree]
        })
    }
  })
}) {}
