import * as Effect from "effect/Effect"
import { answer, answerPage } from "../protocol/Envelope.js"
import { defineOperation } from "../protocol/Operation.js"
import {
  AddDocumentsResult,
  AddDocumentsV1Input,
  AddDocumentsV2Input,
  DocumentAccessResult,
  DocumentDisabledResult,
  DocumentsPage,
  GetDocumentsInput,
  UpdateDocumentAccessInput,
  UpdateDocumentDisabledInput
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
