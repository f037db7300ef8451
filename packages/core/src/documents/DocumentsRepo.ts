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

/** Storage port: documents of an organization. */
export class DocumentsRepo extends Context.Tag("@atrium/core/DocumentsRepo")<DocumentsRepo, {
  readonly insert: (row: DocumentRow) => Effect.Effect<void>
  /** Updates name, folder and metadata of an existing document. */
  readonly update: (row: DocumentRow) => Effect.Effect<void>
  readonly find: (apiKey: string, organizationId: string, id: string) => Effect.Effect<DocumentRow | undefined>
  /** Keyset page ordered by id. */
  readonly list: (
    apiKey: string,
    organizationId: string,
    options: {
      readonly ids?: ReadonlyArray<string>
      readonly folderId?: string
      readonly after?: string
      readonly limit: number
    }
  ) => Effect.Effect<ReadonlyArray<DocumentRow>>
  readonly delete: (apiKey: string, organizationId: string, id: string) => Effect.Effect<boolean>
}>() {}
