import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MemoryDb } from "../testing/memory/MemoryDb.js"
import { compareText } from "../TextOrder.js"
import { type JobRow, JobsRepo } from "./JobsRepo.js"

/** Pending, or in progress with no live lease. */
const isDue = (job: JobRow, now: number) =>
  (job.status === "pending" || job.status === "in_progress") && (job.leaseUntil === null || job.leaseUntil <= now)

export const MemoryJobsRepo = Layer.effect(
  JobsRepo,
  Effect.gen(function*() {
    // Job ids are server-made and unique, as the SQL primary key is.
    const table = (yield* MemoryDb).table<JobRow>("jobs")
    const held = (id: string, owner: string) => {
      const job = table.get(id)
      return job !== undefined && job.status === "in_progress" && job.leaseOwner === owner ? job : undefined
    }
    return {
      insert: (job) => Effect.sync(() => table.set(job.id, job)),
      find: (apiKey, id) =>
        Effect.sync(() => {
          const job = table.get(id)
          return job?.apiKey === apiKey ? job : undefined
        }),
      claim: (owner, now, leaseMillis) =>
        Effect.sync(() => {
          const next = table.values()
            .filter((job) => isDue(job, now))
            .sort((a, b) => a.createdAt - b.createdAt || compareText(a.id, b.id))[0]
          if (next === undefined) return undefined
          const claimed: JobRow = { ...next, status: "in_progress", leaseOwner: owner, leaseUntil: now + leaseMillis, updatedAt: now }
          table.set(claimed.id, claimed)
          return claimed
        }),
      completeTask: (job, owner, now, leaseUntil) =>
        Effect.sync(() => {
          const current = held(job.id, owner)
          if (current === undefined || current.tasksDone !== job.tasksDone) return undefined
          const tasksDone = current.tasksDone + 1
          const last = tasksDone >= current.tasksTotal
          const next: JobRow = {
            ...current,
            tasksDone,
            lastTaskCompletedAt: now,
            status: last ? "completed" : "in_progress",
            leaseOwner: last ? null : owner,
            leaseUntil: last ? null : leaseUntil,
            updatedAt: now
          }
          table.set(next.id, next)
          return next
        }),
      fail: (id, owner, error, now) =>
        Effect.sync(() => {
          const current = held(id, owner)
          if (current !== undefined) {
            table.set(id, { ...current, status: "failed", error, leaseOwner: null, leaseUntil: null, updatedAt: now })
          }
        }),
      release: (id, owner, now) =>
        Effect.sync(() => {
          const current = held(id, owner)
          if (current !== undefined) table.set(id, { ...current, leaseOwner: null, leaseUntil: null, updatedAt: now })
        })
    }
  })
)
