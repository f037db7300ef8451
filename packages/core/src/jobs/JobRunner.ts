import * as Clock from "effect/Clock"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { accessEvents } from "../access/AccessEvents.js"
import { AtriumConfig } from "../Config.js"
import { DocumentsRepo } from "../documents/DocumentsRepo.js"
import { Events } from "../events/Events.js"
import { Ids } from "../ports/Ids.js"
import { Transactions } from "../ports/Transactions.js"
import { JobDataPort } from "./JobDataPort.js"
import { type JobRow, JobsRepo, type JobTask } from "./JobsRepo.js"
import { DOCUMENT_ROWS } from "./JobTables.js"

/** A task that can never succeed: the job fails with this message. */
class TaskFailed extends Data.TaggedError("TaskFailed")<{ readonly message: string }> {}

/** Another runner took the job over (our lease expired): our task must not commit. */
class LeaseLost extends Data.TaggedError("LeaseLost") {}

/** Tasks one `runDue` call runs at most, unless told otherwise. */
const DEFAULT_MAX_TASKS = 1000

/**
 * Lets the event loop answer what waits (requests, /healthz) before the next task. On SQLite a
 * task runs in the server's one thread, and without a pause between them a deletion of 100 users
 * in 100 organizations (1,000 tasks) held every request for seconds.
 */
const letOthersIn = Effect.async<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})

/**
 * Runs background jobs, one task at a time. Each task commits in one
 * transaction together with the job's progress and lease renewal, so a crash
 * neither loses nor repeats a committed task: the job is taken over, where it
 * stopped, once its lease expires.
 *
 * A task that cannot succeed (a migration's new id is taken) fails the job.
 * An unexpected failure (a defect) rolls the task back and leaves the lease
 * to expire, so the task is retried after `jobs.leaseMillis`.
 *
 * A task that removes or moves rows the access rule reads emits in its transaction:
 * `access.user_data_deleted` per organization and user whose rows it removed,
 * `access.document_migrated` when it moved the document's row or its grants
 * (docs/decisions.md, "Access").
 */
export class JobRunner extends Effect.Service<JobRunner>()("@atrium/core/JobRunner", {
  accessors: true,
  effect: Effect.gen(function*() {
    const repo = yield* JobsRepo
    const data = yield* JobDataPort
    const documents = yield* DocumentsRepo
    const events = yield* Events
    const { withTransaction } = yield* Transactions
    const { leaseMillis } = (yield* AtriumConfig).jobs

    const migrate = (job: JobRow & { kind: "documentMigration" }, task: JobTask) =>
      Effect.gen(function*() {
        const { documentId, newDocumentId, organizationId } = job.payload
        // The document row moves first, so these checks run before anything has moved.
        if (task.data === DOCUMENT_ROWS) {
          if ((yield* documents.find(job.apiKey, organizationId, newDocumentId)) !== undefined) {
            return yield* new TaskFailed({ message: `Document ${newDocumentId} already exists in organization ${organizationId}.` })
          }
          if ((yield* documents.find(job.apiKey, organizationId, documentId)) === undefined) {
            return yield* new TaskFailed({ message: `Document ${documentId} no longer exists in organization ${organizationId}.` })
          }
        }
        if (yield* data.moveDocumentData(job.apiKey, organizationId, documentId, newDocumentId, task.data)) {
          yield* events.emit(job.apiKey, [accessEvents.documentMigrated(organizationId, documentId, newDocumentId)])
        }
      })

    const deleteUserData = (job: JobRow & { kind: "userDataDeletion" }, task: JobTask) =>
      Effect.flatMap(data.deleteUserData(job.apiKey, job.payload.userIds, task.organizationId, task.data), (removed) =>
        events.emit(job.apiKey, removed.map(({ organizationId, userId }) => accessEvents.userDataDeleted(userId, organizationId))))

    const perform = (job: JobRow, task: JobTask) =>
      job.kind === "userDataDeletion" ? deleteUserData(job, task) : migrate(job, task)

    /** Runs the job's next task; the job as it is now, or undefined when this runner must stop working on it. */
    const runNextTask = (job: JobRow, owner: string) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const task = job.payload.tasks[job.tasksDone]!
        return yield* withTransaction(Effect.gen(function*() {
          // Progress first: it locks the job row and fences out a runner whose lease expired.
          const advanced = yield* repo.completeTask(job, owner, now, now + leaseMillis)
          if (advanced === undefined) return yield* new LeaseLost()
          yield* perform(job, task)
          return advanced
        })).pipe(
          Effect.catchTags({
            LeaseLost: () => Effect.succeed(undefined),
            TaskFailed: (failure) =>
              Effect.as(
                Effect.zipRight(repo.fail(job.id, owner, failure.message, now), Effect.logWarning(`Job ${job.id}: failed: ${failure.message}`)),
                undefined
              )
          }),
          Effect.catchAllDefect((defect) =>
            Effect.as(
              Effect.logError(`Job ${job.id}: task ${job.tasksDone + 1} of ${job.tasksTotal} (${task.data}) failed; retried once the lease expires.`, defect),
              undefined
            )
          )
        )
      })

    return {
      /**
       * Claims due jobs and runs their tasks until none is due or `maxTasks`
       * tasks have run (pull-based: for tests, cron and serverless hosts).
       * Returns the number of tasks run.
       */
      runDue: (owner: string, options: { readonly maxTasks?: number } = {}) =>
        Effect.gen(function*() {
          const maxTasks = options.maxTasks ?? DEFAULT_MAX_TASKS
          let ran = 0
          while (ran < maxTasks) {
            const claimed = yield* repo.claim(owner, yield* Clock.currentTimeMillis, leaseMillis)
            if (claimed === undefined) break
            // Which runner holds which job, from which task: what an operator of many servers needs to follow a job.
            yield* Effect.logInfo(`Job ${claimed.id} (${claimed.kind}): claimed by ${owner} at task ${claimed.tasksDone + 1} of ${claimed.tasksTotal}.`)
            let job: JobRow | undefined = claimed
            while (job?.status === "in_progress" && ran < maxTasks) {
              job = yield* runNextTask(job, owner)
              if (job !== undefined) ran++
              yield* letOthersIn
            }
            if (job?.status === "completed") yield* Effect.logInfo(`Job ${job.id}: completed by ${owner}.`)
            // Out of budget mid-job: hand it back rather than make others wait for the lease.
            if (job?.status === "in_progress") yield* repo.release(job.id, owner, yield* Clock.currentTimeMillis)
          }
          return ran
        })
    }
  })
}) {
  /**
   * A runner in the background for as long as the layer's scope lives: every
   * `jobs.pollIntervalMillis` it runs every due task. `owner` names this
   * runner in leases (default: a new random id).
   */
  static readonly background = (options: { readonly owner?: string } = {}) =>
    Layer.scopedDiscard(Effect.gen(function*() {
      const runner = yield* JobRunner
      const { pollIntervalMillis } = (yield* AtriumConfig).jobs
      const owner = options.owner ?? (yield* (yield* Ids).make("runner"))
      const poll = Effect.sleep(pollIntervalMillis).pipe(
        Effect.zipRight(runner.runDue(owner)),
        Effect.catchAllCause((cause) => Effect.logError("Background job runner: a poll failed.", cause))
      )
      yield* Effect.forkScoped(Effect.forever(poll))
    }))
}
