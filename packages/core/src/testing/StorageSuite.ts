/**
 * The storage conformance suite: the cases every storage Layer must pass, run by
 * the in-memory, SQLite and PostgreSQL packages alike, against the ports of
 * `StorageServices` (no operation, no HTTP). Each case works under API keys of its
 * own, so the cases share one store; the few tables that are not per API key
 * (signing keys, jobs' claim order) are touched by one case each.
 */
import type * as Vitest from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type * as Layer from "effect/Layer"
import type { Activity } from "../activities/ActivitySchemas.js"
import { ActivitiesRepo, type ActivityCursor } from "../activities/ActivitiesRepo.js"
import { type AgentExecutionRow, AgentExecutionsRepo, type ExecutionPosition } from "../agents/AgentExecutionsRepo.js"
import { type DocumentRow, DocumentsRepo, newDocument } from "../documents/DocumentsRepo.js"
import { type FolderRow, FoldersRepo } from "../folders/FoldersRepo.js"
import { JobDataPort } from "../jobs/JobDataPort.js"
import { type JobRow, JobsRepo, newJob } from "../jobs/JobsRepo.js"
import { type JudgmentRow, JudgmentsRepo } from "../judgments/JudgmentsRepo.js"
import { NotificationPreferencesRepo } from "../notifications/NotificationPreferencesRepo.js"
import { type OrganizationRow, OrganizationsRepo } from "../organizations/OrganizationsRepo.js"
import { ServerSecretsRepo } from "../ports/ServerSecretsRepo.js"
import { StorageHealth } from "../ports/StorageHealth.js"
import { Transactions } from "../ports/Transactions.js"
import { PresenceRepo } from "../presence/PresenceRepo.js"
import { RateLimitsRepo } from "../protocol/RateLimitsRepo.js"
import type { StorageServices } from "../Storage.js"
import { SigningKeysRepo } from "../tokens/SigningKeysRepo.js"
import { UserGroupsRepo } from "../users/UserGroupsRepo.js"
import { type MembershipRow, UsersRepo, type UserRow } from "../users/UsersRepo.js"
import { WebhookConfigRepo } from "../webhooks/WebhookConfigRepo.js"
import { type WebhookEndpointRow, WebhookEndpointsRepo } from "../webhooks/WebhookEndpointsRepo.js"
import { DomainsRepo } from "../workspace/DomainsRepo.js"
import { LoginLinksRepo } from "../workspace/LoginLinksRepo.js"
import { SettingsRepo } from "../workspace/SettingsRepo.js"
import { WorkspaceRepo } from "../workspace/WorkspaceRepo.js"
import { compareText } from "../TextOrder.js"

/** A moment past 2^31 ms, as every real timestamp is: integer columns must hold it and give it back as a number. */
const T0 = 1_900_000_000_000

let counter = 0
/** A fresh API key (or any id) for one case, so cases sharing a store never see each other's rows. */
const unique = (label: string) => `${label}-${++counter}-${Math.random().toString(36).slice(2, 8)}`

/**
 * Ids in one order under every storage: ASCII of both cases, punctuation, non-ASCII letters,
 * emoji, and characters from U+E000 to U+FFFF, which JavaScript's `<` puts after emoji and the
 * SQL storages (comparing bytes) before them: every storage keeps `compareText`'s order.
 */
const MIXED_IDS = [
  "A", "B", "Z", "_x", "a", "b", "z", "a-1", "a_1", "a.1", "a 1", "a1", "a10", "a2", "aa",
  "é", "ß", "Ω", "中文", "日本", "😀", "😀😀", "%", "'quote", "\"dq", "\\bs", "~tilde",
  "\ue000", "ﬀ", "\ufffd", "a\ufffd", "a😀"
]

/** 256 characters (the longest id a caller may send, docs/decisions.md, "Product rulings"), with multi-byte ones. */
const LONG_IDS = ["a".repeat(256), "é".repeat(256), "😀".repeat(128), "中".repeat(255) + "z"]

const ascending = (ids: ReadonlyArray<string>) => [...ids].sort(compareText)

const organization = (apiKey: string, id: string, fields: Partial<OrganizationRow> = {}): OrganizationRow => ({
  apiKey,
  id,
  name: `org ${id}`,
  disabled: false,
  metadata: { plan: "team", nested: { list: [1, "two", null] } },
  createdAt: T0,
  updatedAt: T0,
  ...fields
})

const document = (apiKey: string, organizationId: string, id: string, fields: Partial<DocumentRow> = {}): DocumentRow => ({
  ...newDocument({ apiKey, organizationId, id, internalId: `internal-${id}`, now: T0, name: `doc ${id}`, metadata: { v: 1 } }),
  ...fields
})

const activity = (apiKey: string, organizationId: string, id: string, timestamp: number, fields: Partial<Activity> = {}): Activity => ({
  id,
  featureType: "comment",
  actionType: "added",
  actionUser: { userId: "user-1", name: "Ann" },
  metadata: { apiKey, organizationId, documentId: "doc-1" },
  timestamp,
  changes: { text: { from: "a", to: "b" } },
  ...fields
})

const user = (apiKey: string, userId: string, fields: Partial<UserRow> = {}): UserRow => ({
  apiKey,
  userId,
  internalId: `internal-${userId}`,
  name: `name ${userId}`,
  email: null,
  photoUrl: null,
  initial: null,
  metadata: {},
  createdAt: T0,
  updatedAt: T0,
  ...fields
})

const membership = (
  apiKey: string,
  organizationId: string,
  userId: string,
  fields: Partial<MembershipRow> = {}
): MembershipRow => ({
  apiKey,
  organizationId,
  level: "organization",
  scopeId: "",
  userId,
  accessRole: "editor",
  createdAt: T0,
  updatedAt: T0,
  ...fields
})

const folder = (apiKey: string, organizationId: string, id: string, parentFolderId = "root"): FolderRow => ({
  apiKey,
  organizationId,
  id,
  name: `folder ${id}`,
  parentFolderId,
  ancestors: parentFolderId === "root" ? ["root"] : ["root", parentFolderId],
  accessType: "restricted",
  inheritAccessFromParent: false,
  createdAt: T0,
  lastUpdated: T0
})

const execution = (apiKey: string, id: string, startedAt: number, fields: Partial<AgentExecutionRow> = {}): AgentExecutionRow => ({
  apiKey,
  id,
  agentId: "agent-1",
  agentName: "Reviewer",
  agentVersion: 1,
  status: "passed",
  message: "ok",
  startedAt,
  completedAt: startedAt + 1,
  trigger: "standalone",
  organizationId: "org-1",
  documentId: null,
  ...fields
})

const judgment = (apiKey: string, id: string, createdAt: number, fields: Partial<JudgmentRow> = {}): JudgmentRow => ({
  apiKey,
  id,
  organizationId: "org-1",
  documentId: null,
  content: "content",
  reasoning: "because",
  decision: "approve",
  judgeType: "human",
  reviewerId: "reviewer-1",
  contentType: null,
  confidence: null,
  createdAt,
  ...fields
})

