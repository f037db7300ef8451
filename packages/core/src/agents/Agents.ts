import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import { Access } from "../protocol/Access.js"
import { PageTokens } from "../protocol/PageTokens.js"
import { Ids } from "../ports/Ids.js"
import { type AgentExecutionRow, AgentExecutionsRepo, type ExecutionPosition } from "./AgentExecutionsRepo.js"
import type { AgentExecution, ListExecutionsInput, RecordExecutionInput } from "./AgentSchemas.js"

const DEFAULT_PAGE_SIZE = 50
const DEFAULT_TRIGGER = "standalone"

const toExecution = (row: AgentExecutionRow): Schema.Schema.Type<typeof AgentExecution> => ({
  id: row.id,
  agentId: row.agentId,
  agentName: row.agentName,
  agentVersion: row.agentVersion,
  status: row.status,
  message: row.message,
  startedAt: row.startedAt,
  completedAt: row.completedAt,
  // Spec: null while running; derived, so it can never disagree with the two timestamps.
  durationMs: row.completedAt === null ? null : row.completedAt - row.startedAt,
  trigger: row.trigger,
  ...(row.organizationId !== null && { organizationId: row.organizationId }),
  ...(row.documentId !== null && { documentId: row.documentId })
})

/** Agent executions: recorded by the host (operation or service call) and listed a page at a time. */
export class Agents extends Effect.Service<Agents>()("@atrium/core/Agents", {
  accessors: true,
  effect: Effect.gen(function*() {
    const repo = yield* AgentExecutionsRepo
    const pageTokens = yield* PageTokens
    const ids = yield* Ids
    const access = yield* Access

    return {
      /** POST /v2/agents/execution/record, also for host apps: upsert by `id` (docs/decisions.md, "Product rulings"). */
      record: (apiKey: string, input: typeof RecordExecutionInput.Type) =>
        Effect.gen(function*() {
          // An execution of a disabled organization is not replaced, not even by a call naming another organization or none
          // (the dispatcher checked the one named; docs/decisions.md, "Access").
          if (input.id !== undefined) {
            const existing = yield* repo.organizationOf(apiKey, input.id)
            if (typeof existing === "string" && existing !== input.organizationId) yield* access.ensureOrganizationEnabled(apiKey, existing)
          }
          const row: AgentExecutionRow = {
            apiKey,
            id: input.id ?? (yield* ids.make("exec")),
            agentId: input.agentId,
            agentName: input.agentName,
            agentVersion: input.agentVersion,
            status: input.status,
            message: input.message,
            startedAt: input.startedAt,
            completedAt: input.status === "running" ? null : input.completedAt ?? null,
            trigger: input.trigger ?? DEFAULT_TRIGGER,
            organizationId: input.organizationId ?? null,
            documentId: input.documentId ?? null
          }
          yield* repo.upsert(row)
          return toExecution(row)
        }),

      /** Spec: POST /v2/agents/execution/list. Keyset pages on (startedAt, id), so equal start times never repeat or skip. */
      list: (apiKey: string, input: typeof ListExecutionsInput.Type) =>
        Effect.gen(function*() {
          const limit = input.pageSize ?? DEFAULT_PAGE_SIZE
          const order = input.orderDirection ?? "desc"
          const filters = {
            ...(input.agentId !== undefined && { agentId: input.agentId }),
            ...(input.documentId !== undefined && { documentId: input.documentId }),
            ...(input.organizationId !== undefined && { organizationId: input.organizationId }),
            ...(input.status !== undefined && { status: input.status })
          }
          const scope = { apiKey, operation: "agents.execution.list", filters: { ...filters, order }, tokenName: "cursor" }
          return yield* pageTokens.page({
            scope,
            token: input.cursor,
            limit,
            read: (after: ExecutionPosition | undefined, limit) =>
              repo.list(apiKey, filters, { order, limit, ...(after !== undefined && { after }) }),
            cursorOf: (row): ExecutionPosition => ({ startedAt: row.startedAt, id: row.id }),
            present: (page) => ({ items: page.items.map(toExecution), next: page.next })
          })
        })
    }
  })
}) {}
