import type { DomainIsolation } from "../protocol/DomainIsolation.js"

export const isolation: DomainIsolation = {
  seed: async ({ call }) => {
    await call("/v2/notifications/config/set", { organizationId: "org1", documentIds: ["doc1"], userIds: ["u1"], config: { inbox: "NONE" } })
    return {}
  },
  reads: () => [["/v2/notifications/config/get", { organizationId: "org1", userId: "u1", documentIds: ["doc1"] }]]
}