const endpoint = (apiKey: string, id: string, createdAt: number, fields: Partial<WebhookEndpointRow> = {}): WebhookEndpointRow => ({
  apiKey,
  id,
  url: `https://example.com/${id}`,
  description: null,
  filterTypes: null,
  channels: null,
  disabled: false,
  rateLimit: null,
  uid: null,
  metadata: {},
  createdAt,
  updatedAt: createdAt,
  ...fields
})

/** Reads every page of a keyset list, `limit` rows at a time; `between` runs after each page. */
const allPages = <Row, Cursor, R>(
  page: (after: Cursor | undefined) => Effect.Effect<ReadonlyArray<Row>, never, R>,
  cursorOf: (row: Row) => Cursor,
  limit: number,
  between: (pageNumber: number) => Effect.Effect<void, never, R> = () => Effect.void
): Effect.Effect<Array<Row>, never, R> =>
  Effect.gen(function*() {
    const rows: Array<Row> = []
    let after: Cursor | undefined
    for (let pageNumber = 0;; pageNumber++) {
      const got = yield* page(after)
      rows.push(...got)
      if (got.length < limit) return rows
      after = cursorOf(got[got.length - 1]!)
      yield* between(pageNumber)
    }
  })

/**
 * Registers the suite under `describe("storage conformance: <name>")`. `makeLayer`
 * builds a fresh, empty store (called once, before the cases). Await it at the top
 * of the test file: `@effect/vitest` is loaded here, on demand, so that
 * `@atrium/core/testing` stays usable outside a test runner.
 */
export const storageSuite = async (name: string, makeLayer: () => Layer.Layer<StorageServices, unknown>): Promise<void> => {
  const { describe, expect, layer } = await import("@effect/vitest")
  layer(makeLayer(), { excludeTestServices: true, timeout: "60 seconds" })(`storage conformance: ${name}`, (it) => {
    transactions(it, expect)
    pagination(it, expect)
    isolation(it, expect)
    ids(it, expect)
    describe("repositories", () => repositories(it, expect))
  })
}

type It = Vitest.Vitest.MethodsNonLive<StorageServices, true>
type Expect = typeof Vitest.expect

const transactions = (it: It, expect: Expect) => {
  it.effect("a failing transaction leaves nothing written", () =>
    Effect.gen(function*() {
      const { withTransaction } = yield* Transactions
      const organizations = yield* OrganizationsRepo
      const documents = yield* DocumentsRepo
      const apiKey = unique("key")
      const failed = yield* withTransaction(Effect.gen(function*() {
        yield* organizations.upsert(organization(apiKey, "org"))
        yield* documents.insert(document(apiKey, "org", "doc"))
        return yield* Effect.fail("stop")
      })).pipe(Effect.flip)
      expect(failed).toBe("stop")
      expect(yield* organizations.find(apiKey, "org")).toBeUndefined()
      expect(yield* documents.find(apiKey, "org", "doc")).toBeUndefined()
    }))

  it.effect("a defect inside a transaction rolls it back too", () =>
    Effect.gen(function*() {
      const { withTransaction } = yield* Transactions
      const organizations = yield* OrganizationsRepo
      const apiKey = unique("key")
      const exit = yield* withTransaction(organizations.upsert(organization(apiKey, "org")).pipe(Effect.zipRight(Effect.die("boom"))))
        .pipe(Effect.exit)
      expect(Exit.isFailure(exit)).toBe(true)
      expect(yield* organizations.find(apiKey, "org")).toBeUndefined()
    }))

  it.effect("a nested transaction that fails rolls back alone; the outer one commits the rest", () =>
    Effect.gen(function*() {
      const { withTransaction } = yield* Transactions
      const organizations = yield* OrganizationsRepo
      const apiKey = unique("key")
      yield* withTransaction(Effect.gen(function*() {
        yield* organizations.upsert(organization(apiKey, "before"))
        const inner = yield* withTransaction(
          organizations.upsert(organization(apiKey, "inner")).pipe(Effect.zipRight(Effect.fail("item failed")))
        ).pipe(Effect.flip)
        expect(inner).toBe("item failed")
        // Inside the outer transaction its own writes are visible, the failed item's are not.
        expect(yield* organizations.find(apiKey, "before")).toBeDefined()
        expect(yield* organizations.find(apiKey, "inner")).toBeUndefined()
        yield* organizations.upsert(organization(apiKey, "after"))
      }))
      const listed = yield* organizations.list(apiKey, { limit: 10 })
      expect(listed.map((o) => o.id)).toEqual(["after", "before"])
    }))

  it.effect("an outer failure undoes a nested transaction that had succeeded", () =>
    Effect.gen(function*() {
      const { withTransaction } = yield* Transactions
      const organizations = yield* OrganizationsRepo
      const apiKey = unique("key")
      yield* withTransaction(Effect.gen(function*() {
        yield* organizations.upsert(organization(apiKey, "outer"))
        yield* withTransaction(organizations.upsert(organization(apiKey, "inner")))
        return yield* Effect.fail("stop")
      })).pipe(Effect.ignore)
      expect(yield* organizations.list(apiKey, { limit: 10 })).toEqual([])
    }))

  it.effect("a batch keeps each item atomic: failed items leave nothing, the others commit", () =>
    Effect.gen(function*() {
      const { withTransaction } = yield* Transactions
      const organizations = yield* OrganizationsRepo
      const documents = yield* DocumentsRepo
      const apiKey = unique("key")
      const results = yield* Effect.forEach(["d1", "d2", "d3", "d4"], (id, i) =>
        withTransaction(Effect.gen(function*() {
          yield* organizations.ensure(apiKey, `org-${id}`, T0)
          yield* documents.insert(document(apiKey, `org-${id}`, id))
          if (i % 2 === 1) return yield* Effect.fail(`item ${id}`)
        })).pipe(Effect.either))
      expect(results.map((r) => r._tag)).toEqual(["Right", "Left", "Right", "Left"])
      expect((yield* organizations.list(apiKey, { limit: 10 })).map((o) => o.id)).toEqual(["org-d1", "org-d3"])
      expect(yield* documents.find(apiKey, "org-d2", "d2")).toBeUndefined()
      expect(yield* documents.find(apiKey, "org-d3", "d3")).toBeDefined()
    }))

  it.effect("concurrent transactions each commit their own writes", () =>
    Effect.gen(function*() {
      const { withTransaction } = yield* Transactions
      const organizations = yield* OrganizationsRepo
      const apiKey = unique("key")
      const ids = Array.from({ length: 12 }, (_, i) => `org-${String(i).padStart(2, "0")}`)
      yield* Effect.forEach(ids, (id, i) =>
        withTransaction(organizations.upsert(organization(apiKey, id)).pipe(
          Effect.zipRight(i % 3 === 0 ? Effect.fail("no") : Effect.void)
        )).pipe(Effect.ignore), { concurrency: "unbounded" })
      const listed = yield* organizations.list(apiKey, { limit: 100 })
      expect(listed.map((o) => o.id)).toEqual(ids.filter((_, i) => i % 3 !== 0))
    }))
}

