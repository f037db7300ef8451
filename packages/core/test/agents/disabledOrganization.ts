import type { DisabledOrganization } from "../protocol/DisabledOrganization.js"

export const disabledOrganization: DisabledOrganization = {
  noOrganizationData: {
    "agents.execution.record": "without organizationId it records an execution of no organization (with one, the dispatcher refuses a disabled one)"
  },
  acrossOrganizations: {
    "agents.execution.list": {
      seed: async (call, organizationId, mark) => {
        for (const id of ["1", "2"]) {
          await call("/v2/agents/execution/record", {
            id: `${mark}-${id}`,
            agentId: "agent",
            agentName: mark,
            agentVersion: 1,
            status: "passed",
            message: mark,
            startedAt: 1,
            completedAt: 2,
            organizationId,
            documentId: "doc"
          })
        }
      },
      body: {}
    }
  }
}
