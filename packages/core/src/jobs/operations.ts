import * as Effect from "effect/Effect"
import { answer, success } from "../protocol/Envelope.js"
import { defineOperation } from "../protocol/Operation.js"
import { Jobs } from "./Jobs.js"
import {
  DocumentMigrationStarted,
  DocumentMigrationStatus,
  MigrateDocumentInput,
  MigrationStatusInput,
  StartUserDataDeletionInput,
  UserDataDeletionStarted,
  UserDataDeletionStatus,
  UserDataDeletionStatusInput,
  UserDataExportInput,
  UserDataExportResult
} from "./JobSchemas.js"
import { UserDataExport } from "./UserDataExport.js"

export const jobOperations = [
  defineOperation({
    name: "users.data.delete",
    paths: ["/v2/users/data/delete"],
    auth: "apiKey",
    summary: "Start deleting users' data (optionally in some organizations only); the job runs in the background.",
    input: StartUserDataDeletionInput,
    output: UserDataDeletionStarted,
    // 202 Accepted: the hosted service answers `statusCode: 202` (docs/compatibility.md, "Jobs").
    successStatus: 202,
    service: Jobs,
    handler: (jobs, input, caller) =>
      Effect.map(jobs.startUserDataDeletion(caller.apiKey, input), answer("Data deletion process has been initiated."))
  }),
  defineOperation({
    name: "users.data.delete.status",
    paths: ["/v2/users/data/delete/status"],
    auth: "apiKey",
    summary: "Progress of a user-data deletion job.",
    input: UserDataDeletionStatusInput,
    output: UserDataDeletionStatus,
    errors: ["INVALID_ARGUMENT"],
    service: Jobs,
    handler: (jobs, input, caller) =>
      Effect.map(jobs.userDataDeletionStatus(caller.apiKey, input), answer("Data fetched successfully."))
  }),
  defineOperation({
    name: "users.data.get",
    paths: ["/v2/users/data/get"],
    auth: "apiKey",
    summary: "Export a user's data in an organization: every record users/data/delete would remove, by kind, a page at a time.",
    input: UserDataExportInput,
    output: UserDataExportResult,
    errors: ["INVALID_ARGUMENT"],
    service: UserDataExport,
    handler: (exports, input, caller) =>
      Effect.map(exports.page(caller.apiKey, input), ({ data, nextPageToken }) => ({ ...success("User data retrieved successfully.", data), nextPageToken }))
  }),
  defineOperation({
    name: "organizations.documents.migrate",
    paths: ["/v2/organizations/documents/migrate"],
    auth: "apiKey",
    summary: "Start moving a document and all its data to a new document id; the migration runs in the background.",
    input: MigrateDocumentInput,
    output: DocumentMigrationStarted,
    errors: ["INVALID_ARGUMENT", "NOT_FOUND", "ALREADY_EXISTS"],
    organization: (input) => input.organizationId,
    service: Jobs,
    handler: (jobs, input, caller) =>
      Effect.map(jobs.startDocumentMigration(caller.apiKey, input), answer("Document migration started successfully."))
  }),
  defineOperation({
    name: "organizations.documents.migrate.status",
    paths: ["/v2/organizations/documents/migrate/status"],
    auth: "apiKey",
    summary: "Status of a document migration: pending, in_progress, completed or failed.",
    input: MigrationStatusInput,
    output: DocumentMigrationStatus,
    errors: ["NOT_FOUND"],
    organization: (input) => input.organizationId,
    service: Jobs,
    handler: (jobs, input, caller) =>
      Effect.map(jobs.documentMigrationStatus(caller.apiKey, input), answer("Migration status retrieved successfully."))
  })
] as const
