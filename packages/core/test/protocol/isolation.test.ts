/**
 * Isolation between API keys, for every operation on every storage. Key A stores data of every
 * kind under ids anyone might guess (org1, doc1, u1, t1, …), with a marker in every text, and
 * keeps its page tokens, iterators, cursors, job ids, endpoint and message ids. Key B then calls
 * every operation with bodies derived from its input schema and aimed at A: every id-like field
 * set to A's. No answer to B may carry A's marker or secret, and A's own reads answer exactly as
 * before. Each domain declares its data, ids, tokens and reads in `test/<domain>/isolation.ts`, loaded
 * for every descriptor of src/domains.ts: a domain without them fails the suite.
 */
import { expect, it } from "vitest"
import { forEachBackend, postgresOverHttp } from "../../../../test-support/backends.js"
import { domains } from "../../src/domains.js"
import { operations } from "../../src/operations.js"
import { credentialsFor } from "../../src/testing/Harness.js"
import { aimAt, domainIsolations } from "./DomainIsolation.js"
import { schemaSamples } from "./schemaSamples.js"

const MARK = "ISOLATED-A-7d1e"
const SAMPLES = 6

forEachBackend("isolation between API keys", (ctx) => {
  it("key B, aiming every operation at key A's ids, tokens and jobs, never sees or changes A's data", async () => {
    const { client, workspace } = ctx()
    const a = await workspace()
    const b = await workspace()
    const asA = async (path: string, data: unknown) => {
      const answer = await client.post(path, data, a.headers)
      expect(answer.status, `${path}: ${answer.text}`).toBeLessThan(300)
      return answer.body.result
    }

    // A's data, every text marked: each domain's seed (test/<domain>/isolation.ts), in the domains' order.
    const kept: Record<string, unknown> = {}
    const aimedList: Record<string, ReadonlyArray<unknown>> = {}
    const pageTokens: Array<string> = []
    const secrets: Array<string> = []
    const reads: Array<readonly [string, unknown]> = []
    const seeds = await domainIsolations()
    for (const [index, domain] of domains.entries()) {
      const seeded = await seeds[index]!.seed({ call: asA, mark: MARK, apiKey: a.apiKey, workspaceId: a.workspaceId, kept })
      Object.assign(kept, seeded.aimed)
      Object.assign(aimedList, seeded.aimedList)
      pageTokens.push(...seeded.pageTokens ?? [])
      secrets.push(...seeded.secrets ?? [])
      // A's tokens of every kind: a page of one where there are two.
      for (const [name, token] of Object.entries(seeded.tokens ?? {})) expect(token, `${domain.name}: ${name}`).toEqual(expect.any(String))
    }
    // A's view of its data, read the same way before and after B (tokens left out: they are new each time).
    for (const domainSeeds of seeds) reads.push(...domainSeeds.reads(kept))
    const snapshot = async (headers = a.headers) => {
      const out: Array<string> = []
      for (const [path, data] of reads) {
        const answer = await client.post(path, data, headers)
        out.push(`${path} ${answer.status} ${JSON.stringify(answer.body, (key, value) =>
          ["pageToken", "nextPageToken", "iterator", "prevIterator", "nextCursor"].includes(key) ? "<token>" : value)}`)
      }
      return out
    }
    const before = await snapshot()
    expect(before.join("\n")).toContain(MARK)

    // B aims every operation at A: every id-like field of a body derived from its schema becomes A's.
    const aim = aimAt(kept, aimedList)
    let calls = 0
    let carriedOut = 0
    for (const [index, operation] of operations.entries()) {
      const samples = schemaSamples(operation.input, SAMPLES, 7 + index)
      const bodies = [...samples.map(aim), ...pageTokens.map((pageToken) => ({ organizationId: "org1", pageToken })), kept]
      const headers = await credentialsFor(operation.auth, b, client)
      for (const data of bodies) {
        const answer = await client.post(operation.paths[0]!, data, headers)
        calls++
        if (answer.status < 300) carriedOut++
        const where = `${operation.name} ${JSON.stringify(data).slice(0, 200)}: ${answer.text.slice(0, 300)}`
        expect(answer.text.includes(MARK), where).toBe(false)
        for (const secret of secrets) expect(answer.text.includes(secret), where).toBe(false)
      }
    }
    expect(calls).toBeGreaterThan(operations.length * 4)
    // Aimed bodies reach the operations: many are carried out (on B's own records of those ids).
    expect(carriedOut).toBeGreaterThan(calls / 5)
    expect(await snapshot()).toEqual(before)
    // Nor did any of A's data end up in B's records (a write that merged in A's row would show here).
    expect((await snapshot(b.headers)).join("\n")).not.toContain(MARK)
  }, 120_000)
}, undefined, [postgresOverHttp])
