import type { AcrossOrganizations, DisabledOrganization } from "../protocol/DisabledOrganization.js"

const QUESTION = "ship the spring banner"

/** Two approvals per organization, the least a suggestion stands on: either organization alone leads, so its reason shows. */
const seed: AcrossOrganizations["seed"] = async (call, organizationId, mark) => {
  await call("/v2/memory/judgments/add", {
    judgments: ["1", "2"].map((id) => ({
      id: `${mark}-${id}`,
      organizationId,
      documentId: "doc",
      content: `${QUESTION} ${mark}`,
      reasoning: `${mark} reason`,
      decision: "approved",
      judgeType: "human",
      reviewerId: `${mark}-reviewer`
    }))
  })
}

export const disabledOrganization: DisabledOrganization = {
  ruled: {
    "memory.judgments.add": "names an organization per item: the service checks each, and an item of a disabled organization fails alone (test/judgments/operations.test.ts)"
  },
  acrossOrganizations: {
    "memory.judgments.query": { seed, body: {} },
    // Without organizationId: the key-wide scope's candidates.
    "memory.suggest": { seed, body: { query: QUESTION } }
  }
}
