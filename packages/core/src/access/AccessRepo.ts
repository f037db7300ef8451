import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { AccessRole, AccessType } from "./AccessRule.js"

/** A grant stored by the server API (users/add with accessRole, auth/permissions/add): a membership row. */
export interface StoredGrant {
  readonly level: "organization" | "folder" | "document"
  /** The folder or document id; the organization's id at organization level. */
  readonly id: string
  readonly accessRole: AccessRole
  /** Epoch ms; undefined: no end. */
  readonly expiresAt: number | undefined
}

/** What storage knows of one user in one organization. */
export interface UserAccessFacts {
  /** undefined: no such organization (yet). */
  readonly organization: { readonly disabled: boolean } | undefined
  /** Every grant the user holds in the organization, at every level, expired ones included. */
  readonly grants: ReadonlyArray<StoredGrant>
  /** Whether the user belongs to one of the organization's user groups. */
  readonly inUserGroup: boolean
}

/** What storage knows that the access rule needs, for one user and one document. */
export interface StoredAccessFacts extends UserAccessFacts {
  /** undefined: no such document (yet). */
  readonly document:
    | {
      readonly disabled: boolean
      /** Its own access type, which counts only when it does not inherit. */
      readonly accessType: AccessType
      readonly inheritAccess: boolean
      /** Its folder and the folder's ancestors, nearest first; empty at the root. */
      readonly folderChain: ReadonlyArray<string>
      /** The nearest folder's access type (folders store theirs with inheritance applied). */
      readonly folderAccessType: AccessType | undefined
    }
    | undefined
}

/** What storage knows that the access rule needs, for one user and one folder. */
export interface StoredFolderFacts extends UserAccessFacts {
  /** undefined: no such folder. */
  readonly folder:
    | {
      /** The folder and its ancestors, nearest first. */
      readonly folderChain: ReadonlyArray<string>
      /** Its access type, inheritance applied. */
      readonly accessType: AccessType
    }
    | undefined
}

/** Storage port of the access rule: one read of the facts per (user, document). */
export class AccessRepo extends Context.Tag("@atrium/core/AccessRepo")<AccessRepo, {
  /**
   * The key's access version: moved on by every write to what the facts are read from (0 until
   * the first), so facts read at one version hold while it stays (AccessFactsCache.ts).
   */
  readonly version: (apiKey: string) => Effect.Effect<number>
  readonly userFacts: (apiKey: string, organizationId: string, userId: string) => Effect.Effect<UserAccessFacts>
  readonly facts: (apiKey: string, organizationId: string, documentId: string, userId: string) => Effect.Effect<StoredAccessFacts>
  readonly folderFacts: (apiKey: string, organizationId: string, folderId: string, userId: string) => Effect.Effect<StoredFolderFacts>
}>() {}
