import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as TestClock from "effect/TestClock"
import { Activities } from "../../src/activities/Activities.js"
import { atriumLayer } from "../../src/Atrium.js"
import { AtriumConfig } from "../../src/Config.js"
import { Documents } from "../../src/documents/Documents.js"
import { JobDataPort } from "../../src/jobs/JobDataPort.js"
import { JobRunner } from "../../src/jobs/JobRunner.js"
import { Jobs } from "../../src/jobs/Jobs.js"
import { JobsRepo } from "../../src/jobs/JobsRepo.js"
import { Ids } from "../../src/ports/Ids.js"
import { Presence } from "../../src/presence/Presence.js"
import { PresenceRepo } from "../../src/presence/PresenceRepo.js"
import { MemoryStorage } from "../../src/testing/index.js"
import { UserGroupsRepo } from "../../src/users/UserGroupsRepo.js"

const KEY = "key_1"
const START = 1_700_000_000_000

const Atrium = atriumLayer({ storage: MemoryStorage, ids: Ids.Sequential })

/** Activities by `userId` in `organizationId`, one per document. */
const addActivities = (organizationId: string, userId: string, documentIds: ReadonlyArray<string>) =>
  Effect.forEach(documentIds, (documentId) =>
    Activities.add(KEY, {
      organizationId,
      documentId,
      activities: [{ featureType: "comment", actionType: "added", actionUser: { userId } }]
    }), { discard: true })

const activityUsers = (organizationId: string, documentId?: string) =>
  Effect.map(
    Activities.get(KEY, { organizationId, ...(documentId !== undefined && { documentId }) }),
    (page) => page.items.map((activity) => activity.actionUser.userId).sort()
  )

const deletionStatus = (jobId: string) => Jobs.userDataDeletionStatus(KEY, { jobId })

/** Three organizations × every kind of user data: several tasks. */
const startDeletion = Jobs.startUserDataDeletion(KEY, { userIds: ["alice"], organizationIds: ["o1", "o2", "o3"] })

