/**
 * Job claims on PostgreSQL pass over rows other transactions hold (FOR UPDATE SKIP LOCKED): a runner
 * whose task is still committing, or hung mid-task past its lease, never makes the others wait.
 */
import { type JobRow, JobsRepo, newJob } from "@atrium/core"
import { afterAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import pg from "pg"
import { PgStorage } from "../src/index.js"
import { testDatabase } from "../src/testing/index.js"

const db = await testDatabase()
afterAll(() => db.drop())
/** PGlite serves every connection from one session: there are no row locks between connections to skip. */
const embedded = db.server.startsWith("PGlite")

const job = (id: string, createdAt: number): JobRow =>
  newJob("key", id, { kind: "userDataDeletion", payload: { userIds: ["u"], organizationIds: null, tasks: [{ data: "activities" }] } }, createdAt)

describe("JobsRepo.claim on PostgreSQL", () => {
  it.effect.skipIf(embedded)("takes the next due job instead of waiting for one another transaction holds", () =>
    Effect.gen(function*() {
      const jobs = yield* JobsRepo
      yield* jobs.insert(job("older", 1))
      yield* jobs.insert(job("newer", 2))
      // Another runner's transaction holds the older job's row, as a task in flight does.
      const holder = new pg.Client({ connectionString: db.url })
      yield* Effect.acquireRelease(Effect.promise(() => holder.connect()), () => Effect.promise(() => holder.end()))
      yield* Effect.promise(() => holder.query("BEGIN"))
      yield* Effect.promise(() => holder.query("SELECT 1 FROM jobs WHERE id = 'older' FOR UPDATE"))

      // Without SKIP LOCKED this claim would wait for the holder, and the test would time out.
      const claimed = yield* jobs.claim("runner-b", 10, 1000)
      expect(claimed?.id).toBe("newer")

      yield* Effect.promise(() => holder.query("ROLLBACK"))
      expect((yield* jobs.claim("runner-b", 10, 1000))?.id).toBe("older")
      expect(yield* jobs.claim("runner-c", 10, 1000)).toBeUndefined()
    }).pipe(Effect.scoped, Effect.provide(PgStorage.layer({ url: db.url }))), 10_000)
})
