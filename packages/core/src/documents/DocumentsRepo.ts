import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { AccessType } from "../folders/FoldersRepo.js"

export interface DocumentRow {
  readonly apiKey: string
  readonly organizationId: string
  readonly id: string
  /** Server-made id, returned as the per-item `id` of batch answers. */
  readonly internalId: string
  readonly name: string
  /** null: the organization root. */
  readonly folderId: string | null
  readonly accessType: AccessType
  readonly disabled: boolean
  /** Caller-supplied fields beyond documentId and documentName. */
  readonly metadata: Readonly<Record<string, unknown>>
  readonly createdAt: number
  readonly updatedAt: number
}

/** What a listing reads of a document: what documents/get answers, and no more (docs/benchmarks.md). */
export type DocumentSummary = Pick<DocumentRow, "id" | "name" | "accessType" | "disabled">

/** A new document: enabled and public, at the organization root unless a folder is given. */
export const newDocument = (fields: {
  readonly apiKey: string
  readonly organizationId: string
  readonly id: string
  readonly internalId: string
  readonly now: number
  readonly name?: string | undefined
  readonly folderId?: string | null | undefined
  readonly metadata?: Readonly<Record<string, unknown>> | undefined
}): DocumentRow => ({
  apiKey: fields.apiKey,
  organizationId: fields.organizationId,
  id: fields.id,
  internalId: fields.internalId,
  name: fields.name ?? "",
  folderId: fields.folderId ?? null,
  accessType: "public",
  disabled: false,
  metadata: fields.metadata ?? {},
  createdAt: fields.now,
  updatedAt: fields.now
})

/** What a write of a document locks first (Transactions.lock): its metadata is merged, so concurrent writes apply one after the other. */
export const documentLock = (apiKey: string, organizationId: string, documentId: string) => ["document", apiKey, organizationId, documentId] as const

/** Storage port: documents of an organization. */
export class DocumentsRepo extends Context.Tag("@atrium/core/DocumentsRepo")<DocumentsRepo, {
  readonly insert: (row: DocumentRow) => Effect.Effect<void>
  /** Updates name, folder and metadata of an existing document. */
  readonly update: (row: DocumentRow) => Effect.Effect<void>
  readonly find: (apiKey: string, organizationId: string, id: string) => Effect.Effect<DocumentRow | undefined>
  /** Keyset page ordered by id, of summaries. */
  readonly list: (
    apiKey: string,
    organizationId: string,
    options: {
      readonly ids?: ReadonlyArray<string> | undefined
      readonly folderId?: string | undefined
      readonly after?: string | undefined
      readonly limit: number
    }
  ) => Effect.Effect<ReadonlyArray<DocumentSummary>>
  readonly delete: (apiKey: string, organizationId: string, id: string) => Effect.Effect<boolean>
  /** Gives the document an access type of its own (it no longer inherits its folder's); false: no such document. */
  readonly setAccessType: (apiKey: string, organizationId: string, id: string, accessType: AccessType, now: number) => Effect.Effect<boolean>
  /** false: no such document. */
  readonly setDisabled: (apiKey: string, organizationId: string, id: string, disabled: boolean, now: number) => Effect.Effect<boolean>
}>() {}
