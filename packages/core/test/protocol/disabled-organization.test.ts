/**
 * A disabled organization's data is closed on every operation (issue 23, item 4; docs/decisions.md,
 * "Access"), checked from the operation table so that a new operation cannot forget it. Every
 * operation either names its organization on every call (its row's `organization`: the dispatcher
 * refuses the call while that organization is disabled, checked here for every such row), or its
 * domain's `test/<domain>/disabledOrganization.ts` lists it: as reading no organization's data, as
 * ruled open on purpose, or as a read across organizations, which is seeded in two organizations
 * and must answer the enabled one's data and nothing of the disabled one.
 */
import * as Schema from "effect/Schema"
import { describe, expect, it } from "vitest"
import { forEachBackend, postgresOverHttp } from "../../../../test-support/backends.js"
import type { Domain } from "../../src/domains.js"
import { domains } from "../../src/domains.js"
import { credentialsFor } from "../../src/testing/Harness.js"
import type { DisabledOrganization } from "./DisabledOrganization.js"
import { schemaSamples } from "./schemaSamples.js"

type Operation = Domain["operations"][number]

const SAMPLES = 20
const OPEN = "org-open-5c2a"
const CLOSED = "org-closed-5c2a"
const markOf = (organizationId: string) => `${organizationId}-mark`

const lists = await Promise.all(domains.map(async (domain) => {
  const module = await import(`../${domain.name}/disabledOrganization.ts`).catch(() => undefined) as
    | { disabledOrganization?: DisabledOrganization }
    | undefined
  return module?.disabledOrganization ?? {}
}))

const rows = domains.flatMap((domain, d) => domain.operations.map((operation: Operation, i) => ({ domain: domain.name, list: lists[d]!, operation, seed: 100 * d + i })))

/** The organization a body names, as the dispatcher reads it: the row's `organization` of the decoded body. */
const organizationOf = (operation: Operation, data: unknown): string | undefined =>
  operation.organization?.(Schema.decodeUnknownSync(operation.input)(data) as never)

/** Valid bodies of the operation (its input schema's samples); the same every run. */
const samples = new Map<Operation, ReadonlyArray<unknown>>()
const samplesOf = (row: (typeof rows)[number]) => {
  if (!samples.has(row.operation)) samples.set(row.operation, schemaSamples(row.operation.input, SAMPLES, row.seed))
  return samples.get(row.operation)!
}

/** Whether every call of the operation names an organization: its row says which, and no valid body leaves it out. */
const namesItsOrganization = (row: (typeof rows)[number]) => {
  const samples = samplesOf(row)
  return row.operation.organization !== undefined && samples.length > 0 &&
    samples.every((sample) => organizationOf(row.operation, sample) !== undefined)
}

/** A valid body of the operation that names `organizationId`, made from its samples. */
const bodyNaming = (row: (typeof rows)[number], organizationId: string): unknown =>
  samplesOf(row).map((sample) => ({ ...(sample as object), organizationId })).find((body) => {
    try {
      return organizationOf(row.operation, body) === organizationId
    } catch {
      return false
    }
  })

describe("a disabled organization's data, operation by operation", () => {
  it("every operation names its organization, or its domain's list says how it keeps a disabled one out", () => {
    const problems: Array<string> = []
    for (const row of rows) {
      const { domain, list, operation } = row
      const file = `test/${domain}/disabledOrganization.ts`
      const on = (["noOrganizationData", "ruled", "acrossOrganizations"] as const).filter((name) => operation.name in (list[name] ?? {}))
      const names = namesItsOrganization(row)
      if (names && on.length > 0) problems.push(`${operation.name} names its organization on every call (the dispatcher refuses a disabled one): remove it from ${file}`)
      if (on.length > 1) problems.push(`${operation.name} is on more than one list of ${file}: ${on.join(", ")}`)
      if (!names && on.length === 0) {
        problems.push(
          `${operation.name} (${domain}) can be called without naming an organization, and ${file} does not say how it keeps a disabled organization's data out. ` +
            "Either give its row `organization` (required in its input: the dispatcher then refuses a disabled one), or list it in that file: " +
            "under noOrganizationData (it reads and writes no organization's data; say why), ruled (it reaches a disabled organization on purpose; " +
            "the ruling goes in docs/decisions.md, \"Access\"), or acrossOrganizations (a read across organizations: its seed and body; " +
            "its storage must leave a disabled organization's rows out, e.g. with organizations/SqlEnabledOrganizations.ts)"
        )
      }
    }
    for (const [d, domain] of domains.entries()) {
      const list = lists[d]!
      const own = new Set(domain.operations.map((operation: Operation) => operation.name))
      for (const [name, entry] of [...Object.entries(list.noOrganizationData ?? {}), ...Object.entries(list.ruled ?? {})]) {
        if (entry.trim() === "") problems.push(`test/${domain.name}/disabledOrganization.ts lists ${name} without a reason`)
      }
      for (const name of [...Object.keys(list.noOrganizationData ?? {}), ...Object.keys(list.ruled ?? {}), ...Object.keys(list.acrossOrganizations ?? {})]) {
        if (!own.has(name)) problems.push(`test/${domain.name}/disabledOrganization.ts lists ${name}, which is not an operation of the domain ${domain.name}`)
      }
    }
    expect(problems).toEqual([])
    // The reads across organizations the issue names are checked.
    expect(rows.filter((row) => row.list.acrossOrganizations?.[row.operation.name] !== undefined).map((row) => row.operation.name))
      .toEqual(expect.arrayContaining([
        "agents.execution.list",
        "memory.judgments.query",
        "memory.suggest",
        "workspace.advancedwebhook.messages.get",
        "workspace.advancedwebhook.attempts.get"
      ]))
  })
})

