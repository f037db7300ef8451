import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

/**
 * What a deletion removes: every row of an organization, or those of some of its documents or
 * folders (a folder's own rows and grants; its documents are deleted as documents).
 */
export type DeletionScope =
  | { readonly organizationId: string; readonly level: "organization" }
  | { readonly organizationId: string; readonly level: "document" | "folder"; readonly ids: ReadonlyArray<string> }

/**
 * The data primitives background jobs need, over every table that holds a
 * user's or a document's data. Kept in `jobs/` so the jobs never call into
 * other domains' repositories; `SqlJobDataPort` provides it, driven by the
 * catalogue every domain declares (`dataTables`, read through `JobTables.ts`).
 * A kind of data names one table.
 */
export class JobDataPort extends Context.Tag("@atrium/core/JobDataPort")<JobDataPort, {
  /**
   * Kinds holding users' data, in the order a deletion removes them.
   * `perOrganization` false: the rows are shared by all of the key's organizations.
   */
  readonly userData: ReadonlyArray<{ readonly kind: string; readonly perOrganization: boolean; readonly exportAs: string }>
  /** Kinds holding a document's data, in the order a migration moves them: the document row first. */
  readonly documentData: ReadonlyArray<string>
  /** Kinds a deletion of this level visits, in the jobs' order. */
  readonly deletionData: { readonly [level in DeletionScope["level"]]: ReadonlyArray<string> }
  /**
   * Removes one kind of the scope's rows, and the rows of other tables that belong to them
   * (`children`) first: true when it removed rows the access rule reads.
   */
  readonly deleteScopeData: (apiKey: string, scope: DeletionScope, data: string) => Effect.Effect<boolean>
  /**
   * Removes the users' rows of one kind, within one organization or (undefined)
   * everywhere in the API key, rows of no organization included. For a kind the access rule
   * reads, each organization and user whose rows it removed; for any other, none.
   */
  readonly deleteUserData: (
    apiKey: string,
    userIds: ReadonlyArray<string>,
    organizationId: string | undefined,
    data: string
  ) => Effect.Effect<ReadonlyArray<{ readonly organizationId: string; readonly userId: string }>>
  /**
   * One page of a user's rows of one kind, the rows `deleteUserData` would remove (in the
   * organization, and the key's rows of no organization): at most `limit`, in primary-key order
   * after `after` (a row's `key`), each with its columns by camelCase name, the API key left out,
   * JSON text parsed and numbers as numbers on every storage.
   */
  readonly exportUserData: (
    apiKey: string,
    userId: string,
    organizationId: string,
    data: string,
    after: ReadonlyArray<unknown> | undefined,
    limit: number
  ) => Effect.Effect<ReadonlyArray<{ readonly key: ReadonlyArray<unknown>; readonly record: Readonly<Record<string, unknown>> }>>
  /**
   * Re-points one kind of the document's rows from `fromId` to `toId`: true when it changed rows
   * the access rule reads (always false for any other kind).
   */
  readonly moveDocumentData: (
    apiKey: string,
    organizationId: string,
    fromId: string,
    toId: string,
    data: string
  ) => Effect.Effect<boolean>
}>() {}
