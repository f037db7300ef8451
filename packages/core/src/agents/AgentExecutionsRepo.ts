import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

export type AgentExecutionStatus = "running" | "passed" | "failed" | "error" | "skipped"

export interface AgentExecutionRow {
  readonly apiKey: string
  readonly id: string
  readonly agentId: string
  readonly agentName: string
  readonly agentVersion: number
  readonly status: AgentExecutionStatus
  readonly message: string
  readonly startedAt: number
  /** null while running. */
  readonly completedAt: number | null
  readonly trigger: string
  readonly organizationId: string | null
  readonly documentId: string | null
}

/** Where a keyset page starts: after this (startedAt, id) in the page's order. */
export interface ExecutionPosition {
  readonly startedAt: number
  readonly id: string
}

export interface ExecutionFilters {
  readonly agentId?: string
  readonly documentId?: string
  readonly organizationId?: string
  readonly status?: AgentExecutionStatus
}

/** Storage port: agent executions of an API key. */
export class AgentExecutionsRepo extends Context.Tag("@atrium/core/AgentExecutionsRepo")<AgentExecutionsRepo, {
  /** Inserts, or replaces every field of the execution with the same id. */
  readonly upsert: (row: AgentExecutionRow) => Effect.Effect<void>
  /** The organization of the execution with this id: null for none, undefined when there is no such execution. */
  readonly organizationOf: (apiKey: string, id: string) => Effect.Effect<string | null | undefined>
  /** Keyset page ordered by (startedAt, id) in `order`; a disabled organization's executions are left out. */
  readonly list: (
    apiKey: string,
    filters: ExecutionFilters,
    page: { readonly order: "asc" | "desc"; readonly after?: ExecutionPosition; readonly limit: number }
  ) => Effect.Effect<ReadonlyArray<AgentExecutionRow>>
}>() {}
