import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { firstRow, ignoreRows, mapRows } from "../sql/MapRows.js"
import { fromJson, type IntegerColumn, type JsonColumn, num, numOrNull, strOrNull, toJson } from "../sql/Rows.js"
import { type JobRow, JobsRepo, type JobSpec } from "./JobsRepo.js"

/** One `jobs` row as the drivers return it (column types: sql/Rows.ts). */
interface JobSqlRow {
  readonly api_key: string
  readonly id: string
  readonly kind: JobRow["kind"]
  readonly payload: JsonColumn
  readonly status: JobRow["status"]
  readonly tasks_total: IntegerColumn
  readonly tasks_done: IntegerColumn
  readonly last_task_completed_at: IntegerColumn | null
  readonly lease_owner: string | null
  readonly lease_until: IntegerColumn | null
  readonly error: string | null
  readonly created_at: IntegerColumn
  readonly updated_at: IntegerColumn
}

const toRow = (r: JobSqlRow): JobRow => ({
  apiKey: r.api_key,
  id: r.id,
  // A kind and its payload are written together (JobSpec).
  ...({ kind: r.kind, payload: fromJson<JobSpec["payload"] | null>(r.payload, null) } as JobSpec),
  status: r.status,
  tasksTotal: num(r.tasks_total),
  tasksDone: num(r.tasks_done),
  lastTaskCompletedAt: numOrNull(r.last_task_completed_at),
  leaseOwner: strOrNull(r.lease_owner),
  leaseUntil: numOrNull(r.lease_until),
  error: strOrNull(r.error),
  createdAt: num(r.created_at),
  updatedAt: num(r.updated_at)
})

export const SqlJobsRepo = Layer.effect(
  JobsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // Literal status lists (not parameters), so both dialects match the partial index `jobs_due`.
    const due = (now: number) => sql`status IN ('pending', 'in_progress') AND (lease_until IS NULL OR lease_until <= ${now})`
    const skipLocked = sql.onDialectOrElse({ pg: () => sql.literal("FOR UPDATE SKIP LOCKED"), orElse: () => sql.literal("") })
    return {
      insert: (job) =>
        sql`INSERT INTO jobs ${
          sql.insert({
            id: job.id,
            api_key: job.apiKey,
            kind: job.kind,
            payload: toJson(job.payload),
            status: job.status,
            tasks_total: job.tasksTotal,
            tasks_done: job.tasksDone,
            last_task_completed_at: job.lastTaskCompletedAt,
            lease_owner: job.leaseOwner,
            lease_until: job.leaseUntil,
            error: job.error,
            created_at: job.createdAt,
            updated_at: job.updatedAt
          })
        }`.pipe(ignoreRows),
      find: (apiKey, id) =>
        sql`SELECT * FROM jobs WHERE id = ${id} AND api_key = ${apiKey}`.pipe(firstRow(toRow)),
      // One statement. On PostgreSQL the subquery locks the row it picks and skips rows other
      // runners have locked (a claim in flight, or a task committing), so racing runners take
      // different jobs instead of queueing on one. The outer condition re-checks the row, which
      // is what keeps SQLite (one writer at a time, no row locks) correct too.
      claim: (owner, now, leaseMillis) =>
        sql`UPDATE jobs SET status = 'in_progress', lease_owner = ${owner}, lease_until = ${now + leaseMillis}, updated_at = ${now}
          WHERE id = (SELECT id FROM jobs WHERE ${due(now)} ORDER BY created_at, id LIMIT 1 ${skipLocked}) AND ${due(now)}
          RETURNING *`.pipe(firstRow(toRow)),
      // Returns the row's id only: the job is `job` with what this statement set. Reading the whole row
      // back parsed the payload (every task) once per task, so a job's tasks cost tasks² in all.
      completeTask: (job, owner, now, leaseUntil) => {
        const last = job.tasksDone + 1 >= job.tasksTotal
        const advanced: JobRow = {
          ...job,
          tasksDone: job.tasksDone + 1,
          lastTaskCompletedAt: now,
          status: last ? "completed" : "in_progress",
          leaseOwner: last ? null : owner,
          leaseUntil: last ? null : leaseUntil,
          updatedAt: now
        }
        return sql`UPDATE jobs SET tasks_done = ${advanced.tasksDone}, last_task_completed_at = ${now},
            status = ${advanced.status}, lease_owner = ${advanced.leaseOwner},
            lease_until = ${advanced.leaseUntil}, updated_at = ${now}
          WHERE id = ${job.id} AND status = 'in_progress' AND lease_owner = ${owner} AND tasks_done = ${job.tasksDone}
          RETURNING id`.pipe(mapRows((rows) => rows.length === 0 ? undefined : advanced))
      },
      fail: (id, owner, error, now) =>
        sql`UPDATE jobs SET status = 'failed', error = ${error}, lease_owner = NULL, lease_until = NULL, updated_at = ${now}
          WHERE id = ${id} AND status = 'in_progress' AND lease_owner = ${owner}`.pipe(ignoreRows),
      release: (id, owner, now) =>
        sql`UPDATE jobs SET lease_owner = NULL, lease_until = NULL, updated_at = ${now}
          WHERE id = ${id} AND status = 'in_progress' AND lease_owner = ${owner}`.pipe(ignoreRows)
    }
  })
)
