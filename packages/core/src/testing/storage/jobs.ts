/** jobs/: JobsRepo, and the JobDataPort over every domain's tables. */
import * as Effect from "effect/Effect"
import { ActivitiesRepo } from "../../activities/ActivitiesRepo.js"
import { DocumentsRepo } from "../../documents/DocumentsRepo.js"
import { JobDataPort } from "../../jobs/JobDataPort.js"
import { type JobRow, JobsRepo, newJob } from "../../jobs/JobsRepo.js"
import { PresenceRepo } from "../../presence/PresenceRepo.js"
import { UserGroupsRepo } from "../../users/UserGroupsRepo.js"
import { UsersRepo } from "../../users/UsersRepo.js"
import { activity, document, membership, type StorageCases, T0, unique, user } from "./fixtures.js"

export const cases: StorageCases = (it, expect) => {
  it.effect("JobsRepo: oldest due job first, leases fence every write, expired leases are claimed again", () =>
    Effect.gen(function*() {
      const jobs = yield* JobsRepo
      const apiKey = unique("key")
      const job = (id: string, createdAt: number): JobRow =>
        newJob(apiKey, id, {
          kind: "userDataDeletion",
          payload: { userIds: ["u"], organizationIds: null, tasks: [{ data: "users" }, { data: "presence", organizationId: "o" }] }
        }, createdAt)
      const [second, first] = [unique("job-b"), unique("job-a")]
      yield* jobs.insert(job(second, T0 + 1))
      yield* jobs.insert(job(first, T0))
      expect(yield* jobs.find(apiKey, first)).toEqual(job(first, T0))
      expect(yield* jobs.find(unique("other-key"), first)).toBeUndefined()
      const now = T0 + 100
      const claimed = yield* jobs.claim("runner-1", now, 1000)
      expect(claimed).toEqual({ ...job(first, T0), status: "in_progress", leaseOwner: "runner-1", leaseUntil: now + 1000, updatedAt: now })
      expect((yield* jobs.claim("runner-2", now, 1000))?.id).toBe(second)
      expect(yield* jobs.claim("runner-3", now, 1000)).toBeUndefined()
      expect(yield* jobs.completeTask(claimed!, "runner-2", now + 1, now + 2000)).toBeUndefined()
      const progressed = yield* jobs.completeTask(claimed!, "runner-1", now + 1, now + 2000)
      expect(progressed).toMatchObject({ tasksDone: 1, lastTaskCompletedAt: now + 1, leaseUntil: now + 2000, status: "in_progress" })
      expect(yield* jobs.completeTask(claimed!, "runner-1", now + 2, now + 2000)).toBeUndefined()
      // runner-1's lease expires: another runner takes the job over, and runner-1 can no longer write.
      const takenOver = yield* jobs.claim("runner-4", now + 2000, 1000)
      expect(takenOver).toMatchObject({ id: first, leaseOwner: "runner-4", tasksDone: 1 })
      yield* jobs.fail(first, "runner-1", "late", now + 2001)
      const done = yield* jobs.completeTask(takenOver!, "runner-4", now + 2002, now + 3000)
      expect(done).toMatchObject({ status: "completed", tasksDone: 2, leaseOwner: null, leaseUntil: null })
      yield* jobs.release(second, "runner-2", now + 3)
      expect(yield* jobs.find(apiKey, second)).toMatchObject({ status: "in_progress", leaseOwner: null, leaseUntil: null })
      expect(yield* jobs.claim("runner-5", now + 3, 1000)).toMatchObject({ id: second, leaseOwner: "runner-5" })
      yield* jobs.fail(second, "runner-5", "broken", now + 4)
      expect(yield* jobs.find(apiKey, second)).toMatchObject({ status: "failed", error: "broken", leaseOwner: null })
      expect(yield* jobs.claim("runner-6", now + 1_000_000, 1000)).toBeUndefined()
    }))

  it.effect("JobDataPort removes a user's rows and moves a document's rows, records included", () =>
    Effect.gen(function*() {
      const data = yield* JobDataPort
      const activities = yield* ActivitiesRepo
      const presence = yield* PresenceRepo
      const users = yield* UsersRepo
      const apiKey = unique("key")
      expect(data.userData.map((d) => d.kind)).toContain("users")
      expect(data.documentData[0]).toBe("documents")
      yield* activities.put(activity(apiKey, "org", "a1", T0))
      yield* activities.put(activity(apiKey, "other-org", "a2", T0))
      for (const kind of data.documentData) yield* data.moveDocumentData(apiKey, "org", "doc-1", "doc-9", kind)
      expect((yield* activities.find(apiKey, "org", "a1"))?.metadata.documentId).toBe("doc-9")
      expect((yield* activities.page(apiKey, "org", { documentId: "doc-9" }, { order: "asc", limit: 10 })).map((a) => a.id)).toEqual(["a1"])
      expect((yield* activities.find(apiKey, "other-org", "a2"))?.metadata.documentId).toBe("doc-1")

      const entry = { apiKey, documentId: "doc", name: null, email: null, status: "online" as const, data: null, heldBy: null, updatedAt: T0, lastSeenAt: T0 }
      yield* presence.put({ ...entry, organizationId: "org", userId: "gone" })
      yield* presence.put({ ...entry, organizationId: "other-org", userId: "gone" })
      yield* presence.put({ ...entry, organizationId: "org", userId: "stays" })
      yield* users.putUser(user(apiKey, "gone"))
      yield* data.deleteUserData(apiKey, ["gone"], "org", "presence")
      expect((yield* presence.list(apiKey, "org", "doc", T0)).map((p) => p.userId)).toEqual(["stays"])
      expect(yield* presence.find(apiKey, "other-org", "doc", "gone")).toBeDefined()
      for (const { kind } of data.userData) yield* data.deleteUserData(apiKey, ["gone"], undefined, kind)
      expect(yield* presence.find(apiKey, "other-org", "doc", "gone")).toBeUndefined()
      expect(yield* users.findUser(apiKey, "gone")).toBeUndefined()
      expect((yield* activities.find(apiKey, "org", "a1"))?.id).toBe("a1")
    }))

  it.effect("JobDataPort says whose access it removed and whether it moved what the access rule reads (the jobs' events)", () =>
    Effect.gen(function*() {
      const data = yield* JobDataPort
      const users = yield* UsersRepo
      const groups = yield* UserGroupsRepo
      const documents = yield* DocumentsRepo
      const activities = yield* ActivitiesRepo
      const apiKey = unique("key")
      for (const organizationId of ["org-b", "org-a"]) {
        yield* users.putMembership(membership(apiKey, organizationId, "gone"))
        yield* users.putMembership(membership(apiKey, organizationId, "gone", { level: "document", scopeId: "doc" }))
      }
      yield* users.putMembership(membership(apiKey, "org-a", "stays"))
      yield* groups.addMember(apiKey, "org-a", "g", "gone", T0)
      // Each organization and user once, ordered; a kind the access rule does not read says nothing.
      expect(yield* data.deleteUserData(apiKey, ["gone", "stays"], undefined, "user_memberships")).toEqual([
        { organizationId: "org-a", userId: "gone" },
        { organizationId: "org-a", userId: "stays" },
        { organizationId: "org-b", userId: "gone" }
      ])
      expect(yield* data.deleteUserData(apiKey, ["gone"], "org-a", "user_group_members")).toEqual([{ organizationId: "org-a", userId: "gone" }])
      expect(yield* data.deleteUserData(apiKey, ["gone"], "org-a", "user_group_members")).toEqual([])
      yield* activities.put(activity(apiKey, "org-a", "a1", T0))
      expect(yield* data.deleteUserData(apiKey, ["user-1"], undefined, "activities")).toEqual([])
      expect(yield* activities.find(apiKey, "org-a", "a1")).toBeUndefined()

      yield* documents.insert(document(apiKey, "org-a", "doc"))
      yield* users.putMembership(membership(apiKey, "org-a", "ann", { level: "document", scopeId: "doc" }))
      yield* activities.put(activity(apiKey, "org-a", "a2", T0, { metadata: { apiKey, organizationId: "org-a", documentId: "doc" } }))
      expect(yield* data.moveDocumentData(apiKey, "org-a", "doc", "doc-new", "documents")).toBe(true)
      expect(yield* data.moveDocumentData(apiKey, "org-a", "doc", "doc-new", "user_memberships")).toBe(true)
      expect(yield* data.moveDocumentData(apiKey, "org-a", "doc", "doc-new", "activities")).toBe(false)
      expect(yield* users.findMembership(apiKey, "org-a", "document", "doc-new", "ann")).toBeDefined()
      expect((yield* activities.find(apiKey, "org-a", "a2"))?.metadata.documentId).toBe("doc-new")
      // Nothing left under the old id, nothing under the new one: nothing changed.
      expect(yield* data.moveDocumentData(apiKey, "org-a", "doc", "doc-3", "documents")).toBe(false)
      expect(yield* data.moveDocumentData(apiKey, "org-a", "doc", "doc-3", "user_memberships")).toBe(false)
      // A grant waiting under the new id is dropped: that changes access too.
      yield* users.putMembership(membership(apiKey, "org-a", "bob", { level: "document", scopeId: "doc-2" }))
      expect(yield* data.moveDocumentData(apiKey, "org-a", "doc", "doc-2", "user_memberships")).toBe(true)
    }))

  it.effect("job data primitives touch one API key only", () =>
    Effect.gen(function*() {
      const data = yield* JobDataPort
      const users = yield* UsersRepo
      const documents = yield* DocumentsRepo
      const keys = [unique("key-a"), unique("key-b")] as const
      for (const apiKey of keys) {
        yield* users.putUser(user(apiKey, "user"))
        yield* documents.insert(document(apiKey, "org", "doc"))
      }
      yield* data.deleteUserData(keys[0], ["user"], undefined, "users")
      yield* data.moveDocumentData(keys[0], "org", "doc", "doc-new", "documents")
      expect(yield* users.findUser(keys[0], "user")).toBeUndefined()
      expect(yield* users.findUser(keys[1], "user")).toBeDefined()
      expect((yield* documents.list(keys[0], "org", { limit: 10 })).map((d) => d.id)).toEqual(["doc-new"])
      expect((yield* documents.list(keys[1], "org", { limit: 10 })).map((d) => d.id)).toEqual(["doc"])
    }))
}
