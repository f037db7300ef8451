import type { DomainIsolation } from "../protocol/DomainIsolation.js"

export const isolation: DomainIsolation = {
  seed: async ({ call, mark }) => {
    await call("/v2/presence/add", { organizationId: "org1", documentId: "doc1", users: [{ userId: "u1", name: `${mark} present` }] })
    return {}
  },
  // Presence has no read operation: B's presence/update and delete aimed at u1 must not touch A's row, which no answer shows.
  reads: () => []
}
