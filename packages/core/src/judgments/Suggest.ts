/**
 * The decision-suggestion engine behind `POST /v2/memory/suggest`: given a query and past
 * judgments, recommend approve/reject from the most relevant precedent. Pure: the caller
 * supplies the judgments (all of the API key's) and the clock (`now`).
 */
import { scoreAll } from "./Bm25.js"

export type JudgeType = "human" | "agent"
export type Recommendation = "approve" | "reject"
export type SuggestionScope = "document" | "organization" | "apiKey"

/** A past decision recorded in memory. Times are epoch milliseconds. */
export interface Judgment {
  readonly id: string
  readonly organizationId: string | null
  readonly documentId: string | null
  readonly content: string
  readonly reasoning: string
  readonly decision: string
  readonly judgeType: JudgeType
  readonly reviewerId: string | null
  readonly createdAt: number
}

export interface SuggestInput {
  readonly query: string
  readonly judgments: ReadonlyArray<Judgment>
  /** The current time, epoch milliseconds. */
  readonly now: number
  readonly organizationId?: string
  /** Only used together with `organizationId`. */
  readonly documentId?: string
}

export interface Suggestion {
  readonly recommendation: Recommendation
  /** In [0, 1], two decimals. */
  readonly confidence: number
  /** Matched voting judgments in the scope, both sides. */
  readonly basedOn: number
  readonly scope: SuggestionScope
  readonly scopeLabel: string
  readonly topReasons: string[]
  readonly uniqueReviewers: number
  readonly caveats: string[]
}

export interface SuggestResult {
  readonly primary: Suggestion | null
  readonly conflict: Suggestion | null
}

/**
 * A judgment matches when its score is > 0 and at least 25% of the best score:
 * low enough to keep paraphrases that share one strong term, high enough to drop
 * records that only share a common word with the query.
 */
export const MATCH_RELATIVE_THRESHOLD = 0.25
/** Records needed on the leading side for a scope (and a suggestion) to count. */
export const MIN_SUPPORT = 2
/** Fewer matched votes than this earns a "Limited precedent" caveat. */
export const THIN_EVIDENCE_BELOW = 5
/** Supporting data older than this is stale… */
export const STALE_AGE_MS = 183 * 24 * 60 * 60 * 1000
/** …and the pattern is stale when more than this share of it is. */
export const STALE_SHARE = 0.7
export const MAX_REASONS = 3

const APPROVE_DECISIONS: ReadonlySet<string> = new Set(["approved", "agree", "endorse", "document_approved"])
const REJECT_DECISIONS: ReadonlySet<string> = new Set(["rejected", "disagree", "document_rejected"])

/** The side a decision votes for; `null` for non-voting decisions (comment, resolve, …). */
export const voteOf = (decision: string): Recommendation | null => {
  const d = decision.trim().toLowerCase()
  return APPROVE_DECISIONS.has(d) ? "approve" : REJECT_DECISIONS.has(d) ? "reject" : null
}

interface Vote {
  readonly judgment: Judgment
  readonly side: Recommendation
  /** The BM25 score: how much this record weighs. */
  readonly weight: number
}

interface Tally {
  readonly approve: ReadonlyArray<Vote>
  readonly reject: ReadonlyArray<Vote>
}

interface ScopeCandidate {
  readonly scope: SuggestionScope
  readonly label: string
  readonly includes: (j: Judgment) => boolean
}

