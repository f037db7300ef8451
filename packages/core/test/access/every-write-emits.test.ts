/**
 * No write of what the access rule reads goes without its event, checked from the operation table
 * (issue 23 item 2): one key stores data of every kind (each domain's isolation seed, as the
 * isolation suite does), then calls every operation with bodies derived from its input schema and
 * aimed at those ids, running the due job tasks after each call. Around each call and its tasks
 * the test reads the access facts from storage (the organizations' disabled flag, grants, user
 * group members, each document's place and access as the rule reads them, each folder's place and
 * access type, the key's default access type and permission provider) and fails for every fact
 * that changed with no event of the same call naming it, in the fact's organization: a new
 * operation, or a new path of an old one, that writes user_memberships (or any of these) and emits
 * nothing fails here with the operation and the body. The facts are read from every table the
 * access version watches (migration 0014's triggers, read from the database): a table the rule
 * comes to read gets its trigger, and this test fails until it reads that table's facts too.
 * Every access event type is emitted by some call, each is in ACCESS_EVENT_TYPES, and each is in
 * docs/webhooks.md's list.
 */
import { JobRunner } from "@atrium/core"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { expect, it } from "vitest"
import { forEachBackend } from "../../../../test-support/backends.js"
import { eventRecorder } from "../../../../test-support/eventRecorder.js"
import { ACCESS_EVENT_TYPES } from "../../src/access/AccessEvents.js"
import type { AtriumHandler } from "../../src/Atrium.js"
import type { NewEvent } from "../../src/events/EventListener.js"
import { operations } from "../../src/operations.js"
import { bool } from "../../src/sql/Rows.js"
import { credentialsFor } from "../../src/testing/Harness.js"
import { API_KEY_CONFIG_SETTING } from "../../src/workspace/ApiKeyConfig.js"
import { PERMISSION_PROVIDER_SETTING } from "../../src/workspace/PermissionProviderConfig.js"
import { aimAt, domainIsolations } from "../protocol/DomainIsolation.js"
import { schemaSamples } from "../protocol/schemaSamples.js"

const SAMPLES = 4
const { eventsOf, listener: recorder } = eventRecorder()

/** The event types docs/webhooks.md lists under "What is emitted". */
const documentedTypes = (() => {
  const doc = readFileSync(join(import.meta.dirname, "..", "..", "..", "..", "docs", "webhooks.md"), "utf8")
  const section = doc.slice(doc.indexOf("## What is emitted"), doc.indexOf("\n## ", doc.indexOf("## What is emitted") + 1))
  const rows = section.split("\n").filter((line) => line.startsWith("| `") || line.startsWith("| a "))
  return new Set(rows.flatMap((row) => [...(row.split("|")[2] ?? "").matchAll(/`([a-z_]+\.[a-z_.]+)`/g)].map((m) => m[1]!)))
})()

/** One fact the access rule reads, what it is about, and its value. */
type Fact =
  | { readonly kind: "organization"; readonly organizationId: string }
  | { readonly kind: "grant"; readonly organizationId: string; readonly userId: string; readonly level: string; readonly scopeId: string }
  | { readonly kind: "member"; readonly organizationId: string; readonly userId: string }
  | { readonly kind: "document"; readonly organizationId: string; readonly documentId: string }
  | { readonly kind: "folder"; readonly organizationId: string; readonly folderId: string }
  | { readonly kind: "setting"; readonly name: string }

type Facts = Map<string, { readonly fact: Fact; readonly value: string }>

type SqlRuntime = { runPromise: <A>(effect: Effect.Effect<A, unknown, SqlClient.SqlClient>) => Promise<A> }

/** The tables `readFacts` reads: the access version's triggers must watch these and no others. */
const FACT_TABLES = ["documents", "folders", "organizations", "user_group_members", "user_memberships", "workspace_settings"]

/** The tables the access version's triggers watch (migration 0014), as the database has them. */
const watchedTables = (atrium: AtriumHandler): Promise<ReadonlyArray<string>> =>
  (atrium.runtime as unknown as SqlRuntime).runPromise(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql.onDialectOrElse({
      pg: () => sql<{ table_name: string }>`SELECT DISTINCT event_object_table AS table_name FROM information_schema.triggers WHERE trigger_name LIKE '%access_version%'`,
      orElse: () => sql<{ table_name: string }>`SELECT DISTINCT tbl_name AS table_name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%access_version%'`
    })
    return rows.map((r) => r.table_name).sort()
  }))