forEachBackend("a disabled organization", (ctx) => {
  const setUp = async () => {
    const { client, workspace } = ctx()
    const creds = await workspace()
    const call = async (path: string, data: unknown) => {
      const answer = await client.post(path, data, creds.headers)
      expect(answer.status, `${path}: ${answer.text}`).toBeLessThan(300)
      return answer.body.result
    }
    await call("/v2/organizations/add", { organizations: [{ organizationId: OPEN }, { organizationId: CLOSED }] })
    const disable = async (disabled: boolean) => {
      const result = await call("/v1/organizations/access/disablestate/update", { organizationIds: [CLOSED], disabled })
      expect(result.data[CLOSED].success).toBe(true)
    }
    return { client, creds, call, disable, server: { runDue: () => ctx().atrium.runDue() } }
  }

  it("is refused by every operation whose row names it, on every path", async () => {
    const { client, creds, disable } = await setUp()
    await disable(true)
    const gated = rows.filter((row) => row.operation.organization !== undefined)
    expect(gated.length).toBeGreaterThan(30)
    for (const row of gated) {
      const body = bodyNaming(row, CLOSED)
      expect(body, `${row.operation.name}: no valid body of its samples names the organization; its row's \`organization\` reads something other than organizationId: extend bodyNaming`).toBeDefined()
      const headers = await credentialsFor(row.operation.auth, creds, client)
      for (const path of row.operation.paths) {
        const answer = await client.post(path, body, headers)
        expect({ status: answer.status, error: answer.body.error }, `${path} ${JSON.stringify(body).slice(0, 300)}`)
          .toEqual({ status: 403, error: { status: "PERMISSION_DENIED", message: `Organization ${CLOSED} is disabled.` } })
      }
    }
  })

  it("is left out of every read across organizations, and the other organization's data is not", async () => {
    const across = rows.flatMap((row) => {
      const check = row.list.acrossOrganizations?.[row.operation.name]
      return check === undefined ? [] : [{ operation: row.operation, check }]
    })
    expect(across.length).toBeGreaterThanOrEqual(3)
    for (const { check, operation } of across) {
      const { client, creds, call, disable, server } = await setUp()
      await check.seed(call, OPEN, markOf(OPEN), server)
      await check.seed(call, CLOSED, markOf(CLOSED), server)
      const read = () => client.post(operation.paths[0]!, check.body, creds.headers)
      // While both are enabled, the read shows both: the seeds reach it.
      const both = await read()
      expect(both.status, `${operation.name}: ${both.text}`).toBe(200)
      expect(both.text, operation.name).toContain(markOf(OPEN))
      expect(both.text, operation.name).toContain(markOf(CLOSED))
      await disable(true)
      const open = await read()
      expect(open.status, `${operation.name}: ${open.text}`).toBe(200)
      expect(open.text, operation.name).toContain(markOf(OPEN))
      expect(open.text.includes(CLOSED), `${operation.name} answers the disabled organization's data: ${open.text.slice(0, 500)}`).toBe(false)
      await disable(false)
      expect((await read()).text, operation.name).toContain(markOf(CLOSED))
    }
  })
}, undefined, [postgresOverHttp])
