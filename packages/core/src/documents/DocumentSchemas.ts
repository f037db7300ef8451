import * as Schema from "effect/Schema"
import { BatchItemWithId, BatchResult, SuccessResult } from "../protocol/Envelope.js"
import { Id, Ids, JsonObject, optional, PageSize, Text } from "../schema/Common.js"

export const DocumentInput = Schema.Struct(
  {
    documentId: Id,
    documentName: optional(Text(1000))
  },
  // Further fields are the caller's own metadata (the spec does not list them).
  JsonObject
)

const Documents = Schema.Array(DocumentInput).pipe(Schema.minItems(1, { message: () => "must have at least 1 entry" }))

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

export const DocumentsPage = SuccessResult(Schema.Array(Document), { pageToken: optional(Schema.String) })

export const AddDocumentsResult = SuccessResult(BatchResult(BatchItemWithId))
