/** agents/: AgentExecutionsRepo. */
import * as Effect from "effect/Effect"
import { type AgentExecutionRow, AgentExecutionsRepo, type ExecutionPosition } from "../../agents/AgentExecutionsRepo.js"
import { OrganizationsRepo } from "../../organizations/OrganizationsRepo.js"
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

  it.effect("AgentExecutionsRepo.list leaves a disabled organization's executions out, with or without its filter", () =>
    Effect.gen(function*() {
      const executions = yield* AgentExecutionsRepo
      const organizations = yield* OrganizationsRepo
      const apiKey = unique("key")
      yield* executions.upsert(execution(apiKey, "on", T0, { organizationId: "org-on" }))
      yield* executions.upsert(execution(apiKey, "off", T0, { organizationId: "org-off" }))
      yield* executions.upsert(execution(apiKey, "none", T0, { organizationId: null }))
      yield* organizations.ensure(apiKey, "org-on", T0)
      yield* organizations.ensure(apiKey, "org-off", T0)
      yield* organizations.setDisabled(apiKey, "org-off", true, T0)
      // The same organization id of another key stays enabled: only this key's switch counts.
      yield* organizations.ensure(unique("other"), "org-on", T0)
      const ids = (filters: { organizationId?: string }) =>
        Effect.map(executions.list(apiKey, filters, { order: "asc", limit: 10 }), (rows) => rows.map((e) => e.id))
      expect(yield* ids({})).toEqual(["none", "on"])
      expect(yield* ids({ organizationId: "org-off" })).toEqual([])
      yield* organizations.setDisabled(apiKey, "org-off", false, T0)
      expect(yield* ids({})).toEqual(["none", "off", "on"])
      // What the service asks before replacing an execution by id.
      expect([yield* executions.organizationOf(apiKey, "off"), yield* executions.organizationOf(apiKey, "none"), yield* executions.organizationOf(apiKey, "gone")])
        .toEqual(["org-off", null, undefined])
    }))
}