const pagination = (it: It, expect: Expect) => {
  it.effect("OrganizationsRepo.list pages in id order, the same on every storage", () =>
    Effect.gen(function*() {
      const organizations = yield* OrganizationsRepo
      const apiKey = unique("key")
      for (const id of [...MIXED_IDS].reverse()) yield* organizations.upsert(organization(apiKey, id))
      const rows = yield* allPages((after?: string) => organizations.list(apiKey, { limit: 4, ...(after !== undefined && { after }) }), (o) => o.id, 4)
      expect(rows.map((o) => o.id)).toEqual(ascending(MIXED_IDS))
      const some = yield* organizations.list(apiKey, { ids: ["z", "A", "missing", "😀"], limit: 10 })
      expect(some.map((o) => o.id)).toEqual(["A", "z", "😀"])
    }))

  it.effect("DocumentsRepo.list pages in id order, within a folder and among given ids", () =>
    Effect.gen(function*() {
      const documents = yield* DocumentsRepo
      const apiKey = unique("key")
      for (const [i, id] of MIXED_IDS.entries()) {
        // One document off the defaults: a listing must read these columns, not assume them.
        const differs = id === "é" ? { disabled: true, accessType: "restricted" as const } : {}
        yield* documents.insert(document(apiKey, "org", id, { folderId: i % 2 === 0 ? "even" : null, ...differs }))
      }
      const rows = yield* allPages(
        (after?: string) => documents.list(apiKey, "org", { limit: 5, ...(after !== undefined && { after }) }),
        (d) => d.id,
        5
      )
      expect(rows.map((d) => d.id)).toEqual(ascending(MIXED_IDS))
      const even = yield* allPages(
        (after?: string) => documents.list(apiKey, "org", { folderId: "even", limit: 3, ...(after !== undefined && { after }) }),
        (d) => d.id,
        3
      )
      expect(even.map((d) => d.id)).toEqual(ascending(MIXED_IDS.filter((_, i) => i % 2 === 0)))
      const given = yield* documents.list(apiKey, "org", { ids: ["é", "a", "nope"], after: "a", limit: 10 })
      expect(given).toEqual([{ id: "é", name: "doc é", accessType: "restricted", disabled: true }])
      expect(yield* documents.list(apiKey, "org", { ids: [], limit: 10 })).toEqual([])
    }))

  it.effect("ActivitiesRepo.page orders by (timestamp, id) both ways, ties broken by id", () =>
    Effect.gen(function*() {
      const activities = yield* ActivitiesRepo
      const apiKey = unique("key")
      const written = MIXED_IDS.map((id, i) => activity(apiKey, "org", id, T0 + (i % 4) * 1000))
      for (const a of written) yield* activities.put(a)
      const byTime = (a: Activity, b: Activity) => a.timestamp - b.timestamp || compareText(a.id, b.id)
      const cursor = (a: Activity) => ({ timestamp: a.timestamp, id: a.id })
      const asc = yield* allPages((after?: ActivityCursor) => activities.page(apiKey, "org", {}, { order: "asc", limit: 4, ...(after && { after }) }), cursor, 4)
      expect(asc).toEqual([...written].sort(byTime))
      const desc = yield* allPages((after?: ActivityCursor) => activities.page(apiKey, "org", {}, { order: "desc", limit: 3, ...(after && { after }) }), cursor, 3)
      expect(desc).toEqual([...written].sort(byTime).reverse())
    }))

  it.effect("ActivitiesRepo.page applies every filter", () =>
    Effect.gen(function*() {
      const activities = yield* ActivitiesRepo
      const apiKey = unique("key")
      yield* activities.put(activity(apiKey, "org", "a1", T0, { featureType: "reaction", actionType: "x" }))
      yield* activities.put(activity(apiKey, "org", "a2", T0 + 1, { targetEntityId: "target", actionType: "y" }))
      yield* activities.put(activity(apiKey, "org", "a3", T0 + 2, { actionUser: { userId: "user-2" }, metadata: { apiKey, organizationId: "org", documentId: "doc-2" } }))
      const ids = (filters: Parameters<typeof activities.page>[2]) =>
        activities.page(apiKey, "org", filters, { order: "asc", limit: 10 }).pipe(Effect.map((rows) => rows.map((a) => a.id)))
      expect(yield* ids({ featureTypes: ["reaction", "crdt"] })).toEqual(["a1"])
      expect(yield* ids({ actionTypes: ["y", "z"] })).toEqual(["a2"])
      expect(yield* ids({ targetEntityId: "target" })).toEqual(["a2"])
      expect(yield* ids({ userId: "user-2" })).toEqual(["a3"])
      expect(yield* ids({ documentId: "doc-2" })).toEqual(["a3"])
      expect(yield* ids({ ids: ["a3", "a1", "zz"] })).toEqual(["a1", "a3"])
      expect(yield* ids({ documentId: "doc-1", ids: ["a3"] })).toEqual([])
    }))

  it.effect("a keyset walk under concurrent inserts returns every row that was there once, in order", () =>
    Effect.gen(function*() {
      const organizations = yield* OrganizationsRepo
      const activities = yield* ActivitiesRepo
      const apiKey = unique("key")
      const present = Array.from({ length: 30 }, (_, i) => `m${String(i).padStart(2, "0")}`)
      yield* Effect.forEach(present, (id) => organizations.upsert(organization(apiKey, id)), { concurrency: "unbounded" })
      yield* Effect.forEach(present, (id, i) => activities.put(activity(apiKey, "org", id, T0 + i * 10)), { concurrency: "unbounded" })
      // Between pages, other writers add rows before and after the walk's position, all at once.
      const insertAround = (pageNumber: number) =>
        Effect.forEach(
          [`a${pageNumber}`, `m${pageNumber * 7 + 10}x`, `z${pageNumber}`],
          (id) => organizations.upsert(organization(apiKey, id)),
          { concurrency: "unbounded", discard: true }
        )
      const walked = yield* allPages((after?: string) => organizations.list(apiKey, { limit: 7, ...(after !== undefined && { after }) }), (o) => o.id, 7, insertAround)
      const walkedIds = walked.map((o) => o.id)
      expect(walkedIds).toEqual(ascending(walkedIds))
      expect(new Set(walkedIds).size).toBe(walkedIds.length)
      expect(walkedIds.filter((id) => present.includes(id))).toEqual(present)
      expect(walkedIds).not.toContain("a0")
      expect(walkedIds).toContain("z0")

      const insertActivities = (pageNumber: number) =>
        Effect.forEach(
          [T0 - 1 - pageNumber, T0 + 145, T0 + 1000 + pageNumber],
          (timestamp, i) => activities.put(activity(apiKey, "org", `new-${pageNumber}-${i}`, timestamp)),
          { concurrency: "unbounded", discard: true }
        )
      const pages = yield* allPages(
        (after?: ActivityCursor) => activities.page(apiKey, "org", {}, { order: "asc", limit: 6, ...(after && { after }) }),
        (a) => ({ timestamp: a.timestamp, id: a.id }),
        6,
        insertActivities
      )
      const keys = pages.map((a) => [a.timestamp, a.id] as const)
      expect(keys).toEqual([...keys].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1)))
      expect(new Set(pages.map((a) => a.id)).size).toBe(pages.length)
      expect(pages.map((a) => a.id).filter((id) => present.includes(id))).toEqual(present)
      expect(pages.some((a) => a.timestamp < T0)).toBe(false)
    }))

  it.effect("AgentExecutionsRepo.list and JudgmentsRepo.latest order by time then id", () =>
    Effect.gen(function*() {
      const executions = yield* AgentExecutionsRepo
      const judgments = yield* JudgmentsRepo
      const apiKey = unique("key")
      const ids = ["e3", "e1", "e4", "e2", "e5"]
      for (const [i, id] of ids.entries()) {
        yield* executions.upsert(execution(apiKey, id, T0 + (i % 2), { status: i === 0 ? "running" : "passed" }))
        yield* judgments.upsert(judgment(apiKey, id, T0 + (i % 2)))
      }
      const cursor = (e: AgentExecutionRow) => ({ startedAt: e.startedAt, id: e.id })
      const asc = yield* allPages((after?: ExecutionPosition) => executions.list(apiKey, {}, { order: "asc", limit: 2, ...(after && { after }) }), cursor, 2)
      expect(asc.map((e) => e.id)).toEqual(["e3", "e4", "e5", "e1", "e2"])
      const desc = yield* allPages((after?: ExecutionPosition) => executions.list(apiKey, {}, { order: "desc", limit: 2, ...(after && { after }) }), cursor, 2)
      expect(desc.map((e) => e.id)).toEqual(["e2", "e1", "e5", "e4", "e3"])
      expect((yield* executions.list(apiKey, { status: "running" }, { order: "asc", limit: 10 })).map((e) => e.id)).toEqual(["e3"])
      expect((yield* judgments.latest(apiKey, {}, 3)).map((j) => j.id)).toEqual(["e2", "e1", "e5"])
    }))

  it.effect("WebhookEndpointsRepo.list pages forwards after a position and backwards before one", () =>
    Effect.gen(function*() {
      const endpoints = yield* WebhookEndpointsRepo
      const apiKey = unique("key")
      const rows = ["w3", "w1", "w2", "w4"].map((id, i) => endpoint(apiKey, id, T0 + (i < 2 ? 0 : 1)))
      for (const row of rows) expect(yield* endpoints.insert(row, `secret-${row.id}`)).toBe(true)
      const forward = yield* endpoints.list(apiKey, { limit: 10 })
      expect(forward.map((e) => e.id)).toEqual(["w1", "w3", "w2", "w4"])
      const after = yield* endpoints.list(apiKey, { after: { createdAt: T0, id: "w3" }, limit: 1 })
      expect(after.map((e) => e.id)).toEqual(["w2"])
      const before = yield* endpoints.list(apiKey, { before: { createdAt: T0 + 1, id: "w2" }, limit: 10 })
      expect(before.map((e) => e.id)).toEqual(["w3", "w1"])
    }))

  it.effect("UsersRepo lists users once each by id, and (document, user) pairs in order", () =>
    Effect.gen(function*() {
      const users = yield* UsersRepo
      const groups = yield* UserGroupsRepo
      const apiKey = unique("key")
      for (const id of ["u3", "u1", "u2", "u4"]) yield* users.putUser(user(apiKey, id))
      for (const [documentId, userId] of [["d2", "u1"], ["d1", "u3"], ["d1", "u1"], ["d2", "u2"], ["d3", "u1"]]) {
        yield* users.putMembership(membership(apiKey, "org", userId!, { level: "document", scopeId: documentId! }))
      }
      yield* users.putMembership(membership(apiKey, "other-org", "u4", { level: "document", scopeId: "d1" }))
      const byUser = yield* allPages(
        (after?: string) => users.list(apiKey, "org", { level: "document" }, { limit: 2, ...(after !== undefined && { after }) }),
        (u) => u.userId,
        2
      )
      expect(byUser.map((u) => u.userId)).toEqual(["u1", "u2", "u3"])
      const ofD1 = yield* users.list(apiKey, "org", { level: "document", scopeId: "d1" }, { limit: 10 })
      expect(ofD1.map((u) => u.userId)).toEqual(["u1", "u3"])
      const pairs = yield* allPages(
        (after?: { readonly documentId: string; readonly userId: string }) => users.listByDocument(apiKey, "org", { limit: 2, ...(after && { after }) }),
        (p) => ({ documentId: p.documentId, userId: p.user.userId }),
        2
      )
      expect(pairs.map((p) => `${p.documentId}/${p.user.userId}`)).toEqual(["d1/u1", "d1/u3", "d2/u1", "d2/u2", "d3/u1"])
      yield* groups.addMember(apiKey, "org", "g1", "u2", T0)
      yield* groups.addMember(apiKey, "org", "g1", "u3", T0)
      expect((yield* users.list(apiKey, "org", { level: "document" }, { groupIds: ["g1"], userIds: ["u2", "u1"], limit: 10 }))
        .map((u) => u.userId)).toEqual(["u2"])
      expect((yield* users.listByDocument(apiKey, "org", { groupIds: ["g1"], limit: 10 })).map((p) => `${p.documentId}/${p.user.userId}`))
        .toEqual(["d1/u3", "d2/u2"])
    }))
}

