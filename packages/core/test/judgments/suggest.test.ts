import { describe, expect, it } from "vitest"
import { createIndex, scoreAll, tokenize } from "../../src/judgments/Bm25.js"
import { type Judgment, type SuggestInput, suggest, voteOf } from "../../src/judgments/Suggest.js"

const DAY = 24 * 60 * 60 * 1000
// A fixed clock: the engine must only use the `now` it is given.
const NOW = Date.UTC(2025, 5, 1)

const MEDICAL = {
  content: "Ad makes a medical claim that the supplement cures migraines",
  reasoning: "Unsubstantiated medical claim"
}
const FONT = {
  content: "Footer font size is too small to read on mobile",
  reasoning: "Font size below the brand minimum"
}

let seq = 0
const judgment = (overrides: Partial<Judgment> = {}): Judgment => ({
  id: `j${++seq}`,
  organizationId: null,
  documentId: null,
  ...MEDICAL,
  decision: "rejected",
  judgeType: "human",
  reviewerId: null,
  createdAt: NOW - DAY,
  ...overrides
})
const many = (n: number, overrides: Partial<Judgment> = {}): Judgment[] =>
  Array.from({ length: n }, () => judgment(overrides))

const run = (judgments: ReadonlyArray<Judgment>, extra: Partial<SuggestInput> = {}) =>
  suggest({ query: "medical claim", judgments, now: NOW, ...extra })

describe("Bm25", () => {
  it("tokenizes: lowercase, Unicode letters/digits, no stopwords, plural stemming", () => {
    expect(tokenize("The Claims are about Policies, v2!")).toEqual(["claim", "policy", "v2"])
    expect(tokenize("Réclamation MÉDICALE — 医療広告 Медицинское")).toEqual(["réclamation", "médicale", "医療広告", "медицинское"])
    expect(tokenize("  ... ")).toEqual([])
  })

  it("scores documents sharing query terms above 0 and others at 0", () => {
    const scores = scoreAll("medical claim", [MEDICAL.content, FONT.content, "A warranty claim"])
    expect(scores[0]).toBeGreaterThan(scores[2]!)
    expect(scores[2]).toBeGreaterThan(0)
    expect(scores[1]).toBe(0)
  })

  it("weighs rare terms above common ones and handles empty input", () => {
    const docs = ["claim medical", "claim form", "claim window", "claim policy"]
    const [both, common] = createIndex(docs).score("medical claim")
    expect(both).toBeGreaterThan(2 * common!)
    expect(scoreAll("medical", [])).toEqual([])
    expect(scoreAll("the of and", docs)).toEqual([0, 0, 0, 0])
    expect(scoreAll("medical", ["", ""])).toEqual([0, 0])
  })
})

describe("suggest: matching and votes", () => {
  const mixed = [...many(3, { decision: "rejected" }), ...many(3, { ...FONT, decision: "approved" })]

  it("matches relevant judgments only", () => {
    const medical = run(mixed)
    expect(medical.primary).toMatchObject({ recommendation: "reject", basedOn: 3 })
    expect(medical.conflict).toBeNull()

    const font = suggest({ query: "font size", judgments: mixed, now: NOW })
    expect(font.primary).toMatchObject({ recommendation: "approve", basedOn: 3 })
  })

  it("returns nothing when no judgment matches", () => {
    expect(suggest({ query: "banana smoothie recipe", judgments: mixed, now: NOW })).toEqual({ primary: null, conflict: null })
    expect(suggest({ query: "the and of", judgments: mixed, now: NOW })).toEqual({ primary: null, conflict: null })
    expect(run([])).toEqual({ primary: null, conflict: null })
  })

  it("drops judgments below 25% of the best score", () => {
    const strong = { content: "Medical claim: supplement cures migraine", reasoning: "Unproven medical claim about a migraine supplement" }
    const weak = {
      content: "Warranty claim form for the blender; customers file online with a receipt photo and their order number",
      reasoning: "Standard warranty process wording for kitchen appliances and accessories"
    }
    const judgments = [...many(2, strong), ...many(2, { ...weak, decision: "approved" }), ...many(3, FONT)]
    const query = "medical claim supplement migraine"
    const scores = scoreAll(query, judgments.map((j) => `${j.content} ${j.reasoning}`))
    expect(scores[2]).toBeGreaterThan(0) // the weak ones do share "claim"…
    expect(scores[2]! / scores[0]!).toBeLessThan(0.25) // …but far less than the best

    const result = suggest({ query, judgments, now: NOW })
    expect(result.primary).toMatchObject({ recommendation: "reject", basedOn: 2 })
    expect(result.conflict).toBeNull()
  })

  it("counts only voting decisions", () => {
    expect(["approved", "agree", "endorse", "document_approved"].map(voteOf)).toEqual(["approve", "approve", "approve", "approve"])
    expect(["rejected", "disagree", "document_rejected"].map(voteOf)).toEqual(["reject", "reject", "reject"])
    expect(["comment", "resolve", "in_progress", "approve", "pending"].map(voteOf)).toEqual([null, null, null, null, null])

    const nonVoting = ["comment", "resolve", "in_progress", "pending"].map((decision) => judgment({ decision }))
    const result = run([...many(2, { decision: "disagree" }), judgment({ decision: "endorse" }), ...nonVoting])
    expect(result.primary).toMatchObject({ recommendation: "reject", basedOn: 3 })
  })

  it("gives no primary with only 1 supporting record, however many non-votes", () => {
    const nonVoting = many(5, { decision: "comment" })
    expect(run([judgment(), ...nonVoting]).primary).toBeNull()
    expect(run([judgment(), judgment({ decision: "approved" })])).toEqual({ primary: null, conflict: null })
    expect(run([judgment(), judgment()]).primary).not.toBeNull()
  })

  it("works on Unicode text", () => {
    const judgments = [
      ...many(2, { content: "Реклама содержит медицинское заявление о лечении", reasoning: "Недоказанное медицинское заявление" }),
      ...many(2, { content: "Размер шрифта слишком мал", reasoning: "Шрифт меньше минимума", decision: "approved" })
    ]
    const result = suggest({ query: "Медицинское заявление", judgments, now: NOW })
    expect(result.primary).toMatchObject({ recommendation: "reject", basedOn: 2 })
    expect(suggest({ query: "шрифта", judgments, now: NOW }).primary).toMatchObject({ recommendation: "approve" })
  })
})

