import type { TestCredentials } from "@atrium/core/testing"
import { describe, expect, it } from "vitest"
import { expectInvalidArgument } from "../../../../test-support/expect.js"
import { forEachBackend } from "../../../../test-support/backends.js"
import { SUGGEST_CANDIDATES_PER_SCOPE } from "../../src/judgments/Judgments.js"

const ADD = "/v2/memory/judgments/add"
const QUERY = "/v2/memory/judgments/query"
const SUGGEST = "/v2/memory/suggest"

const AD = "Ad copy: clinically proven to reduce wrinkles"
const QUESTION = "clinically proven wrinkles"

/** A human rejection of the ad; its words and length match `approval`, so both weigh the same for QUESTION. */
const rejection = (reviewerId: string, extra: Record<string, unknown> = {}) => ({
  content: AD,
  reasoning: "Unsupported medical claim",
  decision: "rejected",
  judgeType: "human",
  reviewerId,
  ...extra
})
const approval = (reviewerId: string, extra: Record<string, unknown> = {}) => ({
  content: AD,
  reasoning: "Backed by cited study",
  decision: "approved",
  judgeType: "human",
  reviewerId,
  ...extra
})

forEachBackend("memory", (ctx) => {
  const add = async (creds: TestCredentials, judgments: Array<Record<string, unknown>>) => {
    const answer = await ctx().client.post(ADD, { judgments }, creds.headers)
    expect(answer.status, answer.text).toBe(200)
    return answer.body.result
  }

  const query = async (creds: TestCredentials, data: Record<string, unknown> = {}) => {
    const answer = await ctx().client.post(QUERY, data, creds.headers)
    expect(answer.status, answer.text).toBe(200)
    return answer.body.result
  }

  const suggest = async (creds: TestCredentials, data: Record<string, unknown>) => {
    const answer = await ctx().client.post(SUGGEST, data, creds.headers)
    expect(answer.status, answer.text).toBe(200)
    return answer.body.result
  }

  const expectInvalid = async (path: string, creds: TestCredentials, data: unknown, field: string) =>
    expectInvalidArgument(await ctx().client.post(path, data, creds.headers), field)

  const disableOrganization = async (creds: TestCredentials, organizationId: string) => {
    await ctx().client.post("/v2/organizations/add", { organizations: [{ organizationId }] }, creds.headers)
    const answer = await ctx().client.post("/v1/organizations/access/disablestate/update", { organizationIds: [organizationId], disabled: true }, creds.headers)
    expect(answer.body.result.data[organizationId].success).toBe(true)
  }

  describe("judgments/add and judgments/query", () => {
    it("records judgments (given or server-made ids) and reads them back with every field", async () => {
      const creds = await ctx().workspace()
      const before = Date.now()
      const added = await add(creds, [
        rejection("u1", { id: "j1", organizationId: "org", documentId: "doc", contentType: "ad_copy", confidence: 0.9, createdAt: 1_700_000_000_000 }),
        { content: "Hero image", reasoning: "Off brand", decision: "disagree", judgeType: "agent", reviewerId: "agent-7" },
        { content: "Footer", reasoning: "", decision: "comment", judgeType: "human" }
      ])
      const after = Date.now()
      const ids = Object.keys(added.data)
      expect(ids).toHaveLength(3)
      expect(ids[0]).toBe("j1")
      expect(ids[1]).toMatch(/^jdg_/)
      expect(added).toEqual({
        status: "success",
        message: "Judgment(s) processed successfully.",
        data: Object.fromEntries(ids.map((id) => [id, { success: true, id, message: "Judgment recorded." }]))
      })

      const all = await query(creds)
      expect(all.total).toBe(3)
      expect(Object.keys(all).sort()).toEqual(["results", "total"])
      const byId = Object.fromEntries(all.results.map((r: { recordId: string }) => [r.recordId, r]))
      expect(byId["j1"]).toEqual({
        recordId: "j1",
        reasoning: "Unsupported medical claim",
        decision: "rejected",
        confidence: 0.9,
        judgeType: "human",
        contentType: "ad_copy",
        actionUser: { userId: "u1" },
        createdAt: 1_700_000_000_000,
        organizationId: "org",
        documentId: "doc",
        agent: null
      })
      expect(byId[ids[1]!]).toEqual({
        recordId: ids[1],
        reasoning: "Off brand",
        decision: "disagree",
        confidence: null,
        judgeType: "agent",
        contentType: null,
        actionUser: null,
        createdAt: expect.any(Number),
        organizationId: null,
        documentId: null,
        agent: { agentId: "agent-7" }
      })
      expect(byId[ids[2]!]).toMatchObject({ actionUser: null, agent: null, decision: "comment" })
      // createdAt defaults to the time of the call.
      for (const id of ids.slice(1)) {
        expect(byId[id].createdAt).toBeGreaterThanOrEqual(before)
        expect(byId[id].createdAt).toBeLessThanOrEqual(after)
      }
      // Newest first.
      expect(all.results.map((r: { recordId: string }) => r.recordId).at(-1)).toBe("j1")
    })

    it("replaces a judgment recorded again under the same id", async () => {
      const creds = await ctx().workspace()
      await add(creds, [rejection("u1", { id: "same" })])
      await add(creds, [approval("u2", { id: "same" })])
      expect(await query(creds)).toEqual({
        results: [expect.objectContaining({ recordId: "same", decision: "approved", actionUser: { userId: "u2" } })],
        total: 1
      })
    })

    it("filters by organization, document, decision, judgeType, contentType and reviewer; orders newest first", async () => {
      const creds = await ctx().workspace()
      await add(creds, [
        rejection("u1", { id: "a", organizationId: "o1", documentId: "d1", contentType: "ad", createdAt: 1 }),
        approval("u2", { id: "b", organizationId: "o1", documentId: "d2", createdAt: 2 }),
        rejection("bot", { id: "c", organizationId: "o2", judgeType: "agent", createdAt: 3 }),
        approval("u1", { id: "d", createdAt: 4 })
      ])
      const ids = async (filters: Record<string, unknown>) => {
        const result = await query(creds, filters)
        expect(result.total).toBe(result.results.length)
        return result.results.map((r: { recordId: string }) => r.recordId)
      }
      expect(await ids({})).toEqual(["d", "c", "b", "a"])
      expect(await ids({ organizationId: "o1" })).toEqual(["b", "a"])
      expect(await ids({ organizationId: "o1", documentId: "d1" })).toEqual(["a"])
      expect(await ids({ documentId: "d2" })).toEqual(["b"])
      expect(await ids({ decision: "approved" })).toEqual(["d", "b"])
      expect(await ids({ judgeType: "agent" })).toEqual(["c"])
      expect(await ids({ contentType: "ad" })).toEqual(["a"])
      expect(await ids({ reviewerId: "u1" })).toEqual(["d", "a"])
      expect(await ids({ reviewerId: "u1", decision: "rejected" })).toEqual(["a"])
      expect(await ids({ organizationId: "none" })).toEqual([])
    })

    it("returns 20 by default and up to limit, with total counting every match", async () => {
      const creds = await ctx().workspace()
      await add(creds, Array.from({ length: 25 }, (_, i) => approval("u", { id: `j${String(i).padStart(2, "0")}`, createdAt: 1000 + i })))
      const byDefault = await query(creds)
      expect(byDefault.results).toHaveLength(20)
      expect(byDefault.total).toBe(25)
      expect(byDefault.results[0].recordId).toBe("j24")
      const one = await query(creds, { limit: 1 })
      expect(one).toEqual({ results: [expect.objectContaining({ recordId: "j24" })], total: 25 })
      expect((await query(creds, { limit: 100 })).results).toHaveLength(25)
      await expectInvalid(QUERY, creds, { limit: 0 }, "data.limit")
      await expectInvalid(QUERY, creds, { limit: 101 }, "data.limit")
      await expectInvalid(QUERY, creds, { decision: "maybe" }, "data.decision")
    })

    it("accepts 100 judgments per call and refuses 0 or 101", async () => {
      const creds = await ctx().workspace()
      const many = (n: number) => Array.from({ length: n }, (_, i) => approval("u", { id: `m${i}` }))
      await expectInvalid(ADD, creds, { judgments: [] }, "data.judgments")
      await expectInvalid(ADD, creds, { judgments: many(101) }, "data.judgments")
      expect((await query(creds)).total).toBe(0)
      expect(Object.keys((await add(creds, many(100))).data)).toHaveLength(100)
      expect((await query(creds)).total).toBe(100)
    })

    it("refuses invalid items as a whole call, writing nothing", async () => {
      const creds = await ctx().workspace()
      const refuse = (judgment: Record<string, unknown>, field: string) =>
        expectInvalid(ADD, creds, { judgments: [approval("u", { id: "ok" }), judgment] }, field)
      await refuse(approval("u", { documentId: "doc" }), "data.judgments[1].documentId")
      await refuse(approval("u", { decision: "maybe" }), "data.judgments[1].decision")
      await refuse(approval("u", { judgeType: "robot" }), "data.judgments[1].judgeType")
      await refuse(approval("u", { confidence: 1.5 }), "data.judgments[1].confidence")
      await refuse(approval("u", { content: "" }), "data.judgments[1].content")
      await refuse(approval("u", { createdAt: -5 }), "data.judgments[1].createdAt")
      await refuse(approval("u", { id: "ok" }), "data.judgments[1].id")
      expect((await query(creds)).total).toBe(0)
    })

    it("fails only the items of a disabled organization; query of it is refused", async () => {
      const creds = await ctx().workspace()
      await disableOrganization(creds, "off")
      const added = await add(creds, [
        approval("u", { id: "in-off", organizationId: "off" }),
        approval("u", { id: "in-on", organizationId: "on" }),
        approval("u", { id: "no-org" })
      ])
      expect(added.data).toEqual({
        "in-off": { success: false, id: "in-off", message: "Organization off is disabled." },
        "in-on": { success: true, id: "in-on", message: "Judgment recorded." },
        "no-org": { success: true, id: "no-org", message: "Judgment recorded." }
      })
      expect((await query(creds)).results.map((r: { recordId: string }) => r.recordId).sort()).toEqual(["in-on", "no-org"])
      const refused = await ctx().client.post(QUERY, { organizationId: "off" }, creds.headers)
      expect(refused.status).toBe(403)
      expect(refused.body.error).toEqual({ status: "PERMISSION_DENIED", message: "Organization off is disabled." })
    })

    it("leaves a disabled organization's judgments out of query without organizationId, and does not replace them by id", async () => {
      const creds = await ctx().workspace()
      await add(creds, [approval("u", { id: "in-off", organizationId: "off" }), approval("u", { id: "in-on", organizationId: "on" })])
      await disableOrganization(creds, "off")
      expect(await query(creds)).toMatchObject({ results: [{ recordId: "in-on" }], total: 1 })
      const replaced = await add(creds, [approval("u", { id: "in-off" })])
      expect(replaced.data["in-off"]).toEqual({ success: false, id: "in-off", message: "Organization off is disabled." })
      const moved = await add(creds, [approval("u", { id: "in-off", organizationId: "on" })])
      expect(moved.data["in-off"]).toEqual({ success: false, id: "in-off", message: "Organization off is disabled." })
      await ctx().client.post("/v1/organizations/access/disablestate/update", { organizationIds: ["off"], disabled: false }, creds.headers)
      expect((await query(creds, { organizationId: "off" })).results).toEqual([expect.objectContaining({ recordId: "in-off", organizationId: "off" })])
    })

    it("never shows another API key's judgments", async () => {
      const { workspace } = ctx()
      const a = await workspace()
      const b = await workspace()
      await add(a, [rejection("u", { id: "shared", organizationId: "org" })])
      await add(b, [approval("u", { id: "shared", organizationId: "org" })])
      expect((await query(a)).results).toEqual([expect.objectContaining({ recordId: "shared", decision: "rejected" })])
      expect((await query(b, { organizationId: "org" })).results).toEqual([expect.objectContaining({ recordId: "shared", decision: "approved" })])
      expect(await query(await workspace())).toEqual({ results: [], total: 0 })
    })
  })

  describe("suggest", () => {
    it("answers null/null without precedent, without status or message", async () => {
      const creds = await ctx().workspace()
      const answer = await ctx().client.post(SUGGEST, { query: QUESTION }, creds.headers)
      expect(answer.status).toBe(200)
      expect(answer.body).toEqual({ result: { primary: null, conflict: null } })
      // One supporting record is not enough (at least 2).
      await add(creds, [rejection("u1")])
      expect(await suggest(creds, { query: QUESTION })).toEqual({ primary: null, conflict: null })
    })

    it("computes primary and conflict from the recorded judgments", async () => {
      const creds = await ctx().workspace()
      await add(creds, [
        rejection("r1"),
        rejection("r2", { decision: "disagree" }),
        rejection("r3", { decision: "document_rejected" }),
        approval("a1"),
        approval("a2", { decision: "endorse" }),
        // Votes for neither side, and does not match the question.
        { content: AD, reasoning: "Needs legal review", decision: "comment", judgeType: "human", reviewerId: "c1" },
        { content: "Logo colour is too bright", reasoning: "Brand palette mismatch", decision: "approved", judgeType: "human" }
      ])
      expect(await suggest(creds, { query: QUESTION })).toEqual({
        primary: {
          recommendation: "reject",
          confidence: 0.5, // 3 of 5 equal weights, shrunk by 5/6
          basedOn: 5,
          scope: "apiKey",
          scopeLabel: "All content",
          topReasons: ["Unsupported medical claim"],
          uniqueReviewers: 3,
          caveats: ["Conflicting precedent: 2 judgments recommend approve"]
        },
        conflict: {
          recommendation: "approve",
          confidence: 0.33,
          basedOn: 5,
          scope: "apiKey",
          scopeLabel: "All content",
          topReasons: ["Backed by cited study"],
          uniqueReviewers: 2,
          caveats: ["Minority view: 2 of 5 matching judgments recommend approve"]
        }
      })
    })

    it("narrows to the organization, then the document, when they hold enough precedent", async () => {
      const creds = await ctx().workspace()
      await add(creds, [
        approval("k1"), approval("k2"), approval("k3"),
        rejection("o1", { organizationId: "org" }), rejection("o2", { organizationId: "org" }),
        approval("d1", { organizationId: "org", documentId: "doc" }), approval("d2", { organizationId: "org", documentId: "doc" })
      ])
      const org = await suggest(creds, { query: QUESTION, organizationId: "org" })
      expect(org.primary).toMatchObject({ scope: "organization", scopeLabel: "This organization", basedOn: 4 })
      const doc = await suggest(creds, { query: QUESTION, organizationId: "org", documentId: "doc" })
      expect(doc.primary).toMatchObject({
        recommendation: "approve",
        scope: "document",
        scopeLabel: "This document",
        basedOn: 2,
        confidence: 0.67,
        uniqueReviewers: 2,
        caveats: ["Limited precedent: based on 2 judgments"]
      })
      expect(doc.conflict).toBeNull()
      // An organization with too little precedent widens to the whole key.
      const other = await suggest(creds, { query: QUESTION, organizationId: "elsewhere" })
      expect(other.primary).toMatchObject({ recommendation: "approve", scope: "apiKey", basedOn: 7 })
    })

    it(`weighs only the newest ${SUGGEST_CANDIDATES_PER_SCOPE} judgments of a scope, so one call's work is bounded`, async () => {
      const creds = await ctx().workspace()
      await add(creds, ["r1", "r2", "r3"].map((reviewerId, i) => rejection(reviewerId, { createdAt: 1_000 + i })))
      const newer = (count: number, from: number) =>
        Array.from({ length: count }, (_, i) => ({ content: "Logo colour is too bright", reasoning: "Brand palette", decision: "approved", judgeType: "human", createdAt: from + i }))
      // One short of the bound: the three old rejections are still among the candidates.
      for (let done = 0; done < SUGGEST_CANDIDATES_PER_SCOPE - 3; done += 100) {
        await add(creds, newer(Math.min(100, SUGGEST_CANDIDATES_PER_SCOPE - 3 - done), 10_000 + done))
      }
      expect((await suggest(creds, { query: QUESTION })).primary).toMatchObject({ recommendation: "reject", basedOn: 3 })
      // Three newer judgments push them out.
      await add(creds, newer(3, 100_000))
      expect(await suggest(creds, { query: QUESTION })).toEqual({ primary: null, conflict: null })
    })

    it("never counts another API key's judgments", async () => {
      const { workspace } = ctx()
      const a = await workspace()
      const b = await workspace()
      await add(a, [rejection("r1"), rejection("r2")])
      await add(b, [approval("x1"), approval("x2"), approval("x3"), approval("x4"), approval("x5")])
      const forA = await suggest(a, { query: QUESTION })
      expect(forA.primary).toMatchObject({ recommendation: "reject", basedOn: 2, uniqueReviewers: 2, topReasons: ["Unsupported medical claim"] })
      expect(forA.conflict).toBeNull()
      expect((await suggest(b, { query: QUESTION })).primary).toMatchObject({ recommendation: "approve", basedOn: 5 })
      expect(await suggest(await workspace(), { query: QUESTION })).toEqual({ primary: null, conflict: null })
    })

    it("refuses an empty or blank query, a missing query, and documentId without organizationId", async () => {
      const creds = await ctx().workspace()
      await expectInvalid(SUGGEST, creds, { query: "" }, "data.query")
      await expectInvalid(SUGGEST, creds, { query: "   " }, "data.query")
      await expectInvalid(SUGGEST, creds, {}, "data.query")
      // Spec: documentId "requires organizationId" (the spec stands over the hosted service, which ignores it: docs/decisions.md).
      await expectInvalid(SUGGEST, creds, { query: QUESTION, documentId: "doc" }, "data.documentId")
      expect((await suggest(creds, { query: "x".repeat(10_000) })).primary).toBeNull()
      await expectInvalid(SUGGEST, creds, { query: "x".repeat(10_001) }, "data.query")
    })

    it("is refused for a disabled organization", async () => {
      const creds = await ctx().workspace()
      await disableOrganization(creds, "off")
      const refused = await ctx().client.post(SUGGEST, { query: QUESTION, organizationId: "off" }, creds.headers)
      expect(refused.status).toBe(403)
      expect(refused.body.error).toEqual({ status: "PERMISSION_DENIED", message: "Organization off is disabled." })
      expect((await suggest(creds, { query: QUESTION })).primary).toBeNull()
    })
  })
})
