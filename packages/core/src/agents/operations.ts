import { defineOperation } from "../protocol/Operation.js"
import { ExecutionsPage, ListExecutionsInput, RecordExecutionInput, RecordExecutionResult } from "./AgentSchemas.js"
import { Agents } from "./Agents.js"

export const agentOperations = [
  defineOperation({
    name: "agents.execution.record",
    paths: ["/v2/agents/execution/record"],
    auth: "apiKey",
    summary: "Record an agent execution, or update the one with the same id.",
    input: RecordExecutionInput,
    output: RecordExecutionResult,
    organization: (input) => input.organizationId,
    service: Agents,
    handler: (agents, input, caller) => agents.record(caller.apiKey, input)
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
    handler: (agents, input, caller) => agents.list(caller.apiKey, input)
  })
] as const