describe("suggest: leading side and conflict", () => {
  it("reports a conflict only when both sides have at least 2 records", () => {
    const oneAgainst = run([...many(3), judgment({ decision: "approved" })])
    expect(oneAgainst.conflict).toBeNull()
    expect(oneAgainst.primary!.caveats.some((c) => c.startsWith("Conflicting"))).toBe(false)

    const twoAgainst = run([...many(3), ...many(2, { decision: "agree" })])
    expect(twoAgainst.primary).toMatchObject({ recommendation: "reject", basedOn: 5 })
    expect(twoAgainst.primary!.caveats).toContain("Conflicting precedent: 2 judgments recommend approve")
    expect(twoAgainst.conflict).toMatchObject({ recommendation: "approve", basedOn: 5, scope: "apiKey", scopeLabel: "All content" })
    expect(twoAgainst.conflict!.caveats).toEqual(["Minority view: 2 of 5 matching judgments recommend approve"])
  })

  it("picks the leading side by relevance weight, not head count", () => {
    const relevant = { content: "Medical claim about a cure", reasoning: "A medical claim" }
    // Both terms, but diluted by a long text: matches, with a lower weight.
    const loose = { content: "A claim about medical devices in the newsletter copy", reasoning: "Routine wording about shipping times" }
    const judgments = [...many(2, { ...relevant, decision: "approved" }), ...many(3, loose), ...many(3, FONT)]
    const scores = scoreAll("medical claim", judgments.map((j) => `${j.content} ${j.reasoning}`))
    expect(scores[2]! / scores[0]!).toBeGreaterThanOrEqual(0.25) // the rejects still match
    expect(2 * scores[0]!).toBeGreaterThan(3 * scores[2]!)

    const result = run(judgments)
    expect(result.primary).toMatchObject({ recommendation: "approve", basedOn: 5 })
    expect(result.conflict).toMatchObject({ recommendation: "reject" })
    expect(result.conflict!.caveats).toEqual(["Minority view: 3 of 5 matching judgments recommend reject"])
  })

  it("breaks an exact tie with the most recent record", () => {
    const approvals = many(2, { decision: "approved", createdAt: NOW - 10 * DAY })
    expect(run([...approvals, judgment({ createdAt: NOW - 20 * DAY }), judgment({ createdAt: NOW - 2 * DAY })]).primary!.recommendation).toBe("reject")
    expect(run([...approvals, ...many(2, { createdAt: NOW - 20 * DAY })]).primary!.recommendation).toBe("approve")
  })

  it("keeps confidence in [0, 1], higher for unanimous than split evidence, growing with evidence", () => {
    const unanimous = run(many(3)).primary!
    const split = run([...many(3), ...many(2, { decision: "approved" })])
    expect(unanimous.confidence).toBe(0.75) // share 1 × 3/4
    expect(split.primary!.confidence).toBe(0.5) // share 3/5 × 5/6
    expect(split.conflict!.confidence).toBe(0.33) // share 2/5 × 5/6
    expect(unanimous.confidence).toBeGreaterThan(split.primary!.confidence)
    expect(run(many(9)).primary!.confidence).toBe(0.9)
    for (const c of [unanimous.confidence, split.primary!.confidence, split.conflict!.confidence, run(many(200)).primary!.confidence]) {
      expect(c).toBeGreaterThanOrEqual(0)
      expect(c).toBeLessThanOrEqual(1)
    }
  })
})

