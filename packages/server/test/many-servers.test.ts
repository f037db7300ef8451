/**
 * Many servers, one PostgreSQL database: three `atrium serve` processes share the background jobs.
 * A third server is killed (SIGKILL) in the middle of a job; the job is taken over where it stopped,
 * only once its lease has expired, while two live servers share a batch of jobs without ever
 * holding the same one.
 */
import { testDatabase } from "@atrium/sql-pg/testing"
import { execFile } from "node:child_process"
import { join } from "node:path"
import { promisify } from "node:util"
import pg from "pg"
import { afterAll, expect, it } from "vitest"
import { killServerProcesses, startServerProcess } from "../../../test-support/ServerProcess.js"

const cli = join(__dirname, "..", "dist", "cli.js")
const db = await testDatabase()
const admin = new pg.Client({ connectionString: db.url })
await admin.connect()
afterAll(async () => {
  await admin.end()
  await db.drop()
})
/** PGlite serves every connection from one session: no row locks between connections, so no test of them. */
const embedded = db.server.startsWith("PGlite")

const LEASE_MS = 1500
const env = { ...process.env, DATABASE_URL: db.url, ATRIUM_JOBS_POLL_MS: "50", ATRIUM_JOBS_LEASE_MS: String(LEASE_MS) }
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

afterAll(killServerProcesses)
/** `atrium serve` on an ephemeral port (test-support/ServerProcess.ts). */
const startServer = () => startServerProcess([cli, "serve"], { env: { ...env, PORT: "0", HOST: "127.0.0.1" } })

/** The job ids a server's log says it claimed, with the task it claimed each at. */
const claims = (output: string) =>
  [...output.matchAll(/Job (\S+) \(userDataDeletion\): claimed by (\S+) at task (\d+) of (\d+)\./g)]
    .map(([, jobId, owner, task]) => ({ jobId: jobId!, owner: owner!, task: Number(task) }))

interface JobRow {
  readonly status: string
  readonly tasks_done: number
  readonly tasks_total: number
  readonly lease_owner: string | null
  readonly lease_until: string | null
  readonly updated_at: string
}
const jobRow = async (id: string) => (await admin.query<JobRow>("SELECT * FROM jobs WHERE id = $1", [id])).rows[0]!

const waitFor = async <A>(what: string, check: () => Promise<A | undefined>, timeoutMs = 20_000): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    const value = await check()
    if (value !== undefined) return value
    await sleep(25)
  }
  throw new Error(`timed out waiting for ${what}`)
}

