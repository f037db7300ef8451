/**
 * The table inventory (issue 28): every table of the schema is declared by a domain, as holding
 * organizations', documents' or users' data (`dataTables`, or a child of one) or as not
 * (`otherTables`, with why), so a new domain's table cannot be forgotten by the deletions. Then,
 * from one key seeded through every domain (each domain's isolation seed), deleting a document, a
 * folder and an organization over HTTP leaves none of their rows in any table the inventory lists,
 * no child row without its parent, and every other row where it was. A table the seeds do not
 * fill for the organization fails here too, unless it is listed below with why: the walk must
 * reach every table with real rows.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import type * as Statement from "@effect/sql/Statement"
import * as Effect from "effect/Effect"
import { expect, it } from "vitest"
import { JobRunner } from "../../src/jobs/JobRunner.js"
import { exportKey } from "../../src/jobs/JobTables.js"
import { forEachBackend } from "../../../../test-support/backends.js"
import type { AtriumHandler } from "../../src/Atrium.js"
import { domains } from "../../src/domains.js"
import { DELETION_EVENT_TYPES } from "../../src/jobs/DeletionEvents.js"
import type { DataTable } from "../../src/jobs/JobTables.js"
import { domainIsolations } from "../protocol/DomainIsolation.js"

const dataTables: ReadonlyArray<DataTable> = domains.flatMap<DataTable>((domain) => "dataTables" in domain ? domain.dataTables : [])
const otherTables = domains.flatMap((domain) => "otherTables" in domain ? domain.otherTables.map((t) => t.name) : [])
const children = dataTables.flatMap((table) => (table.children ?? []).map((child) => ({ parent: table, ...child })))

/** The organization's tables the isolation seeds leave empty, and why: each still has its rows removed by the same statements as the others. */
const NOT_SEEDED: Readonly<Record<string, string>> = {
  realtime_events: "logged only while a server follows the key (test/realtime covers deletion with a live page)",
  email_items: "made only when email notifications are on with a delay (test/emails)",
  outgoing_emails: "made only when email notifications are on (test/emails)",
  webhook_attempts: "made only when a delivery is attempted"
}

type SqlRuntime = { runPromise: <A>(effect: Effect.Effect<A, unknown, SqlClient.SqlClient>) => Promise<A> }
const run = <A>(atrium: AtriumHandler, effect: Effect.Effect<A, unknown, SqlClient.SqlClient>) => (atrium.runtime as unknown as SqlRuntime).runPromise(effect)

