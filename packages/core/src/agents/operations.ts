import * as Effect from "effect/Effect"
import { answer } from "../protocol/Envelope.js"
import { defineOperation } from "../protocol/Operation.js"
import type { Page } from "../protocol/PageTokens.js"
import { ExecutionsPage, ListExecutionsInput, RecordExecutionInput, RecordExecutionResult } from "./AgentSchemas.js"
import { Agents } from "./Agents.js"

/** agents/execution/list answers a page without the envelope: its items, the next page's `cursor`, and whether there is one. */
const executionsPage = <A>(page: Page<A>) => ({ items: page.items, nextCursor: page.next ?? null, hasMore: page.next !== undefined })

export const agentOperations = [
  defineOperation({
    name: "agents.execution.record",
    paths: ["/v2/agents/execution/record"],
    auth: "apiKey",
    summary: "Record an agent execution, or update the one with the same id.",
    input: RecordExecutionInput,
    output: RecordExecutionResult,
    // An execution recorded earlier in a now disabled organization is not replaced (Agents.record).
    errors: ["PERMISSION_DENIED"],
    organization: (input) => input.organizationId,
    service: Agents,
    handler: (agents, input, caller) =>
      Effect.map(agents.record(caller.apiKey, input), answer("Agent execution recorded successfully."))
  }),
  defineOperation({
    name: "agents.execution.list",
    paths: ["/v2/agents/execution/list"],
    auth: "apiKey",
    summary: "List agent executions by startedAt, optionally filtered, a page at a time (cursor).",
    input: ListExecutionsInput,
    output: ExecutionsPage,
    errors: ["INVALID_ARGUMENT"],
    organization: (input) => input.organizationId,
    service: Agents,
    handler: (agents, input, caller) => Effect.map(agents.list(caller.apiKey, input), executionsPage)
  })
] as const
