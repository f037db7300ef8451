import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MemoryDb } from "../testing/memory/MemoryDb.js"
import { compareText } from "../TextOrder.js"
import { type JudgmentFilters, type JudgmentRow, JudgmentsRepo } from "./JudgmentsRepo.js"

const matches = (apiKey: string, filters: JudgmentFilters) => (j: JudgmentRow) =>
  j.apiKey === apiKey &&
  (filters.organizationId === undefined || j.organizationId === filters.organizationId) &&
  (filters.documentId === undefined || j.documentId === filters.documentId) &&
  (filters.decision === undefined || j.decision === filters.decision) &&
  (filters.judgeType === undefined || j.judgeType === filters.judgeType) &&
  (filters.contentType === undefined || j.contentType === filters.contentType) &&
  (filters.reviewerId === undefined || j.reviewerId === filters.reviewerId)

export const MemoryJudgmentsRepo = Layer.effect(
  JudgmentsRepo,
  Effect.gen(function*() {
    const table = (yield* MemoryDb).table<JudgmentRow>("judgments")
    const key = (apiKey: string, id: string) => `${apiKey}\n${id}`
    return {
      upsert: (row) => Effect.sync(() => table.set(key(row.apiKey, row.id), row)),
      latest: (apiKey, filters, limit) =>
        Effect.sync(() =>
          table.values()
            .filter(matches(apiKey, filters))
            .sort((a, b) => b.createdAt - a.createdAt || compareText(b.id, a.id))
            .slice(0, limit)
        ),
      count: (apiKey, filters) => Effect.sync(() => table.values().filter(matches(apiKey, filters)).length)
    }
  })
)
