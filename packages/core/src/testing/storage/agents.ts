/** agents/: AgentExecutionsRepo. */
import * as Effect from "effect/Effect"
import { type AgentExecutionRow, AgentExecutionsRepo, type ExecutionPosition } from "../../agents/AgentExecutionsRepo.js"
import { allPages, execution, type StorageCases, T0, unique } from "./fixtures.js"

export const cases: StorageCases = (it, expect) => {
  it.effect("AgentExecutionsRepo.list orders by time then id", () =>
    Effect.gen(function*() {
      const executions = yield* AgentExecutionsRepo
      const apiKey = unique("key")
      const ids = ["e3", "e1", "e4", "e2", "e5"]
      for (const [i, id] of ids.entries()) {
        yield* executions.upsert(execution(apiKey, id, T0 + (i % 2), { status: i === 0 ? "running" : "passed" }))
      }
      const cursor = (e: AgentExecutionRow) => ({ startedAt: e.startedAt, id: e.id })
      const asc = yield* allPages((after?: ExecutionPosition) => executions.list(apiKey, {}, { order: "asc", limit: 2, ...(after && { after }) }), cursor, 2)
      expect(asc.map((e) => e.id)).toEqual(["e3", "e4", "e5", "e1", "e2"])
      const desc = yield* allPages((after?: ExecutionPosition) => executions.list(apiKey, {}, { order: "desc", limit: 2, ...(after && { after }) }), cursor, 2)
      expect(desc.map((e) => e.id)).toEqual(["e2", "e1", "e5", "e4", "e3"])
      expect((yield* executions.list(apiKey, { status: "running" }, { order: "asc", limit: 10 })).map((e) => e.id)).toEqual(["e3"])
    }))

  it.effect("AgentExecutionsRepo keeps large integers", () =>
    Effect.gen(function*() {
      const executions = yield* AgentExecutionsRepo
      const apiKey = unique("key")
      const running = execution(apiKey, "x", T0, { agentVersion: 2 ** 40, completedAt: null, documentId: "doc", status: "running" })
      yield* executions.upsert(running)
      expect(yield* executions.list(apiKey, { agentId: "agent-1", documentId: "doc", organizationId: "org-1" }, { order: "asc", limit: 5 }))
        .toEqual([running])
      const finished = { ...running, status: "failed" as const, completedAt: T0 + 99, organizationId: null }
      yield* executions.upsert(finished)
      expect(yield* executions.list(apiKey, { status: "failed" }, { order: "desc", limit: 5 })).toEqual([finished])
      expect(yield* executions.list(apiKey, { organizationId: "org-1" }, { order: "desc", limit: 5 })).toEqual([])
    }))
}