const isolation = (it: It, expect: Expect) => {
  it.effect("two API keys with the same ids never see each other's rows", () =>
    Effect.gen(function*() {
      const organizations = yield* OrganizationsRepo
      const documents = yield* DocumentsRepo
      const folders = yield* FoldersRepo
      const activities = yield* ActivitiesRepo
      const users = yield* UsersRepo
      const groups = yield* UserGroupsRepo
      const presence = yield* PresenceRepo
      const preferences = yield* NotificationPreferencesRepo
      const settings = yield* SettingsRepo
      const domains = yield* DomainsRepo
      const endpoints = yield* WebhookEndpointsRepo
      const configs = yield* WebhookConfigRepo
      const executions = yield* AgentExecutionsRepo
      const judgments = yield* JudgmentsRepo
      const keys = [unique("key-a"), unique("key-b")] as const
      for (const apiKey of keys) {
        yield* organizations.upsert(organization(apiKey, "org", { name: apiKey }))
        yield* documents.insert(document(apiKey, "org", "doc", { name: apiKey }))
        yield* folders.insert({ ...folder(apiKey, "org", "folder"), name: apiKey })
        yield* activities.put(activity(apiKey, "org", "act", T0, { actionType: apiKey }))
        yield* users.putUser(user(apiKey, "user", { name: apiKey }))
        yield* users.putMembership(membership(apiKey, "org", "user"))
        yield* groups.putGroup({ apiKey, organizationId: "org", groupId: "group", name: apiKey, createdAt: T0, updatedAt: T0 })
        yield* groups.addMember(apiKey, "org", "group", "user", T0)
        yield* presence.put({ apiKey, organizationId: "org", documentId: "doc", userId: "user", name: apiKey, email: null, status: "online", updatedAt: T0 })
        yield* preferences.put({ apiKey, organizationId: "org", userId: "user", documentId: null, inbox: "ALL", email: null, slack: null, updatedAt: T0 })
        yield* settings.put(apiKey, "setting", { owner: apiKey })
        yield* domains.add(apiKey, [`${apiKey}.example.com`], T0)
        expect(yield* endpoints.insert(endpoint(apiKey, "endpoint", T0, { description: apiKey, uid: "same-uid" }), `secret-${apiKey}`)).toBe(true)
        yield* configs.upsert({ apiKey, isEnabled: true, encryptData: false, encodeData: false, publicKey: apiKey, enableDataProtection: false, createdAt: T0, updatedAt: T0 })
        yield* executions.upsert(execution(apiKey, "exec", T0, { message: apiKey }))
        yield* judgments.upsert(judgment(apiKey, "judgment", T0, { content: apiKey }))
      }
      for (const apiKey of keys) {
        expect((yield* organizations.list(apiKey, { limit: 10 })).map((o) => o.name)).toEqual([apiKey])
        expect((yield* documents.list(apiKey, "org", { limit: 10 })).map((d) => d.name)).toEqual([apiKey])
        expect((yield* folders.listByOrganization(apiKey, "org")).map((f) => f.name)).toEqual([apiKey])
        expect((yield* activities.page(apiKey, "org", {}, { order: "asc", limit: 10 })).map((a) => a.actionType)).toEqual([apiKey])
        expect((yield* users.list(apiKey, "org", { level: "organization" }, { limit: 10 })).map((u) => u.name)).toEqual([apiKey])
        expect((yield* groups.findGroup(apiKey, "org", "group"))?.name).toBe(apiKey)
        expect((yield* presence.list(apiKey, "org", "doc")).map((p) => p.name)).toEqual([apiKey])
        expect(yield* preferences.list(apiKey, "org", "user", [])).toHaveLength(1)
        expect(yield* settings.get(apiKey, "setting")).toEqual({ owner: apiKey })
        expect(yield* domains.list(apiKey)).toEqual([`${apiKey}.example.com`])
        expect((yield* endpoints.list(apiKey, { limit: 10 })).map((e) => e.description)).toEqual([apiKey])
        expect(yield* endpoints.findSecret(apiKey, "endpoint")).toBe(`secret-${apiKey}`)
        expect((yield* configs.find(apiKey))?.publicKey).toBe(apiKey)
        expect((yield* executions.list(apiKey, {}, { order: "asc", limit: 10 })).map((e) => e.message)).toEqual([apiKey])
        expect(yield* judgments.count(apiKey, {})).toBe(1)
      }
      // Deleting under one key leaves the other key's rows.
      const [a, b] = keys
      expect(yield* organizations.delete(a, "org")).toBe(true)
      expect(yield* documents.delete(a, "org", "doc")).toBe(true)
      expect(yield* users.deleteOrganizationMemberships(a, "org", "user")).toBe(true)
      expect(yield* groups.removeAllMembers(a, "org", "group")).toEqual(["user"])
      yield* presence.delete(a, "org", "doc", ["user"])
      expect(yield* endpoints.delete(a, "endpoint")).toBe(true)
      expect(yield* organizations.find(b, "org")).toBeDefined()
      expect(yield* documents.find(b, "org", "doc")).toBeDefined()
      expect(yield* users.findMembership(b, "org", "organization", "", "user")).toBeDefined()
      expect(yield* groups.removeMember(b, "org", "group", "user")).toBe(true)
      expect(yield* presence.find(b, "org", "doc", "user")).toBeDefined()
      expect(yield* endpoints.find(b, "endpoint")).toBeDefined()
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

const ids = (it: It, expect: Expect) => {
  it.effect("unicode and 256-character ids round-trip through every kind of key", () =>
    Effect.gen(function*() {
      const organizations = yield* OrganizationsRepo
      const documents = yield* DocumentsRepo
      const activities = yield* ActivitiesRepo
      const users = yield* UsersRepo
      const presence = yield* PresenceRepo
      const endpoints = yield* WebhookEndpointsRepo
      const apiKey = unique("key-ü-😀")
      const all = [...LONG_IDS, ...MIXED_IDS]
      for (const id of all) {
        yield* organizations.upsert(organization(apiKey, id))
        yield* documents.insert(document(apiKey, id, id, { folderId: id }))
        yield* activities.put(activity(apiKey, id, id, T0, { metadata: { apiKey, organizationId: id, documentId: id } }))
        yield* users.putUser(user(apiKey, id, { name: id }))
        yield* presence.put({ apiKey, organizationId: id, documentId: id, userId: id, name: id, email: null, status: "away", updatedAt: T0 })
        yield* endpoints.insert(endpoint(apiKey, id, T0, { uid: id }), id)
      }
      for (const id of all) {
        expect((yield* organizations.find(apiKey, id))?.id).toBe(id)
        const doc = yield* documents.find(apiKey, id, id)
        expect([doc?.id, doc?.organizationId, doc?.folderId]).toEqual([id, id, id])
        expect((yield* activities.find(apiKey, id, id))?.metadata).toEqual({ apiKey, organizationId: id, documentId: id })
        expect((yield* activities.page(apiKey, id, { documentId: id, ids: [id] }, { order: "asc", limit: 2 })).map((a) => a.id)).toEqual([id])
        expect((yield* users.findUser(apiKey, id))?.name).toBe(id)
        expect((yield* presence.find(apiKey, id, id, id))?.userId).toBe(id)
        expect(yield* endpoints.findSecret(apiKey, id)).toBe(id)
      }
      const listed = yield* organizations.list(apiKey, { limit: 1000 })
      expect(listed.map((o) => o.id)).toEqual(ascending(all))
      expect(yield* organizations.list(apiKey, { after: LONG_IDS[0]!, ids: [LONG_IDS[0]!, "a".repeat(255)], limit: 10 })).toEqual([])
      // A uid that clashes is refused, whatever its characters.
      expect(yield* endpoints.insert(endpoint(apiKey, "another", T0, { uid: LONG_IDS[2]! }), "s")).toBe(false)
    }))
}

const repositories = (it: It, expect: Expect) => {
  it.effect("WorkspaceRepo: workspaces, API keys in key order, auth tokens, credentials", () =>
    Effect.gen(function*() {
      const workspaces = yield* WorkspaceRepo
      const workspaceId = unique("ws")
      const email = `${unique("owner")}@example.com`
      const workspace = { id: workspaceId, name: "W", ownerId: "owner", ownerEmail: email, ownerName: "O", ownerAvatar: null, authTokenHash: "h", createdAt: T0 }
      yield* workspaces.insertWorkspace(workspace)
      expect(yield* workspaces.findWorkspace(workspaceId)).toEqual(workspace)
      expect(yield* workspaces.findWorkspace(unique("nope"))).toBeUndefined()
      expect(yield* workspaces.countWorkspacesOwnedBy(email)).toBe(1)
      // One owner, however the letters of the email are cased.
      expect(yield* workspaces.countWorkspacesOwnedBy(email.toUpperCase())).toBe(1)
      const apiKeys = [unique("k-b"), unique("k-a"), unique("k-c")]
      for (const apiKey of apiKeys) {
        yield* workspaces.insertApiKey({ apiKey, workspaceId, name: apiKey, type: "testing", createdAt: T0 })
      }
      const listed = yield* allPages(
        (after?: string) => workspaces.listApiKeys(workspaceId, { limit: 2, ...(after !== undefined && { after }) }),
        (k) => k.apiKey,
        2
      )
      expect(listed.map((k) => k.apiKey)).toEqual(ascending(apiKeys))
      expect(yield* workspaces.renameApiKey(workspaceId, apiKeys[0]!, "renamed")).toBe(true)
      expect(yield* workspaces.renameApiKey(unique("other-ws"), apiKeys[0]!, "x")).toBe(false)
      expect((yield* workspaces.findApiKey(apiKeys[0]!))?.name).toBe("renamed")
      expect(yield* workspaces.credentials(apiKeys[1]!)).toEqual({ workspaceId, tokenHashes: [] })
      const token = { apiKey: apiKeys[1]!, id: "t2", name: "n", tokenHash: "hash-2", hint: "…2", domains: ["a.com"], createdAt: T0 + 1 }
      yield* workspaces.insertAuthToken(token)
      yield* workspaces.insertAuthToken({ ...token, id: "t1", tokenHash: "hash-1", createdAt: T0 })
      expect((yield* workspaces.listAuthTokens(apiKeys[1]!)).map((t) => t.id)).toEqual(["t1", "t2"])
      expect((yield* workspaces.listAuthTokens(apiKeys[1]!))[1]).toEqual(token)
      expect([...(yield* workspaces.credentials(apiKeys[1]!))!.tokenHashes].sort()).toEqual(["hash-1", "hash-2"])
      yield* workspaces.deleteAuthTokens(apiKeys[1]!)
      expect(yield* workspaces.listAuthTokens(apiKeys[1]!)).toEqual([])
      expect(yield* workspaces.credentials(unique("nope"))).toBeUndefined()
    }))

  it.effect("SettingsRepo and DomainsRepo keep JSON values and the domains' order", () =>
    Effect.gen(function*() {
      const settings = yield* SettingsRepo
      const domains = yield* DomainsRepo
      const apiKey = unique("key")
      expect(yield* settings.get(apiKey, "permissionProvider")).toBeUndefined()
      const value = { url: "https://x.test", retries: 3, on: true, nested: { list: [1, "two", null], empty: {} } }
      yield* settings.put(apiKey, "permissionProvider", value)
      expect(yield* settings.get(apiKey, "permissionProvider")).toEqual(value)
      yield* settings.put(apiKey, "permissionProvider", { replaced: "ü😀" })
      expect(yield* settings.get(apiKey, "permissionProvider")).toEqual({ replaced: "ü😀" })
      expect(yield* domains.add(apiKey, ["b.com", "a.com"], T0)).toEqual(["b.com", "a.com"])
      expect(yield* domains.add(apiKey, ["c.com", "a.com"], T0 + 1)).toEqual(["c.com"])
      expect(yield* domains.list(apiKey)).toEqual(["a.com", "b.com", "c.com"])
      expect(yield* domains.remove(apiKey, ["z.com", "b.com"])).toEqual(["b.com"])
      expect(yield* domains.list(apiKey)).toEqual(["a.com", "c.com"])
      expect(yield* domains.add(apiKey, [], T0)).toEqual([])
      expect(yield* domains.remove(apiKey, [])).toEqual([])
    }))

  it.effect("LoginLinksRepo drops expired links (their token hash can be stored again)", () =>
    Effect.gen(function*() {
      const links = yield* LoginLinksRepo
      const tokenHash = unique("hash")
      yield* links.insert({ tokenHash, email: "a@example.com", createdAt: T0, expiresAt: T0 + 10 })
      yield* links.deleteExpired(T0 + 10)
      yield* links.insert({ tokenHash, email: "a@example.com", createdAt: T0 + 20, expiresAt: T0 + 30 })
    }))

  it.effect("OrganizationsRepo: upsert keeps the disabled flag and createdAt; ensure never overwrites", () =>
    Effect.gen(function*() {
      const organizations = yield* OrganizationsRepo
      const apiKey = unique("key")
      yield* organizations.upsert(organization(apiKey, "org"))
      expect(yield* organizations.find(apiKey, "org")).toEqual(organization(apiKey, "org"))
      expect(yield* organizations.setDisabled(apiKey, "org", true, T0 + 1)).toBe(true)
      expect(yield* organizations.setDisabled(apiKey, "missing", true, T0 + 1)).toBe(false)
      yield* organizations.upsert(organization(apiKey, "org", { name: "new", metadata: {}, createdAt: T0 + 5, updatedAt: T0 + 5 }))
      yield* organizations.ensure(apiKey, "org", T0 + 9)
      expect(yield* organizations.find(apiKey, "org")).toEqual(
        organization(apiKey, "org", { name: "new", metadata: {}, disabled: true, updatedAt: T0 + 5 })
      )
      expect(yield* organizations.isDisabled(apiKey, "org")).toBe(true)
      expect(yield* organizations.isDisabled(apiKey, "missing")).toBeUndefined()
      yield* organizations.ensure(apiKey, "implicit", T0)
      expect(yield* organizations.find(apiKey, "implicit")).toEqual(organization(apiKey, "implicit", { name: "", metadata: {} }))
      expect(yield* organizations.delete(apiKey, "org")).toBe(true)
      expect(yield* organizations.delete(apiKey, "org")).toBe(false)
    }))

  it.effect("DocumentsRepo and FoldersRepo: rows come back exactly as written", () =>
    Effect.gen(function*() {
      const documents = yield* DocumentsRepo
      const folders = yield* FoldersRepo
      const apiKey = unique("key")
      const doc = document(apiKey, "org", "doc", { accessType: "restricted", disabled: true, metadata: { deep: { a: [1] } } })
      yield* documents.insert(doc)
      expect(yield* documents.find(apiKey, "org", "doc")).toEqual(doc)
      const updated = { ...doc, name: "renamed", folderId: "f", disabled: false, metadata: {}, updatedAt: T0 + 1 }
      yield* documents.update(updated)
      expect(yield* documents.find(apiKey, "org", "doc")).toEqual(updated)
      for (const [id, parent] of [["f2", "root"], ["f1", "root"], ["c2", "f1"], ["c1", "f1"], ["c3", "f2"], ["g1", "c1"]] as const) {
        yield* folders.insert(folder(apiKey, "org", id, parent))
      }
      expect(yield* folders.find(apiKey, "org", "c1")).toEqual(folder(apiKey, "org", "c1", "f1"))
      expect((yield* folders.listByOrganization(apiKey, "org")).map((f) => f.id)).toEqual(["c1", "c2", "c3", "f1", "f2", "g1"])
      expect((yield* folders.listChildren(apiKey, "org", ["f2", "f1"])).map((f) => f.id)).toEqual(["c1", "c2", "c3"])
      expect(yield* folders.listChildren(apiKey, "org", [])).toEqual([])
    }))

  it.effect("UsersRepo and UserGroupsRepo: replace, memberships by level, group membership", () =>
    Effect.gen(function*() {
      const users = yield* UsersRepo
      const groups = yield* UserGroupsRepo
      const apiKey = unique("key")
      yield* users.putUser(user(apiKey, "u"))
      const replaced = user(apiKey, "u", { name: null, email: "u@example.com", photoUrl: "p", initial: "U", metadata: { k: "v" }, updatedAt: T0 + 1 })
      yield* users.putUser(replaced)
      expect(yield* users.findUser(apiKey, "u")).toEqual(replaced)
      const folderAccess = membership(apiKey, "org", "u", { level: "folder", scopeId: "f", accessRole: "viewer" })
      yield* users.putMembership(folderAccess)
      yield* users.putMembership({ ...folderAccess, accessRole: "editor", updatedAt: T0 + 2 })
      expect(yield* users.findMembership(apiKey, "org", "folder", "f", "u")).toEqual({ ...folderAccess, accessRole: "editor", updatedAt: T0 + 2 })
      yield* users.putMembership(membership(apiKey, "org", "u"))
      expect(yield* users.deleteMembership(apiKey, "org", "folder", "f", "u")).toBe(true)
      expect(yield* users.deleteMembership(apiKey, "org", "folder", "f", "u")).toBe(false)
      expect(yield* users.deleteOrganizationMemberships(apiKey, "org", "u")).toBe(true)
      expect(yield* users.deleteOrganizationMemberships(apiKey, "org", "u")).toBe(false)

      const group = { apiKey, organizationId: "org", groupId: "g", name: "G", createdAt: T0, updatedAt: T0 }
      yield* groups.putGroup(group)
      yield* groups.putGroup({ ...group, name: "G2", createdAt: T0 + 5, updatedAt: T0 + 5 })
      expect(yield* groups.findGroup(apiKey, "org", "g")).toEqual({ ...group, name: "G2", updatedAt: T0 + 5 })
      for (const id of ["u2", "u1", "u2"]) yield* groups.addMember(apiKey, "org", "g", id, T0)
      yield* groups.addMember(apiKey, "org", "g2", "u1", T0)
      expect(yield* groups.removeMember(apiKey, "org", "g", "nobody")).toBe(false)
      expect(yield* groups.removeFromOrganizationGroups(apiKey, "org", "u1")).toBe(true)
      expect(yield* groups.removeFromOrganizationGroups(apiKey, "org", "u1")).toBe(false)
      expect(yield* groups.removeAllMembers(apiKey, "org", "g")).toEqual(["u2"])
      expect(yield* groups.removeAllMembers(apiKey, "org", "g")).toEqual([])
    }))

  it.effect("PresenceRepo and NotificationPreferencesRepo: replace, list, delete, organization level", () =>
    Effect.gen(function*() {
      const presence = yield* PresenceRepo
      const preferences = yield* NotificationPreferencesRepo
      const apiKey = unique("key")
      const entry = { apiKey, organizationId: "org", documentId: "doc", userId: "u2", name: null, email: null, status: "online" as const, updatedAt: T0 }
      yield* presence.put(entry)
      yield* presence.put({ ...entry, userId: "u1" })
      yield* presence.put({ ...entry, userId: "u3" })
      yield* presence.put({ ...entry, name: "N", email: "e@x.com", status: "away", updatedAt: T0 + 1 })
      expect(yield* presence.find(apiKey, "org", "doc", "u2")).toEqual({ ...entry, name: "N", email: "e@x.com", status: "away", updatedAt: T0 + 1 })
      expect((yield* presence.list(apiKey, "org", "doc")).map((p) => p.userId)).toEqual(["u1", "u2", "u3"])
      yield* presence.delete(apiKey, "org", "doc", ["u1", "u3", "nobody"])
      expect((yield* presence.list(apiKey, "org", "doc")).map((p) => p.userId)).toEqual(["u2"])

      const base = { apiKey, organizationId: "org", userId: "u", inbox: null, email: null, slack: null, updatedAt: T0 }
      yield* preferences.put({ ...base, documentId: null, inbox: "ALL" })
      yield* preferences.put({ ...base, documentId: "d1", email: "MINE" })
      yield* preferences.put({ ...base, documentId: "d2", slack: "NONE" })
      yield* preferences.put({ ...base, documentId: "d1", email: "NONE", updatedAt: T0 + 1 })
      const listed = [...(yield* preferences.list(apiKey, "org", "u", ["d1", "d3"]))]
        .sort((a, b) => (a.documentId ?? "") < (b.documentId ?? "") ? -1 : 1)
      expect(listed).toEqual([{ ...base, documentId: null, inbox: "ALL" }, { ...base, documentId: "d1", email: "NONE", updatedAt: T0 + 1 }])
    }))

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

      const entry = { apiKey, documentId: "doc", name: null, email: null, status: "online" as const, updatedAt: T0 }
      yield* presence.put({ ...entry, organizationId: "org", userId: "gone" })
      yield* presence.put({ ...entry, organizationId: "other-org", userId: "gone" })
      yield* presence.put({ ...entry, organizationId: "org", userId: "stays" })
      yield* users.putUser(user(apiKey, "gone"))
      yield* data.deleteUserData(apiKey, ["gone"], "org", "presence")
      expect((yield* presence.list(apiKey, "org", "doc")).map((p) => p.userId)).toEqual(["stays"])
      expect(yield* presence.find(apiKey, "other-org", "doc", "gone")).toBeDefined()
      for (const { kind } of data.userData) yield* data.deleteUserData(apiKey, ["gone"], undefined, kind)
      expect(yield* presence.find(apiKey, "other-org", "doc", "gone")).toBeUndefined()
      expect(yield* users.findUser(apiKey, "gone")).toBeUndefined()
      expect((yield* activities.find(apiKey, "org", "a1"))?.id).toBe("a1")
    }))

  it.effect("ActivitiesRepo.put replaces the record with the same id", () =>
    Effect.gen(function*() {
      const activities = yield* ActivitiesRepo
      const apiKey = unique("key")
      yield* activities.put(activity(apiKey, "org", "a", T0))
      const replaced = activity(apiKey, "org", "a", T0 + 7, { actionType: "edited", entityData: { text: "ü" }, isActivityResolverUsed: true })
      yield* activities.put(replaced)
      expect(yield* activities.find(apiKey, "org", "a")).toEqual(replaced)
      expect(yield* activities.page(apiKey, "org", { actionTypes: ["added"] }, { order: "asc", limit: 10 })).toEqual([])
    }))

  it.effect("WebhookConfigRepo and WebhookEndpointsRepo: booleans, nulls, JSON lists, the secret kept apart", () =>
    Effect.gen(function*() {
      const configs = yield* WebhookConfigRepo
      const endpoints = yield* WebhookEndpointsRepo
      const apiKey = unique("key")
      expect(yield* configs.find(apiKey)).toBeUndefined()
      const config = { apiKey, isEnabled: true, encryptData: false, encodeData: true, publicKey: "", enableDataProtection: true, createdAt: T0, updatedAt: T0 }
      yield* configs.upsert(config)
      yield* configs.upsert({ ...config, isEnabled: false, updatedAt: T0 + 1 })
      expect(yield* configs.find(apiKey)).toEqual({ ...config, isEnabled: false, updatedAt: T0 + 1 })

      const row = endpoint(apiKey, "e", T0, { filterTypes: ["comment.added"], channels: [], rateLimit: 2_147_483_647, uid: "uid", metadata: { a: "b" }, disabled: true, description: "d" })
      expect(yield* endpoints.insert(row, "whsec_1")).toBe(true)
      expect(yield* endpoints.insert({ ...row, id: "e2" }, "whsec_2")).toBe(false)
      expect(yield* endpoints.insert(endpoint(apiKey, "e3", T0), "whsec_3")).toBe(true)
      expect(yield* endpoints.insert(endpoint(apiKey, "e4", T0), "whsec_4")).toBe(true)
      expect(yield* endpoints.find(apiKey, "e")).toEqual(row)
      expect(yield* endpoints.find(apiKey, "e2")).toBeUndefined()
      const updated = { ...row, url: "https://new.example.com", description: null, filterTypes: null, channels: ["c"], disabled: false, rateLimit: null, metadata: {}, updatedAt: T0 + 1 }
      yield* endpoints.update({ ...updated, uid: "ignored", createdAt: 0 })
      expect(yield* endpoints.find(apiKey, "e")).toEqual(updated)
      expect(yield* endpoints.findSecret(apiKey, "e")).toBe("whsec_1")
      expect(yield* endpoints.delete(apiKey, "e")).toBe(true)
      expect(yield* endpoints.findSecret(apiKey, "e")).toBeUndefined()
      expect(yield* endpoints.delete(apiKey, "e")).toBe(false)
    }))

  it.effect("AgentExecutionsRepo and JudgmentsRepo keep large integers and exact fractions", () =>
    Effect.gen(function*() {
      const executions = yield* AgentExecutionsRepo
      const judgments = yield* JudgmentsRepo
      const apiKey = unique("key")
      const running = execution(apiKey, "x", T0, { agentVersion: 2 ** 40, completedAt: null, documentId: "doc", status: "running" })
      yield* executions.upsert(running)
      expect(yield* executions.list(apiKey, { agentId: "agent-1", documentId: "doc", organizationId: "org-1" }, { order: "asc", limit: 5 }))
        .toEqual([running])
      const finished = { ...running, status: "failed" as const, completedAt: T0 + 99, organizationId: null }
      yield* executions.upsert(finished)
      expect(yield* executions.list(apiKey, { status: "failed" }, { order: "desc", limit: 5 })).toEqual([finished])
      expect(yield* executions.list(apiKey, { organizationId: "org-1" }, { order: "desc", limit: 5 })).toEqual([])

      const exact = judgment(apiKey, "j", T0, { confidence: 0.123456789012345, contentType: "text", documentId: "doc", judgeType: "agent" })
      yield* judgments.upsert(exact)
      yield* judgments.upsert(judgment(apiKey, "k", T0 + 1, { decision: "reject", reviewerId: null }))
      expect(yield* judgments.latest(apiKey, { documentId: "doc", judgeType: "agent", contentType: "text" }, 5)).toEqual([exact])
      expect(yield* judgments.count(apiKey, { decision: "reject" })).toBe(1)
      expect(yield* judgments.count(apiKey, { reviewerId: "reviewer-1", organizationId: "org-1" })).toBe(1)
      yield* judgments.upsert({ ...exact, decision: "reject" })
      expect(yield* judgments.count(apiKey, { decision: "reject" })).toBe(2)
    }))

  it.effect("SigningKeysRepo keeps the first active key", () =>
    Effect.gen(function*() {
      const keys = yield* SigningKeysRepo
      const key = (kid: string, createdAt: number) => ({
        kid,
        alg: "ES256",
        privateJwk: { kty: "EC", d: kid },
        publicJwk: { kty: "EC", x: kid },
        createdAt,
        active: true
      })
      const first = key(unique("kid-a"), T0)
      yield* keys.insertIfNoneActive(first)
      yield* keys.insertIfNoneActive(key(unique("kid-b"), T0 + 1))
      expect(yield* keys.active).toEqual(first)
      expect(yield* keys.list).toEqual([first])
    }))

  it.effect("ServerSecretsRepo, RateLimitsRepo and StorageHealth", () =>
    Effect.gen(function*() {
      const secrets = yield* ServerSecretsRepo
      const limits = yield* RateLimitsRepo
      const health = yield* StorageHealth
      const name = unique("secret")
      const stored = yield* Effect.all([secrets.getOrCreate(name, "one"), secrets.getOrCreate(name, "two")], { concurrency: "unbounded" })
      expect(stored[0]).toBe(stored[1])
      expect(yield* secrets.getOrCreate(name, "three")).toBe(stored[0])
      const key = unique("ip")
      expect(yield* limits.hit(key, T0)).toBe(1)
      expect(yield* Effect.all([limits.hit(key, T0), limits.hit(key, T0)], { concurrency: "unbounded" })).toEqual(expect.arrayContaining([2, 3]))
      expect(yield* limits.hit(key, T0 + 60_000)).toBe(1)
      yield* health.ping
    }))
}
