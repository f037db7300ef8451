import type { DomainIsolation } from "../protocol/DomainIsolation.js"

export const isolation: DomainIsolation = {
  seed: async ({ call, mark }) => {
    await call("/v2/activities/add", {
      organizationId: "org1",
      documentId: "doc1",
      activities: [
        { id: "act1", featureType: "comment", actionType: "added", actionUser: { userId: "u1", name: mark } },
        { id: "act2", featureType: "comment", actionType: "added", actionUser: { userId: "u1" } }
      ]
    })
    const activities = (await call("/v2/activities/get", { organizationId: "org1", pageSize: 1 })).pageToken as string
    return { aimed: { id: "act1" }, pageTokens: [activities], tokens: { activities } }
  },
  reads: () => [["/v2/activities/get", { organizationId: "org1" }]]
}
