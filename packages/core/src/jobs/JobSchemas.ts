import * as Schema from "effect/Schema"
import { SuccessResult } from "../protocol/Envelope.js"
import { Id, NonEmptyIds, optional } from "../schema/Common.js"

/** Users and organizations one deletion call may name (our limit; neither the spec nor the hosted service names one). */
const MAX_DELETION_IDS = 100

export const StartUserDataDeletionInput = Schema.Struct({
  userIds: NonEmptyIds(MAX_DELETION_IDS),
  /** Omitted: every organization of the API key. */
  organizationIds: optional(NonEmptyIds(MAX_DELETION_IDS))
})

export const UserDataDeletionStatusInput = Schema.Struct({ jobId: Id })

export const UserDataExportInput = Schema.Struct({
  organizationId: Id,
  userId: Id,
  /** The previous page's `nextPageToken`. */
  pageToken: optional(Schema.String)
})

/** Every kind of the user's data under its name (`comments`, `reactions`, `notifications`, …), each a page of records. */
export const UserDataExportResult = SuccessResult(
  Schema.Record({ key: Schema.String, value: Schema.Array(Schema.Record({ key: Schema.String, value: Schema.Unknown })) }),
  { nextPageToken: Schema.NullOr(Schema.String) }
)

export const MigrateDocumentInput = Schema.Struct({
  organizationId: Id,
  documentId: Id,
  newDocumentId: Id
})

export const MigrationStatusInput = Schema.Struct({ organizationId: Id, migrationId: Id })

export const UserDataDeletionStarted = SuccessResult(Schema.Struct({ jobId: Schema.String, tasksCount: Schema.Number }))

export const UserDataDeletionStatus = SuccessResult(Schema.Struct({
  isDeleteCompleted: Schema.Boolean,
  tasksLeft: Schema.Number,
  lastTaskCompletedTime: Schema.Number
}))

export const DocumentMigrationStarted = SuccessResult(Schema.Struct({ migrationId: Schema.String }))

export const DocumentMigrationStatus = SuccessResult(Schema.Struct({
  migrationId: Schema.String,
  status: Schema.Literal("pending", "in_progress", "completed", "failed"),
  /** Why the migration failed; only with status `failed`. */
  error: optional(Schema.String)
}))
