import * as Effect from "effect/Effect"
import { answer, answerPage, MessageResult } from "../protocol/Envelope.js"
import { defineOperation } from "../protocol/Operation.js"
import {
  AddDocumentsResult,
  AddDocumentsV1Input,
  AddDocumentsV2Input,
  DeleteDocumentsInput,
  DocumentAccessResult,
  DocumentDisabledResult,
  DocumentsPage,
  GetDocumentsInput,
  MoveDocumentsInput,
  UpdateDocumentAccessInput,
  UpdateDocumentDisabledInput,
  UpdateDocumentsInput,
  UpdateDocumentsResult
} from "./DocumentSchemas.js"
import { Documents } from "./Documents.js"

/** Made once: documents/get is the hottest read, so its row allocates no answer function per request (docs/benchmarks.md). */
const documentsPage = answerPage("Document(s) retrieved successfully.", "pageToken")

export const documentOperations = [
  defineOperation({
    name: "organizations.documents.get",
    paths: ["/v2/organizations/documents/get"],
    auth: "apiKey",
    summary: "List an organization's documents, by id or folder, a page at a time.",
    input: GetDocumentsInput,
    output: DocumentsPage,
    errors: ["INVALID_ARGUMENT"],
    organization: (input) => input.organizationId,
    service: Documents,
    handler: (documents, input, caller) => Effect.map(documents.get(caller.apiKey, input), documentsPage)
  }),
  defineOperation({
    name: "organizations.documents.add.v1",
    paths: ["/v1/organizations/documents/add"],
    auth: "apiKey",
    summary: "Add documents (a missing organization is created; existing documents are updated).",
    input: AddDocumentsV1Input,
    output: AddDocumentsResult,
    errors: ["NOT_FOUND"],
    organization: (input) => input.organizationId,
    service: Documents,
    handler: (documents, input, caller) =>
      Effect.map(documents.addV1(caller.apiKey, input), answer("Document(s) added successfully."))
  }),
  defineOperation({
    name: "organizations.documents.add",
    paths: ["/v2/organizations/documents/add"],
    auth: "apiKey",
    summary: "Add documents; an existing id fails that item (INTERNAL with per-item details, as the hosted service answers; ALREADY_EXISTS under strictStatuses).",
    input: AddDocumentsV2Input,
    output: AddDocumentsResult,
    errors: ["NOT_FOUND", "INTERNAL"],
    strictStatus: "ALREADY_EXISTS",
    organization: (input) => input.organizationId,
    service: Documents,
    handler: (documents, input, caller) =>
      Effect.map(documents.addV2(caller.apiKey, input), answer("Document(s) added successfully."))
  }),
  defineOperation({
    name: "organizations.documents.update.v1",
    paths: ["/v1/organizations/documents/update"],
    auth: "apiKey",
    summary: "Update existing documents' names and metadata; a missing document fails its item (success false, HTTP 200).",
    input: UpdateDocumentsInput,
    output: UpdateDocumentsResult,
    organization: (input) => input.organizationId,
    service: Documents,
    handler: (documents, input, caller) =>
      Effect.map(documents.update(caller.apiKey, input, "items"), answer("Document(s) updated successfully."))
  }),
  defineOperation({
    name: "organizations.documents.update",
    paths: ["/v2/organizations/documents/update"],
    auth: "apiKey",
    summary: "Update existing documents' names and metadata; a missing document fails its item (INTERNAL with per-item details, as the hosted service answers; NOT_FOUND under strictStatuses).",
    input: UpdateDocumentsInput,
    output: AddDocumentsResult,
    errors: ["INTERNAL"],
    strictStatus: "NOT_FOUND",
    organization: (input) => input.organizationId,
    service: Documents,
    handler: (documents, input, caller) =>
      Effect.map(documents.update(caller.apiKey, input, "error"), answer("Document(s) updated successfully."))
  }),
  defineOperation({
    name: "organizations.documents.delete.v1",
    paths: ["/v1/organizations/documents/delete"],
    auth: "apiKey",
    summary: "Delete documents and every row that belongs to them (comments, reactions, presence, notifications, grants, …); a missing document fails its item (success false, HTTP 200).",
    input: DeleteDocumentsInput,
    output: UpdateDocumentsResult,
    organization: (input) => input.organizationId,
    service: Documents,
    handler: (documents, input, caller) =>
      Effect.map(documents.delete(caller.apiKey, input, "items"), answer("Document(s) deleted successfully."))
  }),
  defineOperation({
    name: "organizations.documents.delete",
    paths: ["/v2/organizations/documents/delete"],
    auth: "apiKey",
    summary: "Delete documents and every row that belongs to them (comments, reactions, presence, notifications, grants, …); a missing document fails its item (INTERNAL with per-item details, as the hosted service answers; NOT_FOUND under strictStatuses).",
    input: DeleteDocumentsInput,
    output: AddDocumentsResult,
    errors: ["INTERNAL"],
    strictStatus: "NOT_FOUND",
    organization: (input) => input.organizationId,
    service: Documents,
    handler: (documents, input, caller) =>
      Effect.map(documents.delete(caller.apiKey, input, "error"), answer("Document(s) deleted successfully."))
  }),
  defineOperation({
    name: "organizations.documents.move",
    paths: ["/v2/organizations/documents/move"],
    auth: "apiKey",
    summary: "Move documents into a folder, all or none (a missing folder or document is NOT_FOUND and nothing moves).",
    input: MoveDocumentsInput,
    output: MessageResult,
    errors: ["NOT_FOUND"],
    organization: (input) => input.organizationId,
    service: Documents,
    handler: (documents, input, caller) =>
      Effect.as(documents.move(caller.apiKey, input), { status: "success" as const, message: "Documents moved successfully." })
  }),
  defineOperation({
    name: "organizations.documents.access.update",
    paths: ["/v2/organizations/documents/access/update"],
    auth: "apiKey",
    summary: "Give documents an access type of their own (they stop following their folder's); a missing document fails its item.",
    input: UpdateDocumentAccessInput,
    output: DocumentAccessResult,
    organization: (input) => input.organizationId,
    service: Documents,
    handler: (documents, input, caller) =>
      Effect.map(documents.updateAccessType(caller.apiKey, input), answer("Updated access for documents successfully."))
  }),
  defineOperation({
    name: "organizations.documents.access.disablestate.update",
    paths: ["/v2/organizations/documents/access/disablestate/update"],
    auth: "apiKey",
    summary: "Disable documents (read only for every user) or enable them again; a missing document fails its item.",
    input: UpdateDocumentDisabledInput,
    output: DocumentDisabledResult,
    organization: (input) => input.organizationId,
    service: Documents,
    handler: (documents, input, caller) =>
      Effect.map(documents.updateDisabledState(caller.apiKey, input), answer("Updated disable state for documents successfully."))
  })
] as const
