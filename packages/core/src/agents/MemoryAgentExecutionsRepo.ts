import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MemoryDb } from "../testing/memory/MemoryDb.js"
import { compareText } from "../TextOrder.js"
import { type AgentExecutionRow, AgentExecutionsRepo, type ExecutionPosition } from "./AgentExecutionsRepo.js"

/** Ascending (startedAt, id) comparison: the keyset order. */
const compare = (a: ExecutionPosition, b: ExecutionPosition) =>
  a.startedAt - b.startedAt || compareText(a.id, b.id)

export const MemoryAgentExecutionsRepo = Layer.effect(
  AgentExecutionsRepo,
  Effect.gen(function*() {
    const table = (yield* MemoryDb).table<AgentExecutionRow>("agent_executions")
    const key = (apiKey: string, id: string) => `${apiKey}\n${id}`
    return {
      upsert: (row) => Effect.sync(() => table.set(key(row.apiKey, row.id), row)),
      list: (apiKey, filters, { after, limit, order }) =>
        Effect.sync(() => {
          const sign = order === "asc" ? 1 : -1
          return table.values()
            .filter((e) =>
              e.apiKey === apiKey &&
              (filters.agentId === undefined || e.agentId === filters.agentId) &&
              (filters.documentId === undefined || e.documentId === filters.documentId) &&
              (filters.organizationId === undefined || e.organizationId === filters.organizationId) &&
              (filters.status === undefined || e.status === filters.status) &&
              (after === undefined || sign * compare(e, after) > 0)
            )
            .sort((a, b) => sign * compare(a, b))
            .slice(0, limit)
        })
    }
  })
)
