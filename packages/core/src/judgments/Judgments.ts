import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import { Access } from "../protocol/Access.js"
import { invalidArgument } from "../protocol/ApiError.js"
import { Ids } from "../ports/Ids.js"
import { Transactions } from "../ports/Transactions.js"
import { type JudgmentFilters, type JudgmentRow, JudgmentsRepo } from "./JudgmentsRepo.js"
import type { AddJudgmentsInput, JudgmentRecord, QueryJudgmentsInput, SuggestInput } from "./JudgmentSchemas.js"
import { suggest } from "./Suggest.js"

const DEFAULT_QUERY_LIMIT = 20

/**
 * Judgments read per scope for a suggestion: the newest of the document, of the organization
 * and of the whole key (the engine widens in that order), so one busy scope cannot crowd out another.
 */
export const SUGGEST_CANDIDATES_PER_SCOPE = 1_000

type ItemResult = { success: boolean; id: string; message: string }

const toRecord = (row: JudgmentRow): Schema.Schema.Type<typeof JudgmentRecord> => ({
  recordId: row.id,
  reasoning: row.reasoning,
  decision: row.decision,
  confidence: row.confidence,
  judgeType: row.judgeType,
  contentType: row.contentType,
  actionUser: row.judgeType === "human" && row.reviewerId !== null ? { userId: row.reviewerId } : null,
  createdAt: row.createdAt,
  organizationId: row.organizationId,
  documentId: row.documentId,
  agent: row.judgeType === "agent" && row.reviewerId !== null ? { agentId: row.reviewerId } : null
})

/** Judgments: recorded review decisions, and approve/reject suggestions drawn from them. */
export class Judgments extends Effect.Service<Judgments>()("@atrium/core/Judgments", {
  accessors: true,
  effect: Effect.gen(function*() {
    const repo = yield* JudgmentsRepo
    const access = yield* Access
    const ids = yield* Ids
    const { withTransaction } = yield* Transactions

    return {
      /**
       * POST /v2/memory/judgments/add (docs/decisions.md, "Judgments and suggestions"). Each item is a savepoint in the call's transaction (all or none if the process dies); an item
       * of a disabled organization fails alone (the dispatcher's gate covers one organization per call).
       */
      add: (apiKey: string, input: typeof AddJudgmentsInput.Type) =>
        withTransaction(Effect.gen(function*() {
          const given = input.judgments.flatMap((j, i) => j.id === undefined ? [] : [[j.id, i] as const])
          const seen = new Set<string>()
          for (const [id, i] of given) {
            if (seen.has(id)) return yield* invalidArgument(`Invalid data.judgments[${i}].id: appears twice in this call`)
            seen.add(id)
          }
          const now = yield* Clock.currentTimeMillis
          const data: Record<string, ItemResult> = {}
          for (const judgment of input.judgments) {
            const id = judgment.id ?? (yield* ids.make("jdg"))
            data[id] = yield* withTransaction(Effect.gen(function*() {
              if (judgment.organizationId !== undefined) yield* access.ensureOrganizationEnabled(apiKey, judgment.organizationId)
              // A judgment of a disabled organization is not replaced, not even by an item naming another organization or none.
              const existing = judgment.id === undefined ? undefined : yield* repo.organizationOf(apiKey, id)
              if (typeof existing === "string" && existing !== judgment.organizationId) yield* access.ensureOrganizationEnabled(apiKey, existing)
              yield* repo.upsert({
                apiKey,
                id,
                organizationId: judgment.organizationId ?? null,
                documentId: judgment.documentId ?? null,
                content: judgment.content,
                reasoning: judgment.reasoning,
                decision: judgment.decision,
                judgeType: judgment.judgeType,
                reviewerId: judgment.reviewerId ?? null,
                contentType: judgment.contentType ?? null,
                confidence: judgment.confidence ?? null,
                createdAt: judgment.createdAt ?? now
              })
              return { success: true, id, message: "Judgment recorded." } as ItemResult
            })).pipe(Effect.catchAll((error) => Effect.succeed<ItemResult>({ success: false, id, message: error.message })))
          }
          return data
        })),

      /** POST /v2/memory/judgments/query (docs/compatibility.md, "Judgments and suggestions"): the newest matches, and how many match in all. */
      query: (apiKey: string, input: typeof QueryJudgmentsInput.Type) =>
        Effect.gen(function*() {
          const { limit = DEFAULT_QUERY_LIMIT, ...filters } = input
          const [rows, total] = yield* Effect.all([repo.latest(apiKey, filters, limit), repo.count(apiKey, filters)])
          return { results: rows.map(toRecord), total }
        }),

      /** Spec: POST /v2/memory/suggest, with the engine's rules (`Suggest.ts`). */
      suggest: (apiKey: string, input: typeof SuggestInput.Type) =>
        Effect.gen(function*() {
          const scopes: Array<JudgmentFilters> = [{}]
          if (input.organizationId !== undefined) scopes.push({ organizationId: input.organizationId })
          if (input.organizationId !== undefined && input.documentId !== undefined) {
            scopes.push({ organizationId: input.organizationId, documentId: input.documentId })
          }
          const batches = yield* Effect.forEach(scopes, (filters) => repo.latest(apiKey, filters, SUGGEST_CANDIDATES_PER_SCOPE))
          const judgments = [...new Map(batches.flat().map((j) => [j.id, j])).values()]
          const now = yield* Clock.currentTimeMillis
          return suggest({
            query: input.query,
            judgments,
            now,
            ...(input.organizationId !== undefined && { organizationId: input.organizationId }),
            ...(input.documentId !== undefined && { documentId: input.documentId })
          })
        })
    }
  })
}) {}
