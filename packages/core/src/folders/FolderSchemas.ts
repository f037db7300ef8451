import * as Schema from "effect/Schema"
import { BatchItemWithId, BatchResult, SuccessResult } from "../protocol/Envelope.js"
import { Id, IntRange, NonEmptyIds, NonEmptyList, optional, Text } from "../schema/Common.js"
import type { AccessType } from "./FoldersRepo.js"

/** The parent id of a top-level folder (spec, Folder). */
export const ROOT = "root"

/** Folders per add call (docs/decisions.md, "Limits": one call stays short on SQLite). */
export const MAX_FOLDERS_PER_CALL = 100

/** Deepest `subFolders` nesting folders/get returns (our bound: the spec names none). */
export const MAX_DEPTH = 10

export const AccessTypeSchema = Schema.Literal("public", "restricted", "organizationPrivate") satisfies Schema.Schema<AccessType>

export const FolderInput = Schema.Struct({
  folderId: Id,
  folderName: optional(Text(1000)),
  /** Omitted: `root`. */
  parentFolderId: optional(Id),
  /** Omitted: inherited from the parent (`public` at the root). */
  accessType: optional(AccessTypeSchema)
})

/** A call's folders: the answer is a map keyed by folderId, so one id can only be answered once. */
const FolderList = <F extends Schema.Schema<{ readonly folderId: string }, any>>(folder: F) =>
  NonEmptyList(folder, MAX_FOLDERS_PER_CALL).pipe(
    Schema.filter((folders: ReadonlyArray<{ readonly folderId: string }>) => {
      const seen = new Set<string>()
      for (const [index, { folderId }] of folders.entries()) {
        if (seen.has(folderId)) return { path: [index, "folderId"], message: `${folderId} appears more than once` }
        seen.add(folderId)
      }
      return true
    })
  )

export const AddFoldersInput = Schema.Struct({
  organizationId: Id,
  createOrganization: optional(Schema.Boolean),
  folders: FolderList(FolderInput)
})

/** folders/update: a new name, a new parent (`root` for the top), or both. */
export const UpdateFoldersInput = Schema.Struct({
  organizationId: Id,
  folders: FolderList(Schema.Struct({
    folderId: Id,
    folderName: optional(Text(1000)),
    /** Omitted: the folder stays where it is. */
    parentFolderId: optional(Id)
  }))
})

/** folders/delete: one folder, with its subfolders and their documents. */
export const DeleteFolderInput = Schema.Struct({
  organizationId: Id,
  folderId: Id
})

/** The hosted answer of folders/delete: `data` null (compatibility facts §1.7). */
export const FolderDeletionResult = SuccessResult(Schema.Null)

export const GetFoldersInput = Schema.Struct({
  organizationId: Id,
  /** Omitted: every folder of the organization, flat. */
  folderId: optional(Id),
  /** Levels of `subFolders` under `folderId`; omitted: 1 (immediate subfolders only). */
  maxDepth: optional(IntRange(0, MAX_DEPTH))
})

export interface Folder {
  readonly folderId: string
  readonly folderName: string
  readonly organizationId: string
  readonly parentFolderId: string
  readonly apiKey: string
  readonly createdAt: number
  readonly lastUpdated: number
  readonly ancestors: ReadonlyArray<string>
  readonly accessType: AccessType
  readonly inheritAccessFromParent: boolean
  readonly subFolders?: ReadonlyArray<Folder>
}

/** The spec's Folder record; `subFolders` only where subfolders were requested. */
export const Folder: Schema.Schema<Folder> = Schema.Struct({
  folderId: Schema.String,
  folderName: Schema.String,
  organizationId: Schema.String,
  parentFolderId: Schema.String,
  apiKey: Schema.String,
  createdAt: Schema.Number,
  lastUpdated: Schema.Number,
  ancestors: Schema.Array(Schema.String),
  accessType: AccessTypeSchema,
  inheritAccessFromParent: Schema.Boolean,
  subFolders: optional(Schema.Array(Schema.suspend((): Schema.Schema<Folder> => Folder)))
}).annotations({ identifier: "Folder" })

/** Folders per access/update call: as per add (the facts name no limit; each recomputes its subtree). */
export const MAX_FOLDER_ACCESS_IDS = 100

/**
 * folders/access/update: an access type of the folders' own, or `inheritFromParent: true` to
 * follow their parent's (an `accessType` sent with it is not stored: the answer's is null).
 */
export const UpdateFolderAccessInput = Schema.Struct({
  organizationId: Id,
  folderIds: NonEmptyIds(MAX_FOLDER_ACCESS_IDS),
  accessType: optional(AccessTypeSchema),
  /** Omitted: false. */
  inheritFromParent: optional(Schema.Boolean)
}).pipe(
  Schema.filter((input) =>
    input.inheritFromParent === true || input.accessType !== undefined ||
    { path: ["accessType"], message: "is required unless inheritFromParent is true" }
  )
)

/** One folder's outcome: its own access type (null when it inherits); a missing folder is `success: false`. */
export const FolderAccessItem = Schema.Struct({
  success: Schema.Boolean,
  accessType: optional(Schema.NullOr(AccessTypeSchema)),
  inheritFromParent: optional(Schema.Boolean),
  message: Schema.String
})
export type FolderAccessItem = typeof FolderAccessItem.Type

export const FolderAccessResult = SuccessResult(BatchResult(FolderAccessItem))

export const AddFoldersResult = SuccessResult(BatchResult(BatchItemWithId))

export const FoldersResult = SuccessResult(Schema.Array(Folder))
