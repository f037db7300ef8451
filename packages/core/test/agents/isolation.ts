import type { DomainIsolation } from "../protocol/DomainIsolation.js"

export const isolation: DomainIsolation = {
  seed: async ({ call, mark }) => {
    const org = { organizationId: "org1", documentId: "doc1" }
    await call("/v2/agents/execution/record", { id: "e1", agentId: "agent1", agentName: mark, agentVersion: 1, status: "passed", message: mark, startedAt: 1, completedAt: 2, ...org })
    await call("/v2/agents/execution/record", { id: "e2", agentId: "agent1", agentName: mark, agentVersion: 1, status: "passed", message: mark, startedAt: 3, completedAt: 4, ...org })
    const cursor = (await call("/v2/agents/execution/list", { pageSize: 1 })).nextCursor as string
    return { aimed: { executionId: "e1", agentId: "agent1", cursor }, tokens: { cursor } }
  },
  reads: () => [["/v2/agents/execution/list", {}]]
}
