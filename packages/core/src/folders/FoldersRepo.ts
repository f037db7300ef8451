import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

export type AccessType = "public" | "restricted" | "organizationPrivate"

export interface FolderRow {
  readonly apiKey: string
  readonly organizationId: string
  readonly id: string
  readonly name: string
  /** `root` for a top-level folder. */
  readonly parentFolderId: string
  /** Parent chain from `root` down to the parent. */
  readonly ancestors: ReadonlyArray<string>
  readonly accessType: AccessType
  readonly inheritAccessFromParent: boolean
  readonly createdAt: number
  readonly lastUpdated: number
}

/**
 * A top-level folder made on the way, when an add names a folder that does not
 * exist and asks for it (`createFolder`): named after its id, public, inheriting access.
 */
export const implicitFolder = (apiKey: string, organizationId: string, id: string, now: number): FolderRow => ({
  apiKey,
  organizationId,
  id,
  name: id,
  parentFolderId: "root",
  ancestors: ["root"],
  accessType: "public",
  inheritAccessFromParent: true,
  createdAt: now,
  lastUpdated: now
})

/**
 * What a write of an organization's folder tree locks first (Transactions.lock): folders store
 * their access type with inheritance applied, so a write that reads a parent's must not race
 * one that changes it.
 */
export const folderTreeLock = (apiKey: string, organizationId: string) => ["folders", apiKey, organizationId] as const

/** Storage port: folders of an organization. */
export class FoldersRepo extends Context.Tag("@atrium/core/FoldersRepo")<FoldersRepo, {
  readonly insert: (row: FolderRow) => Effect.Effect<void>
  /** Sets a folder's stored (effective) access type and whether it follows its parent's. */
  readonly setAccess: (
    apiKey: string,
    organizationId: string,
    id: string,
    access: { readonly accessType: AccessType; readonly inheritAccessFromParent: boolean },
    now: number
  ) => Effect.Effect<void>
  /** Sets a folder's name and place in the tree (its parent and the ancestors that follow from it). */
  readonly setPlace: (
    apiKey: string,
    organizationId: string,
    id: string,
    place: { readonly name: string; readonly parentFolderId: string; readonly ancestors: ReadonlyArray<string> },
    now: number
  ) => Effect.Effect<void>
  readonly find: (apiKey: string, organizationId: string, id: string) => Effect.Effect<FolderRow | undefined>
  /** Every folder of the organization, ordered by id. */
  readonly listByOrganization: (apiKey: string, organizationId: string) => Effect.Effect<ReadonlyArray<FolderRow>>
  /** The folders whose parent is one of `parentIds`, ordered by id: one level of a subtree. */
  readonly listChildren: (
    apiKey: string,
    organizationId: string,
    parentIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<FolderRow>>
}>() {}
