import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { DocumentsRepo } from "../documents/DocumentsRepo.js"
import { alreadyExists, ApiError, invalidArgument, notFound } from "../protocol/ApiError.js"
import { Ids } from "../ports/Ids.js"
import { JobDataPort } from "./JobDataPort.js"
import type {
  MigrateDocumentInput,
  MigrationStatusInput,
  StartUserDataDeletionInput,
  UserDataDeletionStatusInput
} from "./JobSchemas.js"
import { JobsRepo, type JobSpec, newJob } from "./JobsRepo.js"

/** Starting user-data deletions and document migrations, and reporting their progress; `JobRunner` does the work. */
export class Jobs extends Effect.Service<Jobs>()("@atrium/core/Jobs", {
  accessors: true,
  effect: Effect.gen(function*() {
    const repo = yield* JobsRepo
    const data = yield* JobDataPort
    const documents = yield* DocumentsRepo
    const ids = yield* Ids

    const create = (apiKey: string, id: string, spec: JobSpec) =>
      Effect.gen(function*() {
        const row = newJob(apiKey, id, spec, yield* Clock.currentTimeMillis)
        yield* repo.insert(row)
        return row
      })

    return {
      /**
       * users/data/delete (docs/compatibility.md, "Jobs"): one task per kind of user
       * data, and per organization when `organizationIds` narrows the job. A
       * narrowed job keeps data shared by all organizations (the user record).
       */
      startUserDataDeletion: (apiKey: string, input: typeof StartUserDataDeletionInput.Type) =>
        Effect.gen(function*() {
          const organizationIds = input.organizationIds ?? null
          const tasks = data.userData.flatMap(({ kind, perOrganization }) =>
            organizationIds === null
              ? [{ data: kind }]
              : perOrganization
              ? organizationIds.map((organizationId) => ({ data: kind, organizationId }))
              : []
          )
          const job = yield* create(apiKey, yield* ids.make("job"), {
            kind: "userDataDeletion",
            payload: { userIds: input.userIds, organizationIds, tasks }
          })
          return { jobId: job.id, tasksCount: job.tasksTotal }
        }),

      /**
       * Spec users/data/delete/status. An unknown job (or another key's) is the
       * spec's failure example: INVALID_ARGUMENT with `code` 500. Before the
       * first task, `lastTaskCompletedTime` is the job's creation time.
       */
      userDataDeletionStatus: (apiKey: string, input: typeof UserDataDeletionStatusInput.Type) =>
        Effect.gen(function*() {
          const job = yield* repo.find(apiKey, input.jobId)
          if (job?.kind !== "userDataDeletion") {
            return yield* new ApiError({ status: "INVALID_ARGUMENT", code: 500, message: `Data deletion job ${input.jobId} does not exist.` })
          }
          return {
            isDeleteCompleted: job.status === "completed",
            tasksLeft: job.tasksTotal - job.tasksDone,
            lastTaskCompletedTime: job.lastTaskCompletedAt ?? job.createdAt
          }
        }),

      /** Spec documents/migrate: moves the document and its data to `newDocumentId` in the background. */
      startDocumentMigration: (apiKey: string, input: typeof MigrateDocumentInput.Type) =>
        Effect.gen(function*() {
          const { documentId, newDocumentId, organizationId } = input
          if (documentId === newDocumentId) {
            return yield* invalidArgument("newDocumentId must differ from documentId.")
          }
          if ((yield* documents.find(apiKey, organizationId, documentId)) === undefined) {
            return yield* notFound(`Document ${documentId} does not exist in organization ${organizationId}.`)
          }
          if ((yield* documents.find(apiKey, organizationId, newDocumentId)) !== undefined) {
            return yield* alreadyExists(`Document ${newDocumentId} already exists in organization ${organizationId}.`)
          }
          const job = yield* create(apiKey, yield* ids.make("migration"), {
            kind: "documentMigration",
            payload: { organizationId, documentId, newDocumentId, tasks: data.documentData.map((kind) => ({ data: kind })) }
          })
          return { migrationId: job.id }
        }),

      /** documents/migrate/status (docs/compatibility.md, "Jobs"); a failed migration also says why. */
      documentMigrationStatus: (apiKey: string, input: typeof MigrationStatusInput.Type) =>
        Effect.gen(function*() {
          const job = yield* repo.find(apiKey, input.migrationId)
          if (job?.kind !== "documentMigration" || job.payload.organizationId !== input.organizationId) {
            return yield* notFound(`Migration ${input.migrationId} does not exist in organization ${input.organizationId}.`)
          }
          return { migrationId: job.id, status: job.status, ...(job.error !== null && { error: job.error }) }
        })
    }
  })
}) {}
