import * as Schema from "effect/Schema"
import { BatchItemWithId, BatchResult, SuccessResult } from "../protocol/Envelope.js"
import { AccessTypeSchema } from "../folders/FolderSchemas.js"
import { Id, Ids, JsonObject, NonEmptyIds, NonEmptyList, optional, PageSize, Text } from "../schema/Common.js"

/** Documents per add call (v1 and v2) (docs/decisions.md, "Limits": one call stays short on SQLite). */
export const MAX_DOCUMENTS_PER_CALL = 100

/** Documents per access/update and access/disablestate/update call: as per add (the facts name no limit). */
export const MAX_DOCUMENT_ACCESS_IDS = 100

export const DocumentInput = Schema.Struct(
  {
    documentId: Id,
    documentName: optional(Text(1000))
  },
  // Further fields are the caller's own metadata (the spec does not list them).
  JsonObject
)

const Documents = NonEmptyList(DocumentInput, MAX_DOCUMENTS_PER_CALL)

export const AddDocumentsV1Input = Schema.Struct({
  organizationId: Id,
  documents: Documents,
  /** Optional (docs/decisions.md, "Product rulings"): omitted means the organization root. */
  folderId: optional(Id)
})

export const AddDocumentsV2Input = Schema.Struct({
  organizationId: Id,
  documents: Documents,
  folderId: optional(Id),
  createOrganization: optional(Schema.Boolean),
  createFolder: optional(Schema.Boolean)
})

/** documents/update (v1 and v2): existing documents' names and metadata. */
export const UpdateDocumentsInput = Schema.Struct({
  organizationId: Id,
  documents: Documents
})

export const DeleteDocumentsInput = Schema.Struct({
  organizationId: Id,
  documentIds: NonEmptyIds(MAX_DOCUMENTS_PER_CALL)
})

/** Documents per documents/move call: the hosted service's limit (compatibility facts §1.7). */
export const MAX_DOCUMENTS_PER_MOVE = 30

export const MoveDocumentsInput = Schema.Struct({
  organizationId: Id,
  documentIds: NonEmptyIds(MAX_DOCUMENTS_PER_MOVE),
  folderId: Id
})

export const GetDocumentsInput = Schema.Struct({
  organizationId: Id,
  documentIds: optional(Ids(30)),
  folderId: optional(Id),
  pageSize: optional(PageSize()),
  pageToken: optional(Schema.String)
})

export const Document = Schema.Struct({
  id: Schema.String,
  documentName: Schema.String,
  disabled: Schema.Boolean,
  accessType: Schema.String
}).annotations({ identifier: "Document" })
export type Document = typeof Document.Type

export const DocumentsPage = SuccessResult(Schema.Array(Document), { pageToken: optional(Schema.String) })

export const AddDocumentsResult = SuccessResult(BatchResult(BatchItemWithId))

/** v1 documents/update answers its failed items with the rest: `code` says why (`not-found`). */
export const UpdateDocumentsResult = SuccessResult(BatchResult(Schema.Struct({
  success: Schema.Boolean,
  id: Schema.String,
  message: Schema.String,
  code: optional(Schema.String)
})))

/** documents/access/update: the documents get this access type of their own. */
export const UpdateDocumentAccessInput = Schema.Struct({
  organizationId: Id,
  documentIds: NonEmptyIds(MAX_DOCUMENT_ACCESS_IDS),
  accessType: AccessTypeSchema
})

/** documents/access/disablestate/update. */
export const UpdateDocumentDisabledInput = Schema.Struct({
  organizationId: Id,
  documentIds: NonEmptyIds(MAX_DOCUMENT_ACCESS_IDS),
  disabled: Schema.Boolean
})

/** One document's outcome: `accessType` when it was set; a missing document is `success: false` (docs/decisions.md, "Access"). */
export const DocumentAccessItem = Schema.Struct({ success: Schema.Boolean, accessType: optional(AccessTypeSchema), message: Schema.String })
export type DocumentAccessItem = typeof DocumentAccessItem.Type
export const DocumentDisabledItem = Schema.Struct({ success: Schema.Boolean, disabled: optional(Schema.Boolean), message: Schema.String })
export type DocumentDisabledItem = typeof DocumentDisabledItem.Type

export const DocumentAccessResult = SuccessResult(BatchResult(DocumentAccessItem))
export const DocumentDisabledResult = SuccessResult(BatchResult(DocumentDisabledItem))