/** The key's access facts, read as the access rule reads them (access/SqlAccessRepo.ts, DocumentAccess). */
const readFacts = (atrium: AtriumHandler, apiKey: string): Promise<Facts> =>
  (atrium.runtime as unknown as SqlRuntime).runPromise(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const facts: Facts = new Map()
    const put = (fact: Fact, value: unknown) => facts.set(JSON.stringify(fact), { fact, value: JSON.stringify(value) })
    for (const r of yield* sql<{ id: string; disabled: unknown }>`SELECT id, disabled FROM organizations WHERE api_key = ${apiKey}`) {
      // An organization not added yet is judged as an enabled one: only the flag is a fact.
      if (bool(r.disabled)) put({ kind: "organization", organizationId: r.id }, true)
    }
    for (
      const r of yield* sql<{ organization_id: string; user_id: string; level: string; scope_id: string; access_role: string; expires_at: unknown }>`
        SELECT organization_id, user_id, level, scope_id, access_role, expires_at FROM user_memberships WHERE api_key = ${apiKey}`
    ) {
      put({ kind: "grant", organizationId: r.organization_id, userId: r.user_id, level: r.level, scopeId: r.scope_id }, [
        r.access_role,
        r.expires_at === null ? null : Number(r.expires_at)
      ])
    }
    for (const r of yield* sql<{ organization_id: string; user_id: string }>`SELECT DISTINCT organization_id, user_id FROM user_group_members WHERE api_key = ${apiKey}`) {
      put({ kind: "member", organizationId: r.organization_id, userId: r.user_id }, true)
    }
    for (
      const r of yield* sql<{ organization_id: string; id: string; disabled: unknown; access_type: string; inherit_access: unknown; folder_id: string | null; ancestors: string | null; folder_type: string | null }>`
        SELECT d.organization_id, d.id, d.disabled, d.access_type, d.inherit_access, d.folder_id, f.ancestors, f.access_type AS folder_type
        FROM documents d LEFT JOIN folders f ON f.api_key = d.api_key AND f.organization_id = d.organization_id AND f.id = d.folder_id
        WHERE d.api_key = ${apiKey}`
    ) {
      const inherits = bool(r.inherit_access)
      const judged = { disabled: bool(r.disabled), ownType: inherits ? null : r.access_type, folder: r.folder_id, ancestors: r.ancestors, folderType: inherits ? r.folder_type : null }
      // A document that follows the key's default at the root is judged as one not added yet: no fact of its own.
      if (judged.disabled || judged.ownType !== null || judged.folder !== null) put({ kind: "document", organizationId: r.organization_id, documentId: r.id }, judged)
    }
    // A folder check reads the folder's chain and its type (inheritance applied).
    for (const r of yield* sql<{ organization_id: string; id: string; ancestors: string; access_type: string }>`
      SELECT organization_id, id, ancestors, access_type FROM folders WHERE api_key = ${apiKey}`) {
      put({ kind: "folder", organizationId: r.organization_id, folderId: r.id }, [r.ancestors, r.access_type])
    }
    for (
      const r of yield* sql<{ name: string; value: string }>`SELECT name, value FROM workspace_settings WHERE api_key = ${apiKey}
        AND name IN (${API_KEY_CONFIG_SETTING}, ${PERMISSION_PROVIDER_SETTING})`
    ) {
      put({ kind: "setting", name: r.name }, r.value)
    }
    return facts
  }))

/**
 * The facts that differ between two readings. A folder that appears is none: it holds no document
 * yet, and it only opens what was judged restricted before (docs/decisions.md, "Access": folders/add
 * emits nothing); a folder's change or removal is one.
 */
const changed = (before: Facts, after: Facts): ReadonlyArray<Fact> =>
  [...new Set([...before.keys(), ...after.keys()])]
    .filter((key) => before.get(key)?.value !== after.get(key)?.value)
    .map((key) => (before.get(key) ?? after.get(key))!.fact)
    .filter((fact) => !(fact.kind === "folder" && !before.has(JSON.stringify(fact))))

/**
 * Whether `event` tells a listener to re-check `fact`: it names it, and it belongs to the fact's
 * organization (the key's settings: to none), where the outbox files it.
 */
const covers = (event: NewEvent, fact: Fact): boolean => {
  const data = event.data as { resource?: { type: string; id: string; organizationId: string }; userId?: string; newDocumentId?: string }
  const resource = data.resource
  if (event.organizationId !== (fact.kind === "setting" ? null : fact.organizationId)) return false
  // Everything of a deleted organization went with it.
  if (event.type === "access.organization_deleted") return true
  switch (fact.kind) {
    case "setting":
      return event.type === (fact.name === API_KEY_CONFIG_SETTING ? "access.default_type_updated" : "access.permission_provider_updated")
    case "folder":
      return resource?.organizationId === fact.organizationId && resource.type === "folder" && resource.id === fact.folderId
    case "organization":
      return event.type === "access.organization_disabled_updated" && resource?.id === fact.organizationId
    case "member":
      return resource?.organizationId === fact.organizationId && data.userId === fact.userId
    case "grant":
      return resource?.organizationId === fact.organizationId && (
        data.userId === fact.userId ||
        (event.type === "access.document_migrated" && fact.level === "document" && [resource.id, data.newDocumentId].includes(fact.scopeId)) ||
        // A deleted document's or folder's grants went with it.
        (event.type === `access.${fact.level}_deleted` && resource.id === fact.scopeId)
      )
    case "document":
      return resource?.organizationId === fact.organizationId &&
        ((resource.type === "document" && resource.id === fact.documentId) || data.newDocumentId === fact.documentId || resource.type === "folder")
  }
}

