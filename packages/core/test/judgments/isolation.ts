import type { DomainIsolation } from "../protocol/DomainIsolation.js"

export const isolation: DomainIsolation = {
  seed: async ({ call, mark }) => {
    await call("/v2/memory/judgments/add", {
      judgments: [{ id: "j1", organizationId: "org1", documentId: "doc1", content: `${mark} content`, reasoning: mark, decision: "approved", judgeType: "human", reviewerId: "u1" }]
    })
    return {}
  },
  reads: () => [["/v2/memory/judgments/query", {}]]
}
