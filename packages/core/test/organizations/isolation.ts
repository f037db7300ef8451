import type { DomainIsolation } from "../protocol/DomainIsolation.js"

export const isolation: DomainIsolation = {
  seed: async ({ call, mark }) => {
    await call("/v2/organizations/add", { organizations: [{ organizationId: "org1", organizationName: `${mark} org` }, { organizationId: "org2", organizationName: `${mark} org2` }] })
    const pageToken = (await call("/v2/organizations/get", { pageSize: 1 })).nextPageToken as string
    return { aimed: { organizationId: "org1", pageToken }, aimedList: { organizationIds: ["org1", "org2"] }, pageTokens: [pageToken], tokens: { pageToken } }
  },
  reads: () => [["/v2/organizations/get", {}]]
}
