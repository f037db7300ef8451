import { type AtriumHandler, JobRunner } from "@atrium/core"
import { createTestWorkspace, directClient, testAtrium, type TestClient, type TestCredentials } from "@atrium/core/testing"
import { SqliteStorage } from "@atrium/sql-sqlite"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type * as ManagedRuntime from "effect/ManagedRuntime"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { forEachBackend } from "../../../../test-support/backends.js"

/** Runs every due job task to completion, as a cron-driven host would (calling again while a call used its whole budget). */
const runJobs = async (atrium: AtriumHandler) => {
  while ((await atrium.runtime.runPromise(JobRunner.runDue("test"))) > 0) {
    // Earlier tests' unfinished jobs come first; keep going until nothing is due.
  }
}

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`)

const seed = {
  activity: (client: TestClient, creds: TestCredentials, organizationId: string, documentId: string, userId: string) =>
    client.post("/v2/activities/add", {
      organizationId,
      documentId,
      activities: [{ featureType: "comment", actionType: "added", actionUser: { userId } }]
    }, creds.headers),
  judgment: (client: TestClient, creds: TestCredentials, organizationId: string, documentId: string, reviewerId: string) =>
    client.post("/v2/memory/judgments/add", {
      judgments: [{ organizationId, documentId, content: "Looks good", reasoning: "fine", decision: "approved", judgeType: "human", reviewerId }]
    }, creds.headers),
  execution: (client: TestClient, creds: TestCredentials, organizationId: string, documentId: string) =>
    client.post("/v2/agents/execution/record", {
      agentId: "reviewer",
      agentName: "Reviewer",
      agentVersion: 1,
      status: "passed",
      message: "ok",
      startedAt: 1,
      completedAt: 2,
      organizationId,
      documentId
    }, creds.headers),
  users: (client: TestClient, creds: TestCredentials, organizationId: string, userIds: ReadonlyArray<string>, documentId?: string) =>
    client.post("/v2/users/add", {
      organizationId,
      ...(documentId !== undefined && { documentId, createDocument: true }),
      users: userIds.map((userId) => ({ userId, name: `Name of ${userId}`, email: `${userId}@example.com` }))
    }, creds.headers),
  inboxNone: (client: TestClient, creds: TestCredentials, organizationId: string, documentId: string, userId: string) =>
    client.post("/v2/notifications/config/set", { organizationId, documentIds: [documentId], userIds: [userId], config: { inbox: "NONE" } }, creds.headers),
  documents: (client: TestClient, creds: TestCredentials, organizationId: string, documents: ReadonlyArray<{ documentId: string; documentName?: string }>) =>
    client.post("/v1/organizations/documents/add", { organizationId, documents }, creds.headers)
}

const read = {
  activityUsers: async (client: TestClient, creds: TestCredentials, organizationId: string, documentId?: string) => {
    const answer = await client.post("/v2/activities/get", { organizationId, ...(documentId && { documentId }) }, creds.headers)
    expect(answer.status).toBe(200)
    return answer.body.result.data.map((a: { actionUser: { userId: string } }) => a.actionUser.userId).sort()
  },
  judgmentDocuments: async (client: TestClient, creds: TestCredentials, filters: Record<string, string>) => {
    const answer = await client.post("/v2/memory/judgments/query", filters, creds.headers)
    expect(answer.status).toBe(200)
    return answer.body.result.results.map((j: { documentId: string }) => j.documentId)
  },
  executionDocuments: async (client: TestClient, creds: TestCredentials, documentId: string) => {
    const answer = await client.post("/v2/agents/execution/list", { documentId }, creds.headers)
    expect(answer.status).toBe(200)
    return answer.body.result.items.map((e: { documentId: string }) => e.documentId)
  },
  users: async (client: TestClient, creds: TestCredentials, organizationId: string, documentId?: string) => {
    const answer = await client.post("/v2/users/get", { organizationId, ...(documentId && { documentId }) }, creds.headers)
    expect(answer.status).toBe(200)
    return answer.body.result.data.map((u: { userId: string; name: string }) => `${u.userId}:${u.name}`).sort()
  },
  /** The user's inbox setting on the document: "NONE" once set, the default "ALL" otherwise. */
  inbox: async (client: TestClient, creds: TestCredentials, organizationId: string, documentId: string, userId: string) => {
    const answer = await client.post("/v2/notifications/config/get", { organizationId, documentIds: [documentId], userId }, creds.headers)
    expect(answer.status).toBe(200)
    return answer.body.result.data[0].config.inbox
  },
  documents: async (client: TestClient, creds: TestCredentials, organizationId: string) => {
    const answer = await client.post("/v2/organizations/documents/get", { organizationId }, creds.headers)
    expect(answer.status).toBe(200)
    return answer.body.result.data.map((d: { id: string; documentName: string }) => [d.id, d.documentName])
  }
}

const deletionStatus = (client: TestClient, creds: TestCredentials, jobId: string) =>
  client.post("/v2/users/data/delete/status", { jobId }, creds.headers)

forEachBackend("jobs", (ctx) => {
  describe("users/data/get", () => {
    const exportPage = (client: TestClient, creds: TestCredentials, data: Record<string, unknown>) => client.post("/v2/users/data/get", data, creds.headers)

    it("pages each kind by 100: the next token carries every kind's place, the last page says null, and every record comes once", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      for (const batch of [0, 1]) {
        const activities = Array.from({ length: batch === 0 ? 100 : 30 }, (_, i) => ({
          id: `a${batch}-${String(i).padStart(3, "0")}`,
          featureType: "comment",
          actionType: "added",
          actionUser: { userId: "pager" }
        }))
        expect((await client.post("/v2/activities/add", { organizationId: "o1", documentId: "d1", activities }, creds.headers)).status).toBe(200)
      }
      await seed.activity(client, creds, "o2", "d1", "pager")
      await seed.activity(client, creds, "o1", "d1", "someone-else")
      await seed.users(client, creds, "o1", ["pager"])

      const first = await exportPage(client, creds, { organizationId: "o1", userId: "pager" })
      expect(first.status, first.text).toBe(200)
      expect(first.body.result.status).toBe("success")
      expect(first.body.result.data.recordings).toEqual([])
      expect(first.body.result.data.activities).toHaveLength(100)
      expect(first.body.result.data.users).toEqual([expect.objectContaining({ userId: "pager", name: "Name of pager", email: "pager@example.com" })])
      expect(first.body.result.nextPageToken).toEqual(expect.any(String))

      const second = await exportPage(client, creds, { organizationId: "o1", userId: "pager", pageToken: first.body.result.nextPageToken })
      expect(second.status, second.text).toBe(200)
      expect(second.body.result.data.activities).toHaveLength(30)
      // A kind done on the first page is not listed again.
      expect(second.body.result.data.users).toEqual([])
      expect(second.body.result.nextPageToken).toBeNull()

      const ids = [...first.body.result.data.activities, ...second.body.result.data.activities].map((a: { id: string }) => a.id)
      expect(new Set(ids).size).toBe(130)
      // Only o1's, only pager's: the record as stored, its JSON parsed.
      for (const activity of [...first.body.result.data.activities, ...second.body.result.data.activities]) {
        expect(activity).toMatchObject({ organizationId: "o1", userId: "pager", documentId: "d1", record: { actionUser: { userId: "pager" } } })
      }
    })

    it("refuses a missing user or organization, and a page token made for another user, as INVALID_ARGUMENT; an unknown user exports nothing", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      for (const body of [{ organizationId: "o1" }, { userId: "u" }, { organizationId: "o1", userId: "" }]) {
        const refused = await exportPage(client, creds, body)
        expect(refused.status, JSON.stringify(body)).toBe(400)
        expect(refused.body.error.status).toBe("INVALID_ARGUMENT")
      }
      const activities = Array.from({ length: 101 }, (_, i) => ({ id: `x${i}`, featureType: "comment", actionType: "added", actionUser: { userId: "big" } }))
      await client.post("/v2/activities/add", { organizationId: "o1", documentId: "d1", activities: activities.slice(0, 100) }, creds.headers)
      await client.post("/v2/activities/add", { organizationId: "o1", documentId: "d1", activities: activities.slice(100) }, creds.headers)
      const first = await exportPage(client, creds, { organizationId: "o1", userId: "big" })
      const foreign = await exportPage(client, creds, { organizationId: "o1", userId: "other", pageToken: first.body.result.nextPageToken })
      expect(foreign.status).toBe(400)
      expect(foreign.body.error.message).toBe("Invalid pageToken: it is malformed, expired, or was made for another query.")

      const nobody = await exportPage(client, creds, { organizationId: "o1", userId: "nobody" })
      expect(nobody.status).toBe(200)
      expect(Object.values(nobody.body.result.data).every((list) => Array.isArray(list) && list.length === 0)).toBe(true)
      expect(nobody.body.result.nextPageToken).toBeNull()
    })
  })

  describe("users/data/delete", () => {
    it("starts a job (202) that removes the user's data once the runner has run it", async () => {
      const { atrium, client, workspace } = ctx()
      const creds = await workspace()
      await seed.activity(client, creds, "o1", "d1", "alice")
      await seed.activity(client, creds, "o1", "d1", "bob")
      await seed.activity(client, creds, "o2", "d2", "alice")
      await seed.judgment(client, creds, "o1", "d1", "alice")
      await seed.judgment(client, creds, "o1", "d1", "bob")
      await seed.users(client, creds, "o1", ["alice", "bob"])
      await seed.users(client, creds, "o1", ["alice", "bob"], "d1")
      await seed.users(client, creds, "o2", ["alice"])
      await seed.inboxNone(client, creds, "o1", "d1", "alice")
      await seed.inboxNone(client, creds, "o1", "d1", "bob")
      expect(await read.inbox(client, creds, "o1", "d1", "alice")).toBe("NONE")

      const started = await client.post("/v2/users/data/delete", { userIds: ["alice"] }, creds.headers)
      expect(started.status).toBe(202)
      expect(started.body).toEqual({
        result: {
          status: "success",
          message: "Data deletion process has been initiated.",
          data: { jobId: expect.any(String), tasksCount: expect.any(Number) }
        }
      })
      const { jobId, tasksCount } = started.body.result.data
      expect(tasksCount).toBeGreaterThan(0)

      const pending = await deletionStatus(client, creds, jobId)
      expect(pending.status).toBe(200)
      expect(pending.body.result).toEqual({
        status: "success",
        message: "Data fetched successfully.",
        data: { isDeleteCompleted: false, tasksLeft: tasksCount, lastTaskCompletedTime: expect.any(Number) }
      })
      expect(await read.activityUsers(client, creds, "o1")).toEqual(["alice", "bob"])

      const before = Date.now()
      await runJobs(atrium)
      const done = await deletionStatus(client, creds, jobId)
      expect(done.body.result.data).toEqual({ isDeleteCompleted: true, tasksLeft: 0, lastTaskCompletedTime: expect.any(Number) })
      expect(done.body.result.data.lastTaskCompletedTime).toBeGreaterThanOrEqual(before)

      expect(await read.activityUsers(client, creds, "o1")).toEqual(["bob"])
      expect(await read.activityUsers(client, creds, "o2")).toEqual([])
      expect(await read.judgmentDocuments(client, creds, { reviewerId: "alice" })).toEqual([])
      expect(await read.judgmentDocuments(client, creds, { reviewerId: "bob" })).toEqual(["d1"])
      expect(await read.users(client, creds, "o1")).toEqual(["bob:Name of bob"])
      expect(await read.users(client, creds, "o1", "d1")).toEqual(["bob:Name of bob"])
      expect(await read.users(client, creds, "o2")).toEqual([])
      expect(await read.inbox(client, creds, "o1", "d1", "alice")).toBe("ALL")
      expect(await read.inbox(client, creds, "o1", "d1", "bob")).toBe("NONE")
    })

    it("removes the webhook messages and notifications that carry the user's data, and only those", async () => {
      const { atrium, client, workspace } = ctx()
      const creds = await workspace()
      const post = async (path: string, data: unknown) => {
        const answer = await client.post(path, data, creds.headers)
        expect(answer.status, `${path}: ${answer.text}`).toBeLessThan(300)
        return answer.body
      }
      await post("/v2/workspace/advancedwebhookconfig/update", { isEnabled: true })
      await post("/v2/workspace/advancedwebhook/endpoints/create", { url: "https://hooks.example.com/atrium" })
      for (const author of ["alice", "bob"]) {
        await post("/v2/commentannotations/add", {
          organizationId: "o1",
          documentId: "d1",
          commentAnnotations: [{ annotationId: `by-${author}`, commentData: [{ commentId: 1, commentText: `from ${author}`, from: { userId: author } }] }]
        })
        await post("/v2/notifications/add", {
          organizationId: "o1",
          documentId: "d1",
          notificationId: `n-${author}`,
          actionUser: { userId: author, name: author },
          displayHeadlineMessageTemplate: "{actionUser} did something",
          displayBodyMessage: "Something happened.",
          notifyUsers: [{ userId: "carol" }]
        })
      }
      const messages = async () => JSON.stringify((await post("/v2/workspace/advancedwebhook/messages/get", { limit: 250 })).result.data)
      const inbox = async () =>
        (await post("/v2/notifications/get", { organizationId: "o1", userId: "carol" })).result.data.map((n: { id: string }) => n.id).sort()
      expect(await messages()).toContain(`"userId":"alice"`)
      expect(await inbox()).toEqual(["n-alice", "n-bob"])

      await post("/v2/users/data/delete", { userIds: ["alice"] })
      await runJobs(atrium)
      expect(await messages()).not.toContain(`"userId":"alice"`)
      expect(await messages()).toContain(`"userId":"bob"`)
      expect(await inbox()).toEqual(["n-bob"])
    })

    it("narrows the job to organizationIds: one task per kind of data and organization", async () => {
      const { atrium, client, workspace } = ctx()
      const creds = await workspace()
      await seed.activity(client, creds, "o1", "d1", "alice")
      await seed.activity(client, creds, "o3", "d1", "alice")
      await seed.users(client, creds, "o1", ["alice"])
      await seed.users(client, creds, "o3", ["alice"])
      const one = await client.post("/v2/users/data/delete", { userIds: ["nobody"], organizationIds: ["o9"] }, creds.headers)
      const narrowed = await client.post("/v2/users/data/delete", { userIds: ["alice"], organizationIds: ["o1", "o2"] }, creds.headers)
      expect(narrowed.status).toBe(202)
      expect(narrowed.body.result.data.tasksCount).toBe(2 * one.body.result.data.tasksCount)

      await runJobs(atrium)
      expect((await deletionStatus(client, creds, narrowed.body.result.data.jobId)).body.result.data.isDeleteCompleted).toBe(true)
      expect(await read.activityUsers(client, creds, "o1")).toEqual([])
      expect(await read.activityUsers(client, creds, "o3")).toEqual(["alice"])
      // The user record is shared by every organization: a narrowed job keeps it.
      expect(await read.users(client, creds, "o1")).toEqual([])
      expect(await read.users(client, creds, "o3")).toEqual(["alice:Name of alice"])
    })

    it("never touches another API key's data", async () => {
      const { atrium, client, workspace } = ctx()
      const a = await workspace()
      const b = await workspace()
      await seed.activity(client, a, "o1", "d1", "alice")
      await seed.activity(client, b, "o1", "d1", "alice")
      await client.post("/v2/users/data/delete", { userIds: ["alice"] }, a.headers)
      await runJobs(atrium)
      expect(await read.activityUsers(client, a, "o1")).toEqual([])
      expect(await read.activityUsers(client, b, "o1")).toEqual(["alice"])
    })

    it("checks userIds and organizationIds: required, 1 to 100 entries", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const refused = async (data: unknown, field: string) => {
        const answer = await client.post("/v2/users/data/delete", data, creds.headers)
        expect(answer.status).toBe(400)
        expect(answer.body.error.status).toBe("INVALID_ARGUMENT")
        expect(answer.body.error.message).toContain(field)
      }
      await refused({}, "data.userIds")
      await refused({ userIds: [] }, "data.userIds")
      await refused({ userIds: ids("u", 101) }, "data.userIds")
      await refused({ userIds: ["u"], organizationIds: [] }, "data.organizationIds")
      await refused({ userIds: ["u"], organizationIds: ids("o", 101) }, "data.organizationIds")
      const atBounds = await client.post("/v2/users/data/delete", { userIds: ids("u", 100), organizationIds: ids("o", 100) }, creds.headers)
      expect(atBounds.status).toBe(202)
    })
  })

  describe("users/data/delete/status", () => {
    it("answers an unknown job, or another key's, with the spec's INVALID_ARGUMENT code 500", async () => {
      const { client, workspace } = ctx()
      const a = await workspace()
      const b = await workspace()
      const { jobId } = (await client.post("/v2/users/data/delete", { userIds: ["alice"] }, a.headers)).body.result.data
      for (const [creds, id] of [[a, "no-such-job"], [b, jobId]] as const) {
        const answer = await deletionStatus(client, creds, id)
        expect(answer.status).toBe(400)
        expect(answer.body).toEqual({ error: { status: "INVALID_ARGUMENT", code: 500, message: `Data deletion job ${id} does not exist.` } })
      }
      const missing = await client.post("/v2/users/data/delete/status", {}, a.headers)
      expect(missing.status).toBe(400)
      expect(missing.body.error.message).toContain("data.jobId")
    })

    it("does not report a document migration as a deletion job", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await seed.documents(client, creds, "o1", [{ documentId: "d1" }])
      const { migrationId } = (await client.post("/v2/organizations/documents/migrate", { organizationId: "o1", documentId: "d1", newDocumentId: "d2" }, creds.headers)).body.result.data
      const answer = await deletionStatus(client, creds, migrationId)
      expect(answer.body.error).toMatchObject({ status: "INVALID_ARGUMENT", code: 500 })
    })
  })

  describe("organizations/documents/migrate", () => {
    const migrate = (client: TestClient, creds: TestCredentials, data: Record<string, string>) =>
      client.post("/v2/organizations/documents/migrate", data, creds.headers)
    const status = (client: TestClient, creds: TestCredentials, organizationId: string, migrationId: string) =>
      client.post("/v2/organizations/documents/migrate/status", { organizationId, migrationId }, creds.headers)

    it("moves the document and its data to the new id", async () => {
      const { atrium, client, workspace } = ctx()
      const creds = await workspace()
      await seed.documents(client, creds, "o1", [{ documentId: "d1", documentName: "One" }, { documentId: "other", documentName: "Other" }])
      await seed.activity(client, creds, "o1", "d1", "alice")
      await seed.activity(client, creds, "o1", "other", "bob")
      await seed.judgment(client, creds, "o1", "d1", "alice")
      await seed.execution(client, creds, "o1", "d1")
      await seed.users(client, creds, "o1", ["alice"], "d1")
      await seed.users(client, creds, "o1", ["bob"], "other")
      await seed.inboxNone(client, creds, "o1", "d1", "alice")

      const started = await migrate(client, creds, { organizationId: "o1", documentId: "d1", newDocumentId: "d2" })
      expect(started.status).toBe(200)
      expect(started.body).toEqual({
        result: { status: "success", message: "Document migration started successfully.", data: { migrationId: expect.any(String) } }
      })
      const { migrationId } = started.body.result.data
      const pending = await status(client, creds, "o1", migrationId)
      expect(pending.body).toEqual({
        result: { status: "success", message: "Migration status retrieved successfully.", data: { migrationId, status: "pending" } }
      })

      await runJobs(atrium)
      expect((await status(client, creds, "o1", migrationId)).body.result.data).toEqual({ migrationId, status: "completed" })
      expect(await read.documents(client, creds, "o1")).toEqual([["d2", "One"], ["other", "Other"]])
      expect(await read.activityUsers(client, creds, "o1", "d2")).toEqual(["alice"])
      expect(await read.activityUsers(client, creds, "o1", "d1")).toEqual([])
      expect(await read.activityUsers(client, creds, "o1", "other")).toEqual(["bob"])
      const activity = (await client.post("/v2/activities/get", { organizationId: "o1", documentId: "d2" }, creds.headers)).body.result.data[0]
      expect(activity.metadata.documentId).toBe("d2")
      expect(await read.judgmentDocuments(client, creds, { organizationId: "o1" })).toEqual(["d2"])
      expect(await read.executionDocuments(client, creds, "d2")).toEqual(["d2"])
      expect(await read.executionDocuments(client, creds, "d1")).toEqual([])
      expect(await read.users(client, creds, "o1", "d2")).toEqual(["alice:Name of alice"])
      expect(await read.users(client, creds, "o1", "other")).toEqual(["bob:Name of bob"])
      expect(await read.inbox(client, creds, "o1", "d2", "alice")).toBe("NONE")
      expect(await read.inbox(client, creds, "o1", "d1", "alice")).toBe("ALL")
    })

    it("never moves another API key's document", async () => {
      const { atrium, client, workspace } = ctx()
      const a = await workspace()
      const b = await workspace()
      await seed.documents(client, a, "o1", [{ documentId: "d1" }])
      await seed.documents(client, b, "o1", [{ documentId: "d1" }])
      await migrate(client, a, { organizationId: "o1", documentId: "d1", newDocumentId: "d2" })
      await runJobs(atrium)
      expect((await read.documents(client, a, "o1")).map(([id]: [string]) => id)).toEqual(["d2"])
      expect((await read.documents(client, b, "o1")).map(([id]: [string]) => id)).toEqual(["d1"])
    })

    it("refuses the same id, an unknown document and a new id in use", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await seed.documents(client, creds, "o1", [{ documentId: "d1" }, { documentId: "d2" }])
      const same = await migrate(client, creds, { organizationId: "o1", documentId: "d1", newDocumentId: "d1" })
      expect(same.status).toBe(400)
      expect(same.body.error).toEqual({ status: "INVALID_ARGUMENT", message: "newDocumentId must differ from documentId." })
      const unknown = await migrate(client, creds, { organizationId: "o1", documentId: "nope", newDocumentId: "d3" })
      expect(unknown.status).toBe(404)
      expect(unknown.body.error).toEqual({ status: "NOT_FOUND", message: "Document nope does not exist in organization o1." })
      const taken = await migrate(client, creds, { organizationId: "o1", documentId: "d1", newDocumentId: "d2" })
      expect(taken.status).toBe(409)
      expect(taken.body.error).toEqual({ status: "ALREADY_EXISTS", message: "Document d2 already exists in organization o1." })
      for (const field of ["organizationId", "documentId", "newDocumentId"]) {
        const data: Record<string, string> = { organizationId: "o1", documentId: "d1", newDocumentId: "d9" }
        delete data[field]
        const answer = await migrate(client, creds, data)
        expect(answer.status).toBe(400)
        expect(answer.body.error.message).toContain(`data.${field}`)
      }
      const tooLong = await migrate(client, creds, { organizationId: "o1", documentId: "d1", newDocumentId: "x".repeat(257) })
      expect(tooLong.status).toBe(400)
      expect(tooLong.body.error.message).toContain("data.newDocumentId")
    })

    it("fails the migration, moving nothing, when the new id is taken before it runs", async () => {
      const { atrium, client, workspace } = ctx()
      const creds = await workspace()
      await seed.documents(client, creds, "o1", [{ documentId: "d1", documentName: "One" }])
      await seed.activity(client, creds, "o1", "d1", "alice")
      const { migrationId } = (await migrate(client, creds, { organizationId: "o1", documentId: "d1", newDocumentId: "d2" })).body.result.data
      await seed.documents(client, creds, "o1", [{ documentId: "d2", documentName: "Two" }])
      await runJobs(atrium)
      expect((await status(client, creds, "o1", migrationId)).body.result.data).toEqual({
        migrationId,
        status: "failed",
        error: "Document d2 already exists in organization o1."
      })
      expect(await read.documents(client, creds, "o1")).toEqual([["d1", "One"], ["d2", "Two"]])
      expect(await read.activityUsers(client, creds, "o1", "d1")).toEqual(["alice"])
    })

    it("migrate/status: unknown, another organization's or another key's migration is NOT_FOUND", async () => {
      const { client, workspace } = ctx()
      const a = await workspace()
      const b = await workspace()
      await seed.documents(client, a, "o1", [{ documentId: "d1" }])
      const { migrationId } = (await migrate(client, a, { organizationId: "o1", documentId: "d1", newDocumentId: "d2" })).body.result.data
      const { jobId } = (await client.post("/v2/users/data/delete", { userIds: ["u"] }, a.headers)).body.result.data
      for (const [creds, organizationId, id] of [[a, "o1", "nope"], [a, "o2", migrationId], [b, "o1", migrationId], [a, "o1", jobId]] as const) {
        const answer = await status(client, creds, organizationId, id)
        expect(answer.status).toBe(404)
        expect(answer.body.error).toEqual({ status: "NOT_FOUND", message: `Migration ${id} does not exist in organization ${organizationId}.` })
      }
      const missing = await client.post("/v2/organizations/documents/migrate/status", { organizationId: "o1" }, a.headers)
      expect(missing.status).toBe(400)
      expect(missing.body.error.message).toContain("data.migrationId")
    })

    it("refuses both operations while the organization is disabled", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await seed.documents(client, creds, "o1", [{ documentId: "d1" }])
      const { migrationId } = (await migrate(client, creds, { organizationId: "o1", documentId: "d1", newDocumentId: "d2" })).body.result.data
      await client.post("/v1/organizations/access/disablestate/update", { organizationIds: ["o1"], disabled: true }, creds.headers)
      const started = await migrate(client, creds, { organizationId: "o1", documentId: "d1", newDocumentId: "d3" })
      expect(started.status).toBe(403)
      expect(started.body.error.status).toBe("PERMISSION_DENIED")
      const read = await status(client, creds, "o1", migrationId)
      expect(read.status).toBe(403)
      expect(read.body.error.status).toBe("PERMISSION_DENIED")
    })
  })
})

/** A fresh SQLite file for one test, removed afterwards. */
const withSqliteFile = async (test: (filename: string) => Promise<void>) => {
  const dir = mkdtempSync(join(tmpdir(), "atrium-jobs-"))
  try {
    await test(join(dir, "atrium.db"))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe("jobs on a SQLite file", () => {
  it("a job started and partly run before a restart is finished after it", () =>
    withSqliteFile(async (filename) => {
      const first = testAtrium(SqliteStorage.layer({ filename }))
      const client = directClient(first)
      const creds = await createTestWorkspace(client)
      await seed.activity(client, creds, "o1", "d1", "alice")
      await seed.activity(client, creds, "o2", "d1", "alice")
      const { jobId, tasksCount } = (await client.post("/v2/users/data/delete", { userIds: ["alice"], organizationIds: ["o1", "o2"] }, creds.headers)).body.result.data
      expect(await first.runtime.runPromise(JobRunner.runDue("first", { maxTasks: 1 }))).toBe(1)
      const before = (await deletionStatus(client, creds, jobId)).body.result.data
      expect(before).toMatchObject({ isDeleteCompleted: false, tasksLeft: tasksCount - 1 })
      await first.dispose()

      const second = testAtrium(SqliteStorage.layer({ filename }))
      const again = directClient(second)
      expect((await deletionStatus(again, creds, jobId)).body.result.data).toEqual(before)
      expect(await second.runtime.runPromise(JobRunner.runDue("second"))).toBe(tasksCount - 1)
      expect((await deletionStatus(again, creds, jobId)).body.result.data).toMatchObject({ isDeleteCompleted: true, tasksLeft: 0 })
      expect(await read.activityUsers(again, creds, "o1")).toEqual([])
      expect(await read.activityUsers(again, creds, "o2")).toEqual([])
      await second.dispose()
    }))

  it("a migration moves presence rows; a deletion removes the user's presence and group memberships", () =>
    withSqliteFile(async (filename) => {
      const atrium = testAtrium(SqliteStorage.layer({ filename }))
      const client = directClient(atrium)
      // No operation reads these tables back: the rows are checked in SQL.
      const column = (query: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<any>, unknown>) =>
        (atrium.runtime as unknown as ManagedRuntime.ManagedRuntime<SqlClient.SqlClient, unknown>).runPromise(
          Effect.flatMap(SqlClient.SqlClient, query).pipe(Effect.map((rows) => rows.map((row) => Object.values(row).join("/")).sort()))
        )
      const creds = await createTestWorkspace(client)
      await seed.documents(client, creds, "o1", [{ documentId: "d1" }])
      await client.post("/v2/presence/add", { organizationId: "o1", documentId: "d1", users: [{ userId: "alice" }, { userId: "bob" }] }, creds.headers)
      await client.post("/v2/organizations/usergroups/add", { organizationId: "o1", organizationUserGroups: [{ groupId: "g1", groupName: "G" }] }, creds.headers)
      await client.post("/v2/organizations/usergroups/users/add", { organizationId: "o1", organizationUserGroupId: "g1", userIds: ["alice", "bob"] }, creds.headers)
      const presence = () => column((sql) => sql`SELECT document_id, user_id FROM presence WHERE api_key = ${creds.apiKey}`)
      const members = () => column((sql) => sql`SELECT group_id, user_id FROM user_group_members WHERE api_key = ${creds.apiKey}`)
      expect(await members()).toEqual(["g1/alice", "g1/bob"])

      await client.post("/v2/organizations/documents/migrate", { organizationId: "o1", documentId: "d1", newDocumentId: "d2" }, creds.headers)
      await runJobs(atrium)
      expect(await presence()).toEqual(["d2/alice", "d2/bob"])

      await client.post("/v2/users/data/delete", { userIds: ["alice"] }, creds.headers)
      await runJobs(atrium)
      expect(await presence()).toEqual(["d2/bob"])
      expect(await members()).toEqual(["g1/bob"])
      await atrium.dispose()
    }))
})
