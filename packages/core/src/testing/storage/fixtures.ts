/** What the storage suite's cases share: fresh keys, ids in every order, rows to write, a keyset walk. */
import type * as Vitest from "@effect/vitest"
import * as Effect from "effect/Effect"
import type { Activity } from "../../activities/ActivitySchemas.js"
import type { AgentExecutionRow } from "../../agents/AgentExecutionsRepo.js"
import { type DocumentRow, newDocument } from "../../documents/DocumentsRepo.js"
import type { FolderRow } from "../../folders/FoldersRepo.js"
import type { JudgmentRow } from "../../judgments/JudgmentsRepo.js"
import type { OrganizationRow } from "../../organizations/OrganizationsRepo.js"
import type { StorageServices } from "../../Storage.js"
import { compareText } from "../../TextOrder.js"
import type { MembershipRow, UserRow } from "../../users/UsersRepo.js"
import type { WebhookEndpointRow } from "../../webhooks/WebhookEndpointsRepo.js"

/** The `it` of the suite's layer: every case runs with the storage's services. */
export type It = Vitest.Vitest.MethodsNonLive<StorageServices, true>
export type Expect = typeof Vitest.expect
/** A file of cases: registers them with the suite's `it`. */
export type StorageCases = (it: It, expect: Expect) => void

/** A moment past 2^31 ms, as every real timestamp is: integer columns must hold it and give it back as a number. */
export const T0 = 1_900_000_000_000

let counter = 0
/** A fresh API key (or any id) for one case, so cases sharing a store never see each other's rows. */
export const unique = (label: string) => `${label}-${++counter}-${Math.random().toString(36).slice(2, 8)}`

/**
 * Ids in one order under every storage: ASCII of both cases, punctuation, non-ASCII letters,
 * emoji, and characters from U+E000 to U+FFFF, which JavaScript's `<` puts after emoji and the
 * SQL storages (comparing bytes) before them: every storage keeps `compareText`'s order.
 */
export const MIXED_IDS = [
  "A", "B", "Z", "_x", "a", "b", "z", "a-1", "a_1", "a.1", "a 1", "a1", "a10", "a2", "aa",
  "é", "ß", "Ω", "中文", "日本", "😀", "😀😀", "%", "'quote", "\"dq", "\\bs", "~tilde",
  "\ue000", "ﬀ", "\ufffd", "a\ufffd", "a😀"
]

/** 256 characters (the longest id a caller may send, docs/decisions.md, "Product rulings"), with multi-byte ones. */
export const LONG_IDS = ["a".repeat(256), "é".repeat(256), "😀".repeat(128), "中".repeat(255) + "z"]

export const ascending = (ids: ReadonlyArray<string>) => [...ids].sort(compareText)

export const organization = (apiKey: string, id: string, fields: Partial<OrganizationRow> = {}): OrganizationRow => ({
  apiKey,
  id,
  name: `org ${id}`,
  disabled: false,
  metadata: { plan: "team", nested: { list: [1, "two", null] } },
  createdAt: T0,
  updatedAt: T0,
  ...fields
})

export const document = (apiKey: string, organizationId: string, id: string, fields: Partial<DocumentRow> = {}): DocumentRow => ({
  ...newDocument({ apiKey, organizationId, id, internalId: `internal-${id}`, now: T0, name: `doc ${id}`, metadata: { v: 1 } }),
  ...fields
})

export const activity = (apiKey: string, organizationId: string, id: string, timestamp: number, fields: Partial<Activity> = {}): Activity => ({
  id,
  featureType: "comment",
  actionType: "added",
  actionUser: { userId: "user-1", name: "Ann" },
  metadata: { apiKey, organizationId, documentId: "doc-1" },
  timestamp,
  changes: { text: { from: "a", to: "b" } },
  ...fields
})

export const user = (apiKey: string, userId: string, fields: Partial<UserRow> = {}): UserRow => ({
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

export const membership = (
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

export const folder = (apiKey: string, organizationId: string, id: string, parentFolderId = "root"): FolderRow => ({
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

export const execution = (apiKey: string, id: string, startedAt: number, fields: Partial<AgentExecutionRow> = {}): AgentExecutionRow => ({
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

export const judgment = (apiKey: string, id: string, createdAt: number, fields: Partial<JudgmentRow> = {}): JudgmentRow => ({
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

export const endpoint = (apiKey: string, id: string, createdAt: number, fields: Partial<WebhookEndpointRow> = {}): WebhookEndpointRow => ({
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
export const allPages = <Row, Cursor, R>(
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
