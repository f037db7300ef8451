import type { DomainIsolation } from "../protocol/DomainIsolation.js"

export const isolation: DomainIsolation = {
  // A's grants: B's permissions/get, add and remove aimed at the same user and resources must neither see nor touch them.
  seed: async ({ call }) => {
    await call("/v2/auth/permissions/add", {
      user: { userId: "granted-user" },
      permissions: { resources: [{ type: "organization", id: "org1", accessRole: "viewer" }, { type: "document", id: "doc1", organizationId: "org1", accessRole: "editor" }] }
    })
    return { aimed: { userId: "granted-user" }, aimedList: { userIds: ["granted-user"] } }
  },
  reads: () => [["/v2/auth/permissions/get", { organizationId: "org1", userIds: ["granted-user"], documentIds: ["doc1"] }]]
}