it.skipIf(embedded)("two servers share the jobs; a job of a server killed mid-job is finished by another once its lease expires", async () => {
  await promisify(execFile)(process.execPath, [cli, "migrate"], { env })
  const creds = JSON.parse((await promisify(execFile)(process.execPath, [cli, "workspace", "create", "--email", "many@example.com"], { env })).stdout)
  const headers = { "content-type": "application/json", "x-service-api-key": creds.apiKey, "x-service-auth-token": creds.authToken }
  const post = async (url: string, path: string, data: unknown) => {
    const response = await fetch(url + path, { method: "POST", headers, body: JSON.stringify({ data }) })
    const body = await response.json()
    if (response.status >= 300) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`)
    return body
  }
  const seedUser = async (url: string, userId: string) => {
    await post(url, "/v2/users/add", { organizationId: "org", users: [{ userId, name: userId, email: `${userId}@example.com` }] })
    await post(url, "/v2/activities/add", {
      organizationId: "org",
      documentId: "doc",
      activities: [{ featureType: "comment", actionType: "added", actionUser: { userId } }]
    })
  }
  const deleteUser = async (url: string, userId: string, organizationIds?: ReadonlyArray<string>): Promise<string> =>
    (await post(url, "/v2/users/data/delete", { userIds: [userId], ...(organizationIds && { organizationIds }) })).result.data.jobId
  const usersLeft = async (userIds: ReadonlyArray<string>) =>
    (await admin.query("SELECT user_id FROM users WHERE api_key = $1 AND user_id = ANY($2)", [creds.apiKey, userIds])).rows.length

  // --- The doomed server: it runs a job until the job's last task (the users table, deleted last)
  // waits on a row lock this test holds, and is killed there.
  const doomed = await startServer()
  await seedUser(doomed.url, "victim")
  const blocker = new pg.Client({ connectionString: db.url })
  await blocker.connect()
  await blocker.query("BEGIN")
  await blocker.query("SELECT 1 FROM users WHERE api_key = $1 AND user_id = 'victim' FOR UPDATE", [creds.apiKey])
  const victimJob = await deleteUser(doomed.url, "victim")
  const atKill = await waitFor("the doomed server to reach the last task", async () => {
    const row = await jobRow(victimJob)
    return row.tasks_done === row.tasks_total - 1 ? row : undefined
  })
  // It is stuck in that task's transaction, holding the lease.
  await waitFor("the doomed server to wait on the lock", async () => {
    const waiting = await admin.query("SELECT 1 FROM pg_stat_activity WHERE application_name = 'atrium' AND wait_event_type = 'Lock'")
    return waiting.rows.length > 0 ? true : undefined
  })
  const doomedOwner = atKill.lease_owner!
  expect(atKill.status).toBe("in_progress")
  expect(claims(doomed.output())).toEqual([{ jobId: victimJob, owner: doomedOwner, task: 1 }])
  await doomed.stop("SIGKILL")
  await blocker.query("ROLLBACK")
  await blocker.end()

  // --- Two live servers, and a batch of jobs for them to share. Each job is narrowed to 9
  // organizations (one task per kind of data and organization), so that it lasts long enough
  // for the other server to come looking for work while one is busy.
  const [one, two] = await Promise.all([startServer(), startServer()])
  const userIds = Array.from({ length: 6 }, (_, i) => `user-${i}`)
  const organizationIds = ["org", ...Array.from({ length: 8 }, (_, i) => `org-${i}`)]
  for (const userId of userIds) await seedUser(one.url, userId)
  const batch: Array<string> = []
  for (const [i, userId] of userIds.entries()) batch.push(await deleteUser(i % 2 === 0 ? one.url : two.url, userId, organizationIds))

  // Below one runDue call's budget (1,000 tasks; each kind of user data a domain adds costs 54: 6 users × 9 organizations; 15 kinds today), so no server hands a job back half done and each
  // job is claimed exactly once (a handed-back job is claimed again, legitimately).
  const batchTasks = await admin.query<{ total: string }>("SELECT sum(tasks_total) AS total FROM jobs WHERE id = ANY($1)", [batch])
  expect(Number(batchTasks.rows[0]!.total)).toBeLessThan(1000)
  await waitFor("every job to complete", async () => {
    const rows = await admin.query<{ status: string }>("SELECT status FROM jobs WHERE id = ANY($1)", [[victimJob, ...batch]])
    return rows.rows.every((r) => r.status === "completed") ? true : undefined
  })

  // The victim's job: finished by a live server, from the task the dead one never committed,
  // and not before the dead server's lease ran out.
  const victim = await jobRow(victimJob)
  expect(victim).toMatchObject({ status: "completed", tasks_done: victim.tasks_total, lease_owner: null })
  expect(Number(victim.updated_at)).toBeGreaterThanOrEqual(Number(atKill.lease_until))
  const takeovers = [...claims(one.output()), ...claims(two.output())].filter((c) => c.jobId === victimJob)
  expect(takeovers).toHaveLength(1)
  expect(takeovers[0]!.task).toBe(atKill.tasks_total)
  expect(takeovers[0]!.owner).not.toBe(doomedOwner)
  expect(await usersLeft(["victim"])).toBe(0)

  // The batch: every job claimed exactly once, by one server or the other (nobody died, so no
  // lease expired), both servers did some of the work, and the users' activities are gone (their
  // user records stay: a deletion narrowed to organizations keeps what all organizations share).
  const batchClaims = [...claims(one.output()), ...claims(two.output())].filter((c) => c.jobId !== victimJob)
  expect(batchClaims.map((c) => c.jobId).sort()).toEqual([...batch].sort())
  expect(batchClaims.every((c) => c.task === 1)).toBe(true)
  expect(new Set(batchClaims.map((c) => c.owner)).size).toBe(2)
  expect(await usersLeft(userIds)).toBe(userIds.length)
  const activities = await post(one.url, "/v2/activities/get", { organizationId: "org" })
  expect(activities.result.data).toEqual([])
}, 60_000)