/** The schema's tables, as the database has them (the migrations' own bookkeeping left out). */
const schemaTables = (atrium: AtriumHandler) =>
  run(atrium, Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql.onDialectOrElse({
      pg: () => sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()`,
      orElse: () => sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
    })
    return rows.map((r) => r.name).filter((name) => !name.includes("migrations")).sort()
  }))

/** What to count in one table: rows of the key the condition picks (built with the table's columns). */
type Pick = (sql: SqlClient.SqlClient, table: DataTable) => Statement.Fragment | undefined

const count = (atrium: AtriumHandler, apiKey: string, pick: Pick) =>
  run(atrium, Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const counts: Record<string, number> = {}
    for (const table of dataTables) {
      const condition = pick(sql, table)
      if (condition === undefined) continue
      const [row] = yield* sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM ${sql(table.name)} WHERE ${sql(table.apiKey)} = ${apiKey} AND ${condition}`
      counts[table.name] = Number(row!.n)
    }
    // A child's rows through its parent's, where the condition does not pick them by their own columns: those whose parent it picks.
    const direct = new Set(Object.keys(counts))
    for (const child of children) {
      const condition = pick(sql, child.parent)
      if (condition === undefined || direct.has(child.table)) continue
      const joined = sql.and(child.on.map(([c, p]) => sql`${sql(child.table)}.${sql(c)} = parent.${sql(p)}`))
      const [row] = yield* sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM ${sql(child.table)}
        WHERE EXISTS (SELECT 1 FROM ${sql(child.parent.name)} parent WHERE parent.${sql(child.parent.apiKey)} = ${apiKey} AND ${condition} AND ${joined})`
      counts[child.table] = (counts[child.table] ?? 0) + Number(row!.n)
    }
    return counts
  }))

/** Child rows of the key whose parent row is gone: a deletion that forgot them. */
const orphans = (atrium: AtriumHandler, apiKey: string) =>
  run(atrium, Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const found: Record<string, number> = {}
    for (const child of children) {
      const joined = sql.and(child.on.map(([c, p]) => sql`${sql(child.table)}.${sql(c)} = parent.${sql(p)}`))
      const [row] = yield* sql<{ n: number | string }>`SELECT COUNT(*) AS n FROM ${sql(child.table)}
        WHERE ${sql(child.table)}.api_key = ${apiKey} AND NOT EXISTS (SELECT 1 FROM ${sql(child.parent.name)} parent WHERE ${joined})`
      if (Number(row!.n) > 0) found[`${child.table} (of ${child.parent.name})`] = Number(row!.n)
    }
    return found
  }))

const ofOrganization = (organizationId: string): Pick => (sql, table) =>
  table.organization === undefined ? undefined : sql`${sql(table.organization)} = ${organizationId}`

const notOfOrganization = (organizationId: string): Pick => (sql, table) =>
  table.organization === undefined ? sql`1 = 1` : sql`(${sql(table.organization)} IS NULL OR ${sql(table.organization)} <> ${organizationId})`

const textHolds = (sql: SqlClient.SqlClient, column: string, needle: string) =>
  sql.onDialectOrElse({ pg: () => sql`strpos(${sql(column)}, ${needle}) > 0`, orElse: () => sql`instr(${sql(column)}, ${needle}) > 0` })

const ofDocument = (organizationId: string, documentId: string): Pick => (sql, table) => {
  if (table.organization === undefined) return undefined
  const organization = sql`${sql(table.organization)} = ${organizationId}`
  if (table.document !== undefined) {
    const only = table.documentRowsOnly
    return sql.and([organization, sql`${sql(table.document)} = ${documentId}`, ...(only ? [sql`${sql(only.column)} = ${only.value}`] : [])])
  }
  if (table.mentions?.document !== undefined) {
    const { column, document } = table.mentions
    return sql.and([organization, sql.or(document(documentId).map((needle) => textHolds(sql, column, needle)))])
  }
  return undefined
}

const ofFolder = (organizationId: string, folderId: string): Pick => (sql, table) => {
  if (table.organization === undefined || table.folder === undefined) return undefined
  const { column, rowsOnly } = table.folder
  return sql.and([sql`${sql(table.organization)} = ${organizationId}`, sql`${sql(column)} = ${folderId}`, ...(rowsOnly ? [sql`${sql(rowsOnly.column)} = ${rowsOnly.value}`] : [])])
}

/** The webhook messages of the deletions themselves (and their deliveries) are new rows that name what went: left out. */
const DELETION_TYPES = [...DELETION_EVENT_TYPES, "access.organization_deleted", "access.folder_deleted", "access.document_deleted"]
const left = (pick: Pick): Pick => (sql, table) => {
  const condition = pick(sql, table)
  return condition === undefined || table.name !== "webhook_messages" ? condition : sql.and([condition, sql`NOT (${sql.in("event_type", DELETION_TYPES)})`])
}

/** A user's rows, as a user-data deletion picks them: by the user column, or the JSON text naming them; in the organization where the table has one. */
const ofUser = (organizationId: string, userId: string): Pick => (sql, table) => {
  const organization = table.organization === undefined ? [] : [sql`${sql(table.organization)} = ${organizationId}`]
  if (table.user !== undefined) return sql.and([...organization, sql`${sql(table.user)} = ${userId}`])
  if (table.mentions !== undefined) return sql.and([...organization, sql.or(table.mentions.user(userId).map((needle) => textHolds(sql, table.mentions!.column, needle)))])
  return undefined
}

/** Text that is JSON of an object or a list: an export that gives one as a string has a JSON column it was not told of (`json`). */
const looksLikeJson = (value: unknown) => {
  if (typeof value !== "string" || !/^[[{]/.test(value)) return false
  try {
    return typeof JSON.parse(value) === "object"
  } catch {
    return false
  }
}

const nonZero = (counts: Record<string, number>) => Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0))

forEachBackend("the table inventory: deletions visit every table", (ctx) => {
  it("every table of the schema is declared once, by some domain, as data (or a child of it) or not", async () => {
    const declared = [...dataTables.map((t) => t.name), ...children.map((c) => c.table), ...otherTables]
    const inSchema = await schemaTables(ctx().atrium)
    // Each once: a table that is both data and not, or data of two domains, is a mistake too (a child may have several parents).
    const once = [...dataTables.map((t) => t.name), ...otherTables]
    expect(once.filter((name, i) => once.indexOf(name) !== i)).toEqual([])
    expect([...new Set(declared)].sort()).toEqual(inSchema)
    expect(inSchema.length).toBeGreaterThan(30)
  })

  /** A new key holding every domain's isolation seed, a read marker (no seed makes one), and a document in the seeded folder. */
  const seeded = async () => {
    const { atrium, client, workspace } = ctx()
    const creds = await workspace()
    const kept: Record<string, unknown> = {}
    for (const isolation of await domainIsolations()) {
      const call = async (path: string, data: unknown) => {
        const answer = await client.post(path, data, creds.headers)
        expect(answer.status, `${path}: ${answer.text}`).toBeLessThan(300)
        return answer.body.result
      }
      Object.assign(kept, (await isolation.seed({ call, mark: "seeded", apiKey: creds.apiKey, workspaceId: creds.workspaceId, kept })).aimed)
    }
    const organizationId = kept.organizationId as string
    const documentId = kept.documentId as string
    const folderId = kept.folderId as string
    const read = await client.post("/v2/commentannotations/read", { organizationId, documentId, annotationIds: [kept.annotationId], userId: "reader" }, creds.headers)
    expect(read.status, read.text).toBe(200)
    const inFolder = await client.post("/v2/organizations/documents/add", { organizationId, folderId, documents: [{ documentId: "in-folder" }] }, creds.headers)
    expect(inFolder.status, inFolder.text).toBe(200)
    expect(await orphans(atrium, creds.apiKey)).toEqual({})
    return { atrium, client, headers: creds.headers, apiKey: creds.apiKey, organizationId, documentId, folderId }
  }

  it("deleting an organization leaves none of its rows in any table, and touches nothing else; repeated, it changes nothing", async () => {
    const { apiKey, atrium, client, headers, organizationId } = await seeded()
    // Every organization table (and child) holds the seeded organization's rows, unless said why not.
    const before = await count(atrium, apiKey, ofOrganization(organizationId))
    expect(Object.keys(before).filter((name) => before[name] === 0).sort()).toEqual(Object.keys(NOT_SEEDED).sort())
    const elsewhere = await count(atrium, apiKey, notOfOrganization(organizationId))

    const deleted = await client.post("/v2/organizations/delete", { organizationIds: [organizationId] }, headers)
    expect(deleted.status, deleted.text).toBe(200)
    expect(deleted.body.result).toEqual({
      status: "success",
      message: "Organization(s) deleted successfully.",
      data: { [organizationId]: { success: true, id: organizationId, message: "Deleted Successfully" } }
    })
    expect(nonZero(await count(atrium, apiKey, left(ofOrganization(organizationId))))).toEqual({})
    expect(await orphans(atrium, apiKey)).toEqual({})
    // Every other organization's rows, and the key's own (the users' records), are where they were.
    expect(await count(atrium, apiKey, notOfOrganization(organizationId))).toEqual(elsewhere)
    expect(elsewhere.users).toBeGreaterThan(0)

    const again = await client.post("/v2/organizations/delete", { organizationIds: [organizationId] }, headers)
    expect(again.body.result.data[organizationId]).toEqual({ success: false, id: organizationId, message: "Organization does not exist" })
    expect(nonZero(await count(atrium, apiKey, left(ofOrganization(organizationId))))).toEqual({})
  }, 120_000)

  it("deleting a document, then a folder, leaves none of their rows in any table, and touches nothing else", async () => {
    const { apiKey, atrium, client, documentId, folderId, headers, organizationId } = await seeded()
    const documentRows = await count(atrium, apiKey, ofDocument(organizationId, documentId))
    // The document's rows in the tables that say whose they are, and its webhook messages.
    for (const table of ["documents", "comment_annotations", "comments", "comment_reactions", "comment_reads", "presence", "activities", "webhook_messages", "webhook_deliveries"]) {
      expect(documentRows[table], table).toBeGreaterThan(0)
    }
    const organizationRows = await count(atrium, apiKey, ofOrganization(organizationId))
    const expectedLeft = Object.fromEntries(Object.entries(organizationRows).map(([table, n]) => [table, n - (documentRows[table] ?? 0)]))

    const deleted = await client.post("/v2/organizations/documents/delete", { organizationId, documentIds: [documentId] }, headers)
    expect(deleted.status, deleted.text).toBe(200)
    expect(nonZero(await count(atrium, apiKey, left(ofDocument(organizationId, documentId))))).toEqual({})
    expect(await orphans(atrium, apiKey)).toEqual({})
    // The organization's other rows are where they were.
    expect(await count(atrium, apiKey, left(ofOrganization(organizationId)))).toEqual(expectedLeft)

    const folderRows = await count(atrium, apiKey, ofFolder(organizationId, folderId))
    expect(folderRows.folders).toBe(1)
    const deleteFolder = await client.post("/v2/organizations/folders/delete", { organizationId, folderId }, headers)
    expect(deleteFolder.status, deleteFolder.text).toBe(200)
    expect(nonZero(await count(atrium, apiKey, ofFolder(organizationId, folderId)))).toEqual({})
    expect(nonZero(await count(atrium, apiKey, left(ofDocument(organizationId, "in-folder"))))).toEqual({})
    expect(await orphans(atrium, apiKey)).toEqual({})
  }, 120_000)

  it("a user's export lists every row a user-data deletion removes, in every table with users' rows, a page at a time; after the deletion, nothing", async () => {
    const { apiKey, atrium, client, headers, organizationId } = await seeded()
    // Only the tables with users' rows themselves: a child goes with its parent, and is not the user's unless it says so.
    const userTables = dataTables.filter((table) => table.user !== undefined || table.mentions !== undefined)

    const exported = async (userId: string) => {
      const all: Record<string, Array<Record<string, unknown>>> = {}
      let pageToken: string | undefined
      do {
        const answer = await client.post("/v2/users/data/get", { organizationId, userId, ...(pageToken && { pageToken }) }, headers)
        expect(answer.status, answer.text).toBe(200)
        expect(answer.body.result.message).toBe("User data retrieved successfully.")
        for (const [kind, records] of Object.entries(answer.body.result.data as Record<string, Array<Record<string, unknown>>>)) {
          ;(all[kind] ??= []).push(...records)
        }
        pageToken = answer.body.result.nextPageToken ?? undefined
      } while (pageToken !== undefined)
      return all
    }

    // The seed's users: u1 wrote and reacted; u2 sent u1 notifications (they name u2; u1 holds their recipient rows); reader read a
    // thread; granted-user was granted access (the access events' webhook messages name them).
    const seen = new Set<string>()
    for (const userId of ["u1", "u2", "reader", "granted-user"]) {
      const rows = await count(atrium, apiKey, ofUser(organizationId, userId))
      const expected = Object.fromEntries(userTables.map((table) => [exportKey(table), rows[table.name]!]))
      for (const table of userTables) if (rows[table.name]! > 0) seen.add(table.name)
      const records = await exported(userId)
      // Every kind under its name (and the hosted service's recordings, which Atrium keeps none of), each row once.
      expect(Object.keys(records).sort()).toEqual([...Object.keys(expected), "recordings"].sort())
      expect(Object.fromEntries(Object.entries(records).filter(([kind]) => kind !== "recordings").map(([kind, list]) => [kind, list.length]))).toEqual(expected)
      for (const [kind, list] of Object.entries(records)) {
        for (const record of list) {
          // The JSON columns come parsed (none left as text), and no API key.
          expect(Object.entries(record).filter(([, value]) => looksLikeJson(value)).map(([column]) => `${kind}.${column}`)).toEqual([])
          expect(record).not.toHaveProperty("apiKey")
        }
      }
    }
    // Every table with users' rows held some of theirs, unless the seeds make none (said why above).
    expect(userTables.map((table) => table.name).filter((name) => !seen.has(name)).sort()).toEqual(Object.keys(NOT_SEEDED).filter((name) => userTables.some((t) => t.name === name)).sort())

    const before = await exported("u1")
    expect(before.comments!.every((comment) => comment.createdBy === "u1" && comment.organizationId === organizationId)).toBe(true)
    expect((before.comments![0]!.record as { from: { userId: string } }).from.userId).toBe("u1")
    expect(typeof before.comments![0]!.createdAt).toBe("number")
    expect(before.reactions!.length).toBeGreaterThan(0)

    const deletion = await client.post("/v2/users/data/delete", { userIds: ["u1"], organizationIds: [organizationId] }, headers)
    expect(deletion.status, deletion.text).toBe(202)
    while ((await atrium.runtime.runPromise(JobRunner.runDue("test"))) > 0) {
      // until the job is done
    }
    // The organization's rows went; the user record is shared by the key's organizations and stays with a narrowed deletion.
    const after = await exported("u1")
    expect(Object.entries(after).filter(([, records]) => records.length > 0).map(([kind]) => kind)).toEqual(["users"])
  }, 120_000)
})