const other = (side: Recommendation): Recommendation => (side === "approve" ? "reject" : "approve")
const sum = (xs: ReadonlyArray<number>): number => xs.reduce((s, x) => s + x, 0)
const weightOf = (votes: ReadonlyArray<Vote>): number => sum(votes.map((v) => v.weight))
const round2 = (x: number): number => Math.round(x * 100) / 100
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? "" : "s"}`

/** Matched voting judgments (score above the relative threshold, decision on one side). */
const matchedVotes = (query: string, judgments: ReadonlyArray<Judgment>): Vote[] => {
  // The whole set is the corpus, so term rarity (idf) reflects all of the key's memory.
  const scores = scoreAll(query, judgments.map((j) => `${j.content} ${j.reasoning}`))
  const best = scores.reduce((m, s) => Math.max(m, s), 0)
  if (best === 0) return []
  const votes: Vote[] = []
  judgments.forEach((judgment, i) => {
    const weight = scores[i]!
    const side = voteOf(judgment.decision)
    if (weight > 0 && weight >= best * MATCH_RELATIVE_THRESHOLD && side !== null) {
      votes.push({ judgment, side, weight })
    }
  })
  return votes
}

/** Narrowest first; `documentId` alone is ignored (a document is only addressed inside its organization). */
const scopeCandidates = (input: SuggestInput): ScopeCandidate[] => {
  const { organizationId: org, documentId: doc } = input
  const all: ScopeCandidate = { scope: "apiKey", label: "All content", includes: () => true }
  if (org === undefined) return [all]
  const organization: ScopeCandidate = {
    scope: "organization",
    label: "This organization",
    includes: (j) => j.organizationId === org
  }
  if (doc === undefined) return [organization, all]
  const document: ScopeCandidate = {
    scope: "document",
    label: "This document",
    includes: (j) => j.organizationId === org && j.documentId === doc
  }
  return [document, organization, all]
}

const tally = (votes: ReadonlyArray<Vote>): Tally => ({
  approve: votes.filter((v) => v.side === "approve"),
  reject: votes.filter((v) => v.side === "reject")
})

// reduce, not Math.max(...xs): spreading a large array can overflow the call stack.
const latest = (votes: ReadonlyArray<Vote>): number =>
  votes.reduce((m, v) => Math.max(m, v.judgment.createdAt), -Infinity)

/** More weight wins; then more records; then the side with the most recent record; then approve. */
const leadingSide = (t: Tally): Recommendation => {
  const wa = weightOf(t.approve)
  const wr = weightOf(t.reject)
  // Weights are float sums: treat near-equal as a tie so the order of addition can't decide.
  if (Math.abs(wa - wr) > 1e-9 * Math.max(wa, wr)) return wa > wr ? "approve" : "reject"
  if (t.approve.length !== t.reject.length) return t.approve.length > t.reject.length ? "approve" : "reject"
  return latest(t.reject) > latest(t.approve) ? "reject" : "approve"
}

interface ChosenScope {
  readonly candidate: ScopeCandidate
  readonly tally: Tally
  readonly leading: Recommendation
}

/** The narrowest scope whose leading side has enough records, or null when none has. */
const chooseScope = (input: SuggestInput, votes: ReadonlyArray<Vote>): ChosenScope | null => {
  for (const candidate of scopeCandidates(input)) {
    const t = tally(votes.filter((v) => candidate.includes(v.judgment)))
    const leading = leadingSide(t)
    if (t[leading].length >= MIN_SUPPORT) return { candidate, tally: t, leading }
  }
  return null
}

/**
 * Weighted share of `side`, shrunk by n/(n+1) (n = all matched votes in scope) so that
 * two unanimous records (0.67) read as less certain than ten (0.91).
 */
const confidenceOf = (t: Tally, side: Recommendation): number => {
  const total = weightOf(t.approve) + weightOf(t.reject)
  const n = t.approve.length + t.reject.length
  if (total === 0) return 0
  return round2((weightOf(t[side]) / total) * (n / (n + 1)))
}

/** Up to 3 distinct reasons, heaviest first; duplicates (case/whitespace-insensitive) add up. */
const topReasonsOf = (votes: ReadonlyArray<Vote>): string[] => {
  const groups = new Map<string, { text: string; weight: number }>()
  // Most relevant first, so each group shows the wording of its most relevant record.
  for (const v of [...votes].sort((a, b) => b.weight - a.weight)) {
    const text = v.judgment.reasoning.trim()
    if (text === "") continue
    const key = text.toLowerCase().replace(/\s+/g, " ")
    const group = groups.get(key)
    if (group === undefined) groups.set(key, { text, weight: v.weight })
    else group.weight += v.weight
  }
  return [...groups.entries()]
    .sort(([ka, a], [kb, b]) => b.weight - a.weight || (ka < kb ? -1 : ka > kb ? 1 : 0))
    .slice(0, MAX_REASONS)
    .map(([, g]) => g.text)
}

const uniqueReviewersOf = (votes: ReadonlyArray<Vote>): number =>
  new Set(votes.flatMap((v) => (v.judgment.reviewerId === null ? [] : [v.judgment.reviewerId]))).size

const isStale = (votes: ReadonlyArray<Vote>, now: number): boolean => {
  const old = votes.filter((v) => v.judgment.createdAt < now - STALE_AGE_MS).length
  return votes.length > 0 && old / votes.length > STALE_SHARE
}

const primaryCaveats = (t: Tally, side: Recommendation, now: number): string[] => {
  const caveats: string[] = []
  const opposing = t[other(side)].length
  const basedOn = t.approve.length + t.reject.length
  if (opposing >= MIN_SUPPORT) caveats.push(`Conflicting precedent: ${plural(opposing, "judgment")} recommend ${other(side)}`)
  if (isStale(t[side], now)) caveats.push("Stale pattern: >70% of supporting data is older than 6 months")
  if (basedOn < THIN_EVIDENCE_BELOW) caveats.push(`Limited precedent: based on ${plural(basedOn, "judgment")}`)
  return caveats
}

const minorityCaveat = (t: Tally, side: Recommendation): string =>
  `Minority view: ${t[side].length} of ${t.approve.length + t.reject.length} matching judgments recommend ${side}`

const suggestionFor = (chosen: ChosenScope, side: Recommendation, caveats: string[]): Suggestion => ({
  recommendation: side,
  confidence: confidenceOf(chosen.tally, side),
  basedOn: chosen.tally.approve.length + chosen.tally.reject.length,
  scope: chosen.candidate.scope,
  scopeLabel: chosen.candidate.label,
  topReasons: topReasonsOf(chosen.tally[side]),
  uniqueReviewers: uniqueReviewersOf(chosen.tally[side]),
  caveats
})

/** Suggests a decision for `input.query` from matching precedent; see the rules in the constants above. */
export const suggest = (input: SuggestInput): SuggestResult => {
  const chosen = chooseScope(input, matchedVotes(input.query, input.judgments))
  if (chosen === null) return { primary: null, conflict: null }
  const { tally: t, leading } = chosen
  const minority = other(leading)
  return {
    primary: suggestionFor(chosen, leading, primaryCaveats(t, leading, input.now)),
    conflict: t[minority].length >= MIN_SUPPORT ? suggestionFor(chosen, minority, [minorityCaveat(t, minority)]) : null
  }
}
