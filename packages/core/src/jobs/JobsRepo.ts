import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

export type JobStatus = "pending" | "in_progress" | "completed" | "failed"

/**
 * One step of a job: the rows of one kind of data (`JobDataPort`), within one
 * organization or, without `organizationId`, within all of them.
 */
export interface JobTask {
  readonly data: string
  readonly organizationId?: string
}

export interface UserDataDeletionPayload {
  readonly userIds: ReadonlyArray<string>
  /** null: every organization of the API key. */
  readonly organizationIds: ReadonlyArray<string> | null
  readonly tasks: ReadonlyArray<JobTask>
}

export interface DocumentMigrationPayload {
  readonly organizationId: string
  readonly documentId: string
  readonly newDocumentId: string
  readonly tasks: ReadonlyArray<JobTask>
}

/** What a job does: its kind and its payload, task list included (fixed when the job is created). */
export type JobSpec =
  | { readonly kind: "userDataDeletion"; readonly payload: UserDataDeletionPayload }
  | { readonly kind: "documentMigration"; readonly payload: DocumentMigrationPayload }

export type JobRow = JobSpec & {
  readonly apiKey: string
  readonly id: string
  readonly status: JobStatus
  readonly tasksTotal: number
  /** Tasks committed so far: the next task to run is `payload.tasks[tasksDone]`. */
  readonly tasksDone: number
  readonly lastTaskCompletedAt: number | null
  /** The runner holding the job, until `leaseUntil` (ms); null when nobody holds it. */
  readonly leaseOwner: string | null
  readonly leaseUntil: number | null
  /** Why the job failed. */
  readonly error: string | null
  readonly createdAt: number
  readonly updatedAt: number
}

/** A job as it is created: pending, nothing done, held by nobody. */
export const newJob = (apiKey: string, id: string, spec: JobSpec, now: number): JobRow => ({
  ...spec,
  apiKey,
  id,
  status: "pending",
  tasksTotal: spec.payload.tasks.length,
  tasksDone: 0,
  lastTaskCompletedAt: null,
  leaseOwner: null,
  leaseUntil: null,
  error: null,
  createdAt: now,
  updatedAt: now
})

/**
 * Storage port: background jobs. Reads are per API key; `claim` serves the
 * runner, which works for every key. Every write of a runner is fenced by its
 * lease: it applies only while `leaseOwner` is that runner.
 */
export class JobsRepo extends Context.Tag("@atrium/core/JobsRepo")<JobsRepo, {
  readonly insert: (row: JobRow) => Effect.Effect<void>
  readonly find: (apiKey: string, id: string) => Effect.Effect<JobRow | undefined>
  /**
   * Atomically takes the oldest job that is pending, or in progress with no
   * live lease (`leaseUntil <= now`): status in_progress, lease to `owner`
   * until `now + leaseMillis`. Undefined when no job is due.
   */
  readonly claim: (owner: string, now: number, leaseMillis: number) => Effect.Effect<JobRow | undefined>
  /**
   * Records the task `job.tasksDone` as done: progress + 1, last completion
   * `now`, lease renewed to `leaseUntil` (or released when it was the last
   * task, which completes the job). Undefined, and nothing written, when
   * `owner` no longer holds the job or its progress moved on.
   */
  readonly completeTask: (job: JobRow, owner: string, now: number, leaseUntil: number) => Effect.Effect<JobRow | undefined>
  /** Marks the job failed with `error` and releases it, if `owner` holds it. */
  readonly fail: (id: string, owner: string, error: string, now: number) => Effect.Effect<void>
  /** Gives the job back (still in progress) so any runner may claim it at once, if `owner` holds it. */
  readonly release: (id: string, owner: string, now: number) => Effect.Effect<void>
}>() {}
