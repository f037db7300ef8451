import type { DomainIsolation } from "../protocol/DomainIsolation.js"

export const isolation: DomainIsolation = {
  seed: async ({ call }) => {
    const { jobId } = (await call("/v2/users/data/delete", { userIds: ["u2"] })).data
    const { migrationId } = (await call("/v2/organizations/documents/migrate", { organizationId: "org1", documentId: "doc2", newDocumentId: "doc3" })).data
    return { aimed: { jobId, migrationId } }
  },
  reads: ({ jobId, migrationId }) => [
    ["/v2/users/data/delete/status", { jobId }],
    ["/v2/users/data/get", { organizationId: "org1", userId: "u1" }],
    ["/v2/organizations/documents/migrate/status", { organizationId: "org1", migrationId }]
  ]
}