describe("JobRunner", () => {
  it.effect("status follows the job task by task, timed by the clock", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(START)
      yield* addActivities("o1", "alice", ["d1", "d2"])
      yield* addActivities("o1", "bob", ["d1"])
      yield* addActivities("o4", "alice", ["d1"])
      const kinds = (yield* JobDataPort).userData.filter((kind) => kind.perOrganization).length
      const { jobId, tasksCount } = yield* startDeletion
      expect(tasksCount).toBe(kinds * 3)
      expect(tasksCount).toBeGreaterThan(1)
      expect(yield* deletionStatus(jobId)).toEqual({ isDeleteCompleted: false, tasksLeft: tasksCount, lastTaskCompletedTime: START })

      for (let done = 1; done <= tasksCount; done++) {
        yield* TestClock.adjust(1000)
        expect(yield* JobRunner.runDue("runner", { maxTasks: 1 })).toBe(1)
        expect(yield* deletionStatus(jobId)).toEqual({
          isDeleteCompleted: done === tasksCount,
          tasksLeft: tasksCount - done,
          lastTaskCompletedTime: START + done * 1000
        })
      }
      expect(yield* JobRunner.runDue("runner")).toBe(0)
      // Only alice's data in the organizations named is gone.
      expect(yield* activityUsers("o1")).toEqual(["bob"])
      expect(yield* activityUsers("o4")).toEqual(["alice"])
    }).pipe(Effect.provide(Atrium)))

  it.effect("the background runner waits for the poll interval, then completes the job, letting the event loop in between tasks", () =>
    Effect.gen(function*() {
      const { pollIntervalMillis } = (yield* AtriumConfig).jobs
      yield* addActivities("o1", "alice", ["d1"])
      const { jobId, tasksCount } = yield* startDeletion
      yield* TestClock.adjust(pollIntervalMillis - 1)
      expect(yield* deletionStatus(jobId)).toMatchObject({ isDeleteCompleted: false, tasksLeft: tasksCount })
      yield* TestClock.adjust(1)
      // A turn of the event loop after each task (so that a server answers meanwhile): one task per turn.
      const turns: Array<number> = []
      for (let turn = 0; turn <= tasksCount && (yield* deletionStatus(jobId)).tasksLeft > 0; turn++) {
        turns.push((yield* deletionStatus(jobId)).tasksLeft)
        yield* Effect.promise(() => new Promise((resolve) => setImmediate(resolve)))
      }
      expect(turns.length).toBeGreaterThan(1)
      expect(yield* deletionStatus(jobId)).toMatchObject({ isDeleteCompleted: true, tasksLeft: 0, lastTaskCompletedTime: pollIntervalMillis })
      expect(yield* activityUsers("o1")).toEqual([])
    }).pipe(Effect.provide(JobRunner.background({ owner: "background" }).pipe(Layer.provideMerge(Atrium)))))

  it.effect("a crashed runner's job is taken over only once its lease expires", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(START)
      const { leaseMillis } = (yield* AtriumConfig).jobs
      const repo = yield* JobsRepo
      const { jobId, tasksCount } = yield* startDeletion
      // "crashed" claims the job and never finishes a task.
      const claimed = yield* repo.claim("crashed", START, leaseMillis)
      expect(claimed?.id).toBe(jobId)

      expect(yield* JobRunner.runDue("survivor")).toBe(0)
      yield* TestClock.adjust(leaseMillis - 1)
      expect(yield* JobRunner.runDue("survivor")).toBe(0)
      expect(yield* deletionStatus(jobId)).toMatchObject({ tasksLeft: tasksCount })

      yield* TestClock.adjust(1)
      expect(yield* JobRunner.runDue("survivor")).toBe(tasksCount)
      expect(yield* deletionStatus(jobId)).toMatchObject({ isDeleteCompleted: true, tasksLeft: 0 })
      // Back from the dead, the crashed runner can no longer record progress.
      expect(yield* repo.completeTask(claimed!, "crashed", START + leaseMillis, START + 2 * leaseMillis)).toBeUndefined()
    }).pipe(Effect.provide(Atrium)))

  it.effect("a task that dies rolls back its data and its progress, and is retried after the lease", () => {
    // The data port deletes, then dies, on its second call only. It offers the job one kind of user
    // data, activities, so the tasks do not depend on the order of the domains' tables.
    let calls = 0
    const Flaky = Layer.effect(
      JobDataPort,
      Effect.map(JobDataPort, (port) => ({
        ...port,
        userData: port.userData.filter(({ kind }) => kind === "activities"),
        deleteUserData: (...args: Parameters<typeof port.deleteUserData>) =>
          port.deleteUserData(...args).pipe(Effect.tap(() => ++calls === 2 ? Effect.die("disk on fire") : Effect.void))
      }))
    )
    return Effect.gen(function*() {
      const { leaseMillis } = (yield* AtriumConfig).jobs
      yield* addActivities("o1", "alice", ["d1"])
      yield* addActivities("o2", "alice", ["d1"])
      const { jobId, tasksCount } = yield* Jobs.startUserDataDeletion(KEY, { userIds: ["alice"], organizationIds: ["o1", "o2"] })
      // Tasks run kind by kind: activities in o1, then activities in o2 (which dies).
      expect(yield* JobRunner.runDue("runner")).toBe(1)
      expect(yield* deletionStatus(jobId)).toMatchObject({ isDeleteCompleted: false, tasksLeft: tasksCount - 1 })
      expect(yield* activityUsers("o1")).toEqual([])
      expect(yield* activityUsers("o2")).toEqual(["alice"])

      // The failed runner keeps its lease: nobody retries before it expires.
      expect(yield* JobRunner.runDue("other")).toBe(0)
      yield* TestClock.adjust(leaseMillis)
      expect(yield* JobRunner.runDue("other")).toBe(tasksCount - 1)
      expect(yield* deletionStatus(jobId)).toMatchObject({ isDeleteCompleted: true, tasksLeft: 0 })
      expect(yield* activityUsers("o2")).toEqual([])
    }).pipe(Effect.provide(Layer.merge(Atrium, Layer.fresh(Layer.merge(JobRunner.Default, Jobs.Default)).pipe(Layer.provide(Flaky), Layer.provide(Atrium)))))
  })

  it.effect("a migration whose new id got taken fails without moving anything", () =>
    Effect.gen(function*() {
      yield* Documents.addV1(KEY, { organizationId: "o1", documents: [{ documentId: "d1" }] })
      yield* addActivities("o1", "alice", ["d1"])
      const { migrationId } = yield* Jobs.startDocumentMigration(KEY, { organizationId: "o1", documentId: "d1", newDocumentId: "d2" })
      expect((yield* Jobs.documentMigrationStatus(KEY, { organizationId: "o1", migrationId })).status).toBe("pending")
      yield* Documents.addV1(KEY, { organizationId: "o1", documents: [{ documentId: "d2" }] })

      expect(yield* JobRunner.runDue("runner")).toBe(0)
      expect(yield* Jobs.documentMigrationStatus(KEY, { organizationId: "o1", migrationId })).toEqual({
        migrationId,
        status: "failed",
        error: "Document d2 already exists in organization o1."
      })
      expect(yield* activityUsers("o1", "d1")).toEqual(["alice"])
      expect(yield* activityUsers("o1", "d2")).toEqual([])
      // A failed job is never claimed again.
      yield* TestClock.adjust(1_000_000)
      expect(yield* JobRunner.runDue("runner")).toBe(0)
    }).pipe(Effect.provide(Atrium)))

  it.effect("a migration moves the presence list; a deletion empties the user's presence and group memberships", () =>
    Effect.gen(function*() {
      const presence = yield* PresenceRepo
      const groups = yield* UserGroupsRepo
      const present = (documentId: string) => Effect.map(presence.list(KEY, "o1", documentId, 0), (rows) => rows.map((row) => row.userId).sort())
      yield* Documents.addV1(KEY, { organizationId: "o1", documents: [{ documentId: "d1" }] })
      yield* Presence.add(KEY, { organizationId: "o1", documentId: "d1", users: [{ userId: "alice" }, { userId: "bob" }] })
      yield* groups.addMember(KEY, "o1", "g1", "alice", 0)
      yield* groups.addMember(KEY, "o1", "g1", "bob", 0)

      yield* Jobs.startDocumentMigration(KEY, { organizationId: "o1", documentId: "d1", newDocumentId: "d2" })
      yield* JobRunner.runDue("runner")
      expect(yield* present("d2")).toEqual(["alice", "bob"])
      expect(yield* present("d1")).toEqual([])

      yield* Jobs.startUserDataDeletion(KEY, { userIds: ["alice"] })
      yield* JobRunner.runDue("runner")
      expect(yield* present("d2")).toEqual(["bob"])
      expect(yield* groups.removeMember(KEY, "o1", "g1", "alice")).toBe(false)
      expect(yield* groups.removeMember(KEY, "o1", "g1", "bob")).toBe(true)
    }).pipe(Effect.provide(Atrium)))
})
