// The access rule's cost per check (issue 23; docs/benchmarks.md, "Access"). `pnpm -s build` first.
//   node bench/access.mjs [--checks 20000]
// In process, on SQLite (a file): organization "org" with a chain of 5 folders and a document in
// the deepest, a user with stored grants at three levels and a token of 100 entries (none on the
// document's chain, so the rule reads them all). Timed, each the mean over --checks calls after a
// warm-up: (a) decideAccess alone over facts gathered once (the rule's own cost); (b) the raw
// better-sqlite3 statements that gather the facts, prepared once (the storage floor, no Effect);
// (c) DocumentAccess.check through the runtime (what every path pays); (d) the same with the
// permission provider on, answered by a receiver on loopback (first call: the round trip; later
// calls: the cache).
import { createAtrium, decideAccess, DocumentAccess } from "@atrium/core"
import { SqliteStorage } from "@atrium/sql-sqlite"
import * as Effect from "effect/Effect"
import { mkdtempSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"

// better-sqlite3 is the SQLite package's dependency, not the workspace root's.
const Database = createRequire(new URL("../packages/sql-sqlite/package.json", import.meta.url))("better-sqlite3")
const { values: args } = parseArgs({ options: { checks: { type: "string", default: "20000" } } })
const CHECKS = Number(args.checks)
const dir = mkdtempSync(join(tmpdir(), "atrium-access-"))
const filename = join(dir, "access.db")

const receiver = createServer((request, response) => {
  let body = ""
  request.on("data", (chunk) => (body += chunk)).on("end", () => {
    const { data } = JSON.parse(body)
    response.setHeader("content-type", "application/json")
    response.end(JSON.stringify({ data: data.requests.map((q) => ({ userId: q.userId, resourceId: q.resource.id, type: q.resource.type, hasAccess: true, accessRole: "viewer" })) }))
  })
})
await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve))

const atrium = createAtrium({ storage: SqliteStorage.layer({ filename }), options: { allowPrivateNetworks: true } })
/** Mean time of `run(i)` over n calls, after a warm-up of other i (so a first ask is first in the timed loop too). */
const mean = async (label, run, n = CHECKS) => {
  const warm = Math.min(n, 2000)
  for (let i = 0; i < warm; i++) await run(i)
  const t0 = performance.now()
  for (let i = warm; i < warm + n; i++) await run(i)
  const micros = ((performance.now() - t0) * 1000) / n
  console.log(`| ${label} | ${micros.toFixed(1)} µs |`)
  return micros
}
try {
  await atrium.ready()
  const workspace = await atrium.handle({ method: "POST", path: "/v2/workspace/create", headers: { "content-type": "application/json" }, body: JSON.stringify({ data: { ownerEmail: "bench@example.com" } }), ip: "127.0.0.1" })
  const [apiKey, { authToken }] = Object.entries(JSON.parse(workspace.body).result.data.apiKeyList)[0]
  const post = async (path, data) => {
    const answer = await atrium.handle({ method: "POST", path, headers: { "content-type": "application/json", "x-service-api-key": apiKey, "x-service-auth-token": authToken }, body: JSON.stringify({ data }), ip: "127.0.0.1" })
    if (answer.status !== 200) throw new Error(`${path}: ${answer.body}`)
  }
  const chain = ["f1", "f2", "f3", "f4", "f5"]
  await post("/v2/organizations/folders/add", { organizationId: "org", createOrganization: true, folders: chain.map((folderId, i) => ({ folderId, ...(i > 0 && { parentFolderId: chain[i - 1] }), accessType: i === 0 ? "restricted" : undefined })) })
  await post("/v1/organizations/documents/add", { organizationId: "org", folderId: "f5", documents: [{ documentId: "doc" }] })
  await post("/v2/auth/permissions/add", { user: { userId: "ann" }, permissions: { resources: [{ type: "organization", id: "org", accessRole: "viewer" }, { type: "folder", id: "f1", organizationId: "org", accessRole: "editor" }, { type: "document", id: "other", organizationId: "org" }] } })
  const tokenResources = Array.from({ length: 100 }, (_, i) => ({ type: "document", id: `elsewhere-${i}`, organizationId: "org", accessRole: "editor", expiresAt: 4_102_444_800_000 }))
  const question = { apiKey, userId: "ann", organizationId: "org", documentId: "doc", tokenResources }
  const decided = await atrium.runtime.runPromise(DocumentAccess.check(question))
  console.log(`decision: ${decided.accessRole} (${decided.reason})\n`)
  console.log(`| ${CHECKS} checks, node ${process.version} | mean per check |`)
  console.log("|---|---|")

  const facts = {
    organizationId: "org", organizationDisabled: false, documentId: "doc", documentDisabled: false, folderChain: [...chain].reverse(), accessType: "restricted", member: true, now: Date.now(),
    tokenGrants: tokenResources.map((r) => ({ level: r.type, id: r.id, accessRole: r.accessRole, expiresAt: r.expiresAt })),
    storedGrants: [{ level: "organization", id: "org", accessRole: "viewer" }, { level: "folder", id: "f1", accessRole: "editor" }]
  }
  await mean("(a) decideAccess alone, facts in hand", () => decideAccess(facts))

  const raw = new Database(filename, { readonly: true })
  const statements = [
    raw.prepare("SELECT disabled FROM organizations WHERE api_key = ? AND id = ?"),
    raw.prepare("SELECT level, scope_id, access_role, expires_at FROM user_memberships WHERE api_key = ? AND organization_id = ? AND user_id = ?"),
    raw.prepare("SELECT 1 AS found FROM user_group_members WHERE api_key = ? AND organization_id = ? AND user_id = ? LIMIT 1"),
    raw.prepare("SELECT d.disabled, d.access_type, d.inherit_access, d.folder_id, f.ancestors, f.access_type AS folder_access_type FROM documents d LEFT JOIN folders f ON f.api_key = d.api_key AND f.organization_id = d.organization_id AND f.id = d.folder_id WHERE d.api_key = ? AND d.organization_id = ? AND d.id = ?")
  ]
  await mean("(b) the facts' 4 statements, raw better-sqlite3 (floor)", () => {
    statements[0].get(apiKey, "org")
    statements[1].all(apiKey, "org", "ann")
    statements[2].get(apiKey, "org", "ann")
    statements[3].get(apiKey, "org", "doc")
  })
  raw.close()

  await mean("(c) DocumentAccess.check, on the runtime", () => atrium.runtime.runPromise(DocumentAccess.check(question)))

  await post("/v2/workspace/permissionproviderconfig/update", { usePermissionProvider: true, permissionProviderConfig: { permissionProviderUrl: `http://127.0.0.1:${receiver.address().port}/permissions`, authToken: "t" } })
  await mean("(d) with the provider on, first ask of each user (a loopback round trip)", (i) => atrium.runtime.runPromise(DocumentAccess.check({ ...question, userId: `u${i}` })), 500)
  await mean("(d) with the provider on, answer kept", () => atrium.runtime.runPromise(DocumentAccess.check(question)))
} finally {
  await atrium.dispose()
  receiver.close()
  rmSync(dir, { recursive: true, force: true })
}
