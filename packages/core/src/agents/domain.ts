import { defineDomain } from "../Domain.js"
import { Agents } from "./Agents.js"
import { agentOperations } from "./operations.js"
import { SqlAgentExecutionsRepo } from "./SqlAgentExecutionsRepo.js"

/** Agent executions. */
export const agentsDomain = defineDomain({
  name: "agents",
  operations: agentOperations,
  services: [Agents.Default],
  repositories: [SqlAgentExecutionsRepo],
  dataTables: [{ name: "agent_executions", apiKey: "api_key", organization: "organization_id", document: "document_id" }],
  tags: [{ name: "agents", description: "Agent executions." }]
})