forEachBackend("every write of an access fact emits its event", (ctx) => {
  it("reads the facts of every table the access version watches", async () => {
    expect(await watchedTables(ctx().atrium)).toEqual(FACT_TABLES)
  })

  it("from every domain's seed and every operation of the table, aimed at the seeded ids", async () => {
    const { atrium, client, workspace } = ctx()
    let creds = await workspace()
    const uncovered: Array<string> = []
    const emittedTypes = new Set<string>()
    const runJobs = async () => {
      while ((await atrium.runtime.runPromise(JobRunner.runDue("test"))) > 0) {
        // Until nothing is due.
      }
    }
    /** Runs `act` (a call and the job tasks it made due), and records each fact it changed that no event of it names. */
    const checked = async <A>(what: string, act: () => Promise<A>): Promise<A> => {
      const before = await readFacts(atrium, creds.apiKey)
      const seen = eventsOf(creds.apiKey).length
      const result = await act()
      await runJobs()
      const events = eventsOf(creds.apiKey).slice(seen)
      for (const event of events) if (event.type.startsWith("access.")) emittedTypes.add(event.type)
      for (const fact of changed(before, await readFacts(atrium, creds.apiKey))) {
        if (!events.some((event) => covers(event, fact))) uncovered.push(`${what}: ${JSON.stringify(fact)} changed with no event naming it`)
      }
      return result
    }

    // The seeds: every domain's data (test/<domain>/isolation.ts), in the domains' order.
    const kept: Record<string, unknown> = {}
    const aimedList: Record<string, ReadonlyArray<unknown>> = {}
    for (const isolation of await domainIsolations()) {
      const call = (path: string, data: unknown) =>
        checked(`seed ${path} ${JSON.stringify(data).slice(0, 200)}`, async () => {
          const answer = await client.post(path, data, creds.headers)
          expect(answer.status, `${path}: ${answer.text}`).toBeLessThan(300)
          return answer.body.result
        })
      const seeded = await isolation.seed({ call, mark: "seeded", apiKey: creds.apiKey, workspaceId: creds.workspaceId, kept })
      Object.assign(kept, seeded.aimed)
      Object.assign(aimedList, seeded.aimedList)
    }
    /**
     * Undoes what would make the next operation's calls refused or slow: a disabled seeded
     * organization refuses them, and a permission provider (the workspace seed's, or a sample's)
     * would be asked by every access check, at a host that does not exist.
     */
    const reopen = async () => {
      await checked("enable the seeded organizations", () =>
        client.post("/v2/organizations/access/disablestate/update", { organizationIds: ["org1", "org2"], disabled: false }, creds.headers))
      await checked("provider off", () => client.post("/v2/workspace/permissionproviderconfig/update", { usePermissionProvider: false }, creds.headers))
    }
    await reopen()

    const aim = aimAt(kept, aimedList)
    let carriedOut = 0
    // The deletions last, smallest first: each would take the seeded data the others' writes reach.
    const DELETIONS = ["organizations.documents.delete.v1", "organizations.documents.delete", "organizations.folders.delete", "organizations.delete"]
    const inOrder = [...operations.entries()].sort(([, a], [, b]) => DELETIONS.indexOf(a.name) - DELETIONS.indexOf(b.name))
    for (const [index, operation] of inOrder) {
      // Raw samples reach other ids (a new organization, user, document); aimed ones reach the seeded data.
      const samples = schemaSamples(operation.input, SAMPLES, 11 + index)
      for (const data of [...samples, ...samples.map(aim)]) {
        const headers = await credentialsFor(operation.auth, creds, client)
        const answer = await checked(`${operation.name} ${JSON.stringify(data).slice(0, 300)}`, () => client.post(operation.paths[0]!, data, headers))
        if (answer.status < 300) carriedOut++
        // The key's token was replaced: its calls go on with the new one.
        if (operation.name === "workspace.authtoken.reset" && answer.status === 200 && answer.body.result.data.apiKey === creds.apiKey) {
          const authToken = answer.body.result.data.newAuthToken.token as string
          creds = { ...creds, authToken, headers: { ...creds.headers, "x-service-auth-token": authToken } }
        }
      }
      await reopen()
    }

    expect(uncovered).toEqual([])
    // Not vacuous: calls were carried out, and every access event type was emitted by some of them (each one's writes were reached).
    expect(carriedOut).toBeGreaterThan(operations.length)
    expect([...emittedTypes].sort()).toEqual([...ACCESS_EVENT_TYPES].sort())
    const undocumented = [...emittedTypes, ...ACCESS_EVENT_TYPES].filter((type) => !documentedTypes.has(type))
    expect(undocumented, "event types missing from docs/webhooks.md, \"What is emitted\"").toEqual([])
  }, 240_000)
}, { listeners: [recorder] })