describe("suggest: scope", () => {
  const judgments = [
    ...many(2, { organizationId: "o1", documentId: "d1" }),
    judgment({ organizationId: "o1", documentId: "d2", decision: "approved" }),
    ...many(3, { organizationId: "o1", decision: "approved" }),
    ...many(5, { organizationId: "o2", documentId: "d1" })
  ]

  it("uses the document when it has enough evidence", () => {
    const result = run(judgments, { organizationId: "o1", documentId: "d1" })
    expect(result.primary).toMatchObject({ recommendation: "reject", basedOn: 2, scope: "document", scopeLabel: "This document" })
  })

  it("widens to the organization when the document has too little", () => {
    const result = run(judgments, { organizationId: "o1", documentId: "d2" })
    expect(result.primary).toMatchObject({ recommendation: "approve", basedOn: 6, scope: "organization", scopeLabel: "This organization" })
    expect(result.conflict).toMatchObject({ recommendation: "reject", scope: "organization" })
    expect(run(judgments, { organizationId: "o2" }).primary).toMatchObject({ recommendation: "reject", basedOn: 5, scope: "organization" })
  })

  it("widens to all content when neither has enough", () => {
    const result = run(judgments, { organizationId: "o3", documentId: "d1" })
    expect(result.primary).toMatchObject({ recommendation: "reject", basedOn: 11, scope: "apiKey", scopeLabel: "All content" })
  })

  it("ignores documentId without organizationId", () => {
    const result = run(judgments, { documentId: "d1" })
    expect(result.primary).toMatchObject({ scope: "apiKey", basedOn: 11 })
  })
})

describe("suggest: reasons, reviewers, caveats", () => {
  it("orders topReasons by summed weight and deduplicates them case-insensitively", () => {
    const padded = "with a very long description of the packaging, the shipping box and the colours used on the label"
    const judgments = [
      judgment({ reasoning: "Unproven health benefit" }),
      judgment({ reasoning: "  unproven   HEALTH benefit " }),
      judgment({ reasoning: "UNPROVEN HEALTH BENEFIT" }),
      judgment({ reasoning: "Regulator guidance forbids it", content: `${MEDICAL.content} ${padded}` }),
      judgment({ reasoning: "Needs clinical evidence" }),
      judgment({ reasoning: "needs clinical evidence" }),
      judgment({ reasoning: "Misleading to patients" }),
      judgment({ reasoning: "   " }),
      judgment({ reasoning: "Looks fine to me", decision: "approved" })
    ]
    expect(run(judgments).primary!.topReasons).toEqual(["Unproven health benefit", "Needs clinical evidence", "Misleading to patients"])
  })

  it("puts the more relevant record's reason first", () => {
    const judgments = [
      judgment({ content: "A claim in the spring newsletter", reasoning: "Wording issue" }),
      judgment({ content: "Medical claim about a cure", reasoning: "Health risk" }),
      ...many(3, FONT)
    ]
    expect(run(judgments).primary!.topReasons).toEqual(["Health risk", "Wording issue"])
  })

  it("counts distinct non-null reviewers on the supporting side only", () => {
    const judgments = [
      ...many(2, { reviewerId: "alice" }),
      judgment({ reviewerId: "bob" }),
      judgment({ reviewerId: null, judgeType: "agent" }),
      ...many(2, { reviewerId: "carol", decision: "approved" })
    ]
    const result = run(judgments)
    expect(result.primary).toMatchObject({ recommendation: "reject", uniqueReviewers: 2 })
    expect(result.conflict).toMatchObject({ recommendation: "approve", uniqueReviewers: 1 })
    expect(run(many(2, { reviewerId: null })).primary!.uniqueReviewers).toBe(0)
  })

  const STALE = "Stale pattern: >70% of supporting data is older than 6 months"

  it("flags stale patterns when more than 70% of supporting data is older than 6 months", () => {
    const old = NOW - 200 * DAY
    expect(run([...many(3, { createdAt: old }), judgment()]).primary!.caveats).toContain(STALE) // 75%
    expect(run([...many(2, { createdAt: old }), judgment()]).primary!.caveats).not.toContain(STALE) // 67%
    expect(run([...many(7, { createdAt: old }), ...many(3)]).primary!.caveats).not.toContain(STALE) // exactly 70%
    // Old opposing records don't make the supporting side stale.
    expect(run([...many(3), ...many(2, { decision: "approved", createdAt: old })]).primary!.caveats).not.toContain(STALE)
  })

  it("measures staleness against the given now", () => {
    const judgments = many(5, { createdAt: NOW - 100 * DAY })
    expect(suggest({ query: "medical claim", judgments, now: NOW }).primary!.caveats).toEqual([])
    expect(suggest({ query: "medical claim", judgments, now: NOW + 100 * DAY }).primary!.caveats).toEqual([STALE])
    // Exactly 183 days old is not yet "older than".
    expect(suggest({ query: "medical claim", judgments, now: NOW + 83 * DAY }).primary!.caveats).toEqual([])
  })

  it("flags thin evidence below 5 judgments and nothing when evidence is ample", () => {
    expect(run(many(3)).primary!.caveats).toEqual(["Limited precedent: based on 3 judgments"])
    expect(run([...many(2), judgment({ decision: "approved" }), judgment({ decision: "comment" })]).primary!.caveats).toEqual([
      "Limited precedent: based on 3 judgments"
    ])
    expect(run(many(5)).primary!.caveats).toEqual([])
  })
})
