import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { OrganizationsRepo } from "../organizations/OrganizationsRepo.js"
import { notFound } from "../protocol/ApiError.js"
import { Transactions } from "../ports/Transactions.js"
import { type AddFoldersInput, type Folder, type FolderInput, type GetFoldersInput, ROOT } from "./FolderSchemas.js"
import { type FolderRow, FoldersRepo } from "./FoldersRepo.js"

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
    const { withTransaction } = yield* Transactions

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
