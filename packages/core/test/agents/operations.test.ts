import { Agents } from "@atrium/core"
import type { TestCredentials } from "@atrium/core/testing"
import { describe, expect, it } from "vitest"
import { expectInvalidArgument } from "../../../../test-support/expect.js"
import { forEachBackend } from "../../../../test-support/backends.js"

const RECORD = "/v2/agents/execution/record"
const LIST = "/v2/agents/execution/list"

/** The passed execution the hosted service documents (docs/compatibility.md, "Agents"). */
const passed = {
  id: "exec_1711900000000_abc123def456",
  agentId: "abc123def456",
  agentName: "Brand Consistency Checker",
  agentVersion: 3,
  status: "passed",
  message: "Found 7 issues across 12 pages. 5 annotations created.",
  startedAt: 1711900000000,
  completedAt: 1711900150000
}

const running = {
  agentId: "abc123def456",
  agentName: "Brand Consistency Checker",
  agentVersion: 3,
  status: "running",
  message: "Execution in progress",
  startedAt: 1711900000000
}

forEachBackend("agents/execution", (ctx) => {
  const record = async (creds: TestCredentials, data: Record<string, unknown>) => {
    const answer = await ctx().client.post(RECORD, data, creds.headers)
    expect(answer.status, answer.text).toBe(200)
    return answer.body.result.data
  }

  const list = async (creds: TestCredentials, data: Record<string, unknown> = {}) => {
    const answer = await ctx().client.post(LIST, data, creds.headers)
    expect(answer.status, answer.text).toBe(200)
    return answer.body.result
  }

  const expectInvalid = async (path: string, creds: TestCredentials, data: unknown, field: string) =>
    expectInvalidArgument(await ctx().client.post(path, data, creds.headers), field)

  /** Follows nextCursor to the end; checks every page's shape. */
  const listAll = async (creds: TestCredentials, data: Record<string, unknown>) => {
    const pages: Array<Array<string>> = []
    let cursor: string | undefined
    do {
      const page = await list(creds, { ...data, ...(cursor !== undefined && { cursor }) })
      expect(Object.keys(page).sort()).toEqual(["hasMore", "items", "nextCursor"])
      pages.push(page.items.map((e: { id: string }) => e.id))
      expect(page.hasMore).toBe(page.nextCursor !== null)
      cursor = page.nextCursor ?? undefined
    } while (cursor !== undefined)
    return pages
  }

  describe("execution/record", () => {
    it("records a finished execution and returns it with durationMs", async () => {
      const creds = await ctx().workspace()
      const answer = await ctx().client.post(RECORD, passed, creds.headers)
      expect(answer.status).toBe(200)
      expect(answer.body).toEqual({
        result: {
          status: "success",
          message: "Agent execution recorded successfully.",
          data: { ...passed, durationMs: 150000, trigger: "standalone" }
        }
      })
    })

    it("records a running execution with null completedAt and durationMs, and a server-made id", async () => {
      const creds = await ctx().workspace()
      const data = await record(creds, running)
      expect(data).toEqual({ ...running, id: expect.stringMatching(/^exec_/), completedAt: null, durationMs: null, trigger: "standalone" })
      expect((await list(creds)).items).toEqual([data])
    })

    it("upserts by id: the finished record replaces the running one", async () => {
      const creds = await ctx().workspace()
      await record(creds, { ...running, id: "e1", organizationId: "org", documentId: "doc", trigger: "workflow" })
      const done = await record(creds, { ...running, id: "e1", status: "failed", message: "2 findings", completedAt: running.startedAt + 5 })
      expect(done).toEqual({
        ...running,
        id: "e1",
        status: "failed",
        message: "2 findings",
        completedAt: running.startedAt + 5,
        durationMs: 5,
        trigger: "standalone"
      })
      expect((await list(creds)).items).toEqual([done])
    })

    it("keeps organizationId, documentId and trigger when given", async () => {
      const creds = await ctx().workspace()
      const data = await record(creds, { ...passed, organizationId: "org", documentId: "doc", trigger: "workflow" })
      expect(data).toEqual({ ...passed, durationMs: 150000, trigger: "workflow", organizationId: "org", documentId: "doc" })
      expect((await list(creds, { documentId: "doc" })).items).toEqual([data])
    })

    it("accepts completedAt equal to startedAt (durationMs 0) and agentVersion 0", async () => {
      const creds = await ctx().workspace()
      const data = await record(creds, { ...passed, agentVersion: 0, completedAt: passed.startedAt, status: "skipped" })
      expect(data).toMatchObject({ agentVersion: 0, durationMs: 0, status: "skipped" })
    })

    it("refuses completedAt while running, its absence when finished, and a completedAt before startedAt", async () => {
      const creds = await ctx().workspace()
      await expectInvalid(RECORD, creds, { ...running, completedAt: running.startedAt + 1 }, "data.completedAt")
      for (const status of ["passed", "failed", "error", "skipped"]) {
        const { completedAt: _, ...unfinished } = passed
        await expectInvalid(RECORD, creds, { ...unfinished, status }, "data.completedAt")
      }
      await expectInvalid(RECORD, creds, { ...passed, completedAt: passed.startedAt - 1 }, "data.completedAt")
      expect((await list(creds)).items).toEqual([])
    })

    it("refuses bad fields: status, agentVersion, startedAt, missing agentId, unknown keys", async () => {
      const creds = await ctx().workspace()
      await expectInvalid(RECORD, creds, { ...passed, status: "partial" }, "data.status")
      await expectInvalid(RECORD, creds, { ...passed, agentVersion: -1 }, "data.agentVersion")
      await expectInvalid(RECORD, creds, { ...passed, agentVersion: 1.5 }, "data.agentVersion")
      await expectInvalid(RECORD, creds, { ...passed, startedAt: "yesterday" }, "data.startedAt")
      const { agentId: _, ...noAgent } = passed
      await expectInvalid(RECORD, creds, noAgent, "data.agentId")
      await expectInvalid(RECORD, creds, { ...passed, id: "" }, "data.id")
      await expectInvalid(RECORD, creds, { ...passed, owner: "me" }, "data.owner")
    })

    it("is the same through the Agents service, for host apps", async () => {
      const { atrium, workspace } = ctx()
      const creds = await workspace()
      const stored = await atrium.runtime.runPromise(Agents.record(creds.apiKey, { ...passed, status: "passed" }))
      expect(stored).toEqual({ ...passed, durationMs: 150000, trigger: "standalone" })
      expect((await list(creds)).items).toEqual([stored])
    })
  })

  describe("execution/list", () => {
    it("answers an empty list without status, message or data", async () => {
      const creds = await ctx().workspace()
      const answer = await ctx().client.post(LIST, {}, creds.headers)
      expect(answer.body).toEqual({ result: { items: [], nextCursor: null, hasMore: false } })
    })

    // Start times with ties: the keyset (startedAt, id) must neither repeat nor skip across pages.
    const ties = [["a", 1000], ["b", 1000], ["c", 1000], ["d", 2000], ["e", 2000], ["f", 3000], ["g", 1000]] as const
    const addTies = async (creds: TestCredentials) => {
      for (const [id, startedAt] of ties) await record(creds, { ...running, id, startedAt })
    }

    it("pages newest first by default, ties by id, with pageSize and cursor", async () => {
      const creds = await ctx().workspace()
      await addTies(creds)
      expect(await listAll(creds, { pageSize: 3 })).toEqual([["f", "e", "d"], ["g", "c", "b"], ["a"]])
      expect(await listAll(creds, { pageSize: 3, orderDirection: "desc" })).toEqual([["f", "e", "d"], ["g", "c", "b"], ["a"]])
      expect(await listAll(creds, { pageSize: 2 })).toEqual([["f", "e"], ["d", "g"], ["c", "b"], ["a"]])
    })

    it("pages oldest first with orderDirection asc", async () => {
      const creds = await ctx().workspace()
      await addTies(creds)
      expect(await listAll(creds, { pageSize: 3, orderDirection: "asc" })).toEqual([["a", "b", "c"], ["g", "d", "e"], ["f"]])
      // An exact multiple: the last full page says there is nothing more.
      expect(await listAll(creds, { pageSize: 7, orderDirection: "asc" })).toEqual([["a", "b", "c", "g", "d", "e", "f"]])
    })

    it("defaults to 50 per page", async () => {
      const creds = await ctx().workspace()
      for (let i = 0; i < 51; i++) await record(creds, { ...running, id: `x${String(i).padStart(2, "0")}`, startedAt: 1000 + i })
      const first = await list(creds)
      expect(first.items).toHaveLength(50)
      expect(first.items[0].id).toBe("x50")
      expect(first.hasMore).toBe(true)
      const second = await list(creds, { cursor: first.nextCursor })
      expect(second).toEqual({ items: [expect.objectContaining({ id: "x00" })], nextCursor: null, hasMore: false })
    })

    it("filters by agentId, organizationId, documentId and status, and pages within the filter", async () => {
      const creds = await ctx().workspace()
      await record(creds, { ...running, id: "r1", agentId: "A", organizationId: "o1", documentId: "d1", startedAt: 1 })
      await record(creds, { ...running, id: "r2", agentId: "A", organizationId: "o1", documentId: "d2", startedAt: 2 })
      await record(creds, { ...passed, id: "p1", agentId: "B", organizationId: "o2", documentId: "d1", startedAt: 3, completedAt: 4 })
      await record(creds, { ...passed, id: "p2", agentId: "A", startedAt: 5, completedAt: 6 })
      const ids = async (filters: Record<string, unknown>) => (await listAll(creds, filters)).flat()
      expect(await ids({ agentId: "A" })).toEqual(["p2", "r2", "r1"])
      expect(await ids({ organizationId: "o1" })).toEqual(["r2", "r1"])
      expect(await ids({ documentId: "d1" })).toEqual(["p1", "r1"])
      expect(await ids({ status: "running" })).toEqual(["r2", "r1"])
      expect(await ids({ status: "passed", agentId: "A" })).toEqual(["p2"])
      expect(await ids({ agentId: "A", pageSize: 1, orderDirection: "asc" })).toEqual(["r1", "r2", "p2"])
      expect(await ids({ agentId: "nobody" })).toEqual([])
    })

    it("accepts pageSize 1 and 500, refuses 0, 501 and non-integers", async () => {
      const creds = await ctx().workspace()
      await record(creds, { ...running, id: "one", startedAt: 1 })
      await record(creds, { ...running, id: "two", startedAt: 2 })
      const one = await list(creds, { pageSize: 1 })
      expect(one.items.map((e: { id: string }) => e.id)).toEqual(["two"])
      expect(one.hasMore).toBe(true)
      expect(one.nextCursor).toEqual(expect.any(String))
      const max = await list(creds, { pageSize: 500 })
      expect(max).toEqual({ items: [expect.objectContaining({ id: "two" }), expect.objectContaining({ id: "one" })], nextCursor: null, hasMore: false })
      await expectInvalid(LIST, creds, { pageSize: 0 }, "data.pageSize")
      await expectInvalid(LIST, creds, { pageSize: 501 }, "data.pageSize")
      await expectInvalid(LIST, creds, { pageSize: 2.5 }, "data.pageSize")
      await expectInvalid(LIST, creds, { orderDirection: "up" }, "data.orderDirection")
      await expectInvalid(LIST, creds, { status: "partial" }, "data.status")
    })

    it("refuses a tampered cursor, and a cursor made for other filters, another order or another key", async () => {
      const { workspace } = ctx()
      const creds = await workspace()
      const other = await workspace()
      await addTies(creds)
      const { nextCursor } = await list(creds, { pageSize: 2, agentId: running.agentId })
      const flipped = nextCursor.slice(0, 10) + (nextCursor[10] === "A" ? "B" : "A") + nextCursor.slice(11)
      const refused = [
        [creds, { agentId: running.agentId, cursor: flipped }],
        [creds, { agentId: running.agentId, cursor: nextCursor + "A" }],
        [creds, { agentId: running.agentId, cursor: "eyJvZmZzZXQiOjUwfQ==" }],
        [creds, { agentId: "other", cursor: nextCursor }],
        [creds, { cursor: nextCursor }],
        [creds, { agentId: running.agentId, orderDirection: "asc", cursor: nextCursor }],
        [other, { agentId: running.agentId, cursor: nextCursor }]
      ] as const
      for (const [who, data] of refused) {
        const answer = await ctx().client.post(LIST, data, who.headers)
        expect(answer.status).toBe(400)
        expect(answer.body.error.status).toBe("INVALID_ARGUMENT")
        expect(answer.body.error.message).toContain("cursor")
      }
      // The untouched cursor still works, with any page size.
      expect((await list(creds, { agentId: running.agentId, pageSize: 1, cursor: nextCursor })).items.map((e: { id: string }) => e.id)).toEqual(["d"])
    })

    it("never shows or overwrites another API key's executions", async () => {
      const { workspace } = ctx()
      const a = await workspace()
      const b = await workspace()
      await record(a, { ...running, id: "shared-id" })
      await record(b, { ...passed, id: "shared-id", agentName: "Other" })
      expect((await list(a)).items).toEqual([expect.objectContaining({ id: "shared-id", status: "running", agentName: running.agentName })])
      expect((await list(b)).items).toEqual([expect.objectContaining({ id: "shared-id", status: "passed", agentName: "Other" })])
      const c = await workspace()
      expect(await list(c, { agentId: running.agentId })).toEqual({ items: [], nextCursor: null, hasMore: false })
    })

    it("refuses record and list for a disabled organization; list without organizationId leaves its executions out", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      await record(creds, { ...running, id: "in-org", organizationId: "org" })
      await client.post("/v2/organizations/add", { organizations: [{ organizationId: "org" }] }, creds.headers)
      const disable = (disabled: boolean) =>
        client.post("/v1/organizations/access/disablestate/update", { organizationIds: ["org"], disabled }, creds.headers)
      expect((await disable(true)).body.result.data.org.success).toBe(true)

      const refusedRecord = await client.post(RECORD, { ...running, id: "in-org", organizationId: "org", message: "changed" }, creds.headers)
      expect(refusedRecord.status).toBe(403)
      expect(refusedRecord.body.error).toEqual({ status: "PERMISSION_DENIED", message: "Organization org is disabled." })
      const refusedList = await client.post(LIST, { organizationId: "org" }, creds.headers)
      expect(refusedList.status).toBe(403)
      expect(refusedList.body.error.status).toBe("PERMISSION_DENIED")
      // docs/decisions.md, "Access": a list across organizations leaves a disabled one's rows out.
      expect((await list(creds)).items).toEqual([])
      // Nor is its execution replaced by a call naming another organization, or none.
      for (const elsewhere of [{}, { organizationId: "other" }]) {
        const replaced = await client.post(RECORD, { ...running, id: "in-org", message: "changed", ...elsewhere }, creds.headers)
        expect(replaced.body.error).toEqual({ status: "PERMISSION_DENIED", message: "Organization org is disabled." })
      }

      await disable(false)
      expect((await list(creds, { organizationId: "org" })).items).toHaveLength(1)
      expect((await list(creds)).items).toEqual([expect.objectContaining({ id: "in-org", message: running.message })])
    })
  })
})
