import type { DomainIsolation } from "../protocol/DomainIsolation.js"

export const isolation: DomainIsolation = {
  seed: async ({ call, mark }) => {
    await call("/v2/organizations/folders/add", { organizationId: "org1", folders: [{ folderId: "f1", folderName: `${mark} folder` }] })
    return { aimed: { folderId: "f1", parentFolderId: "f1" }, aimedList: { folderIds: ["f1"] } }
  },
  reads: () => [["/v2/organizations/folders/get", { organizationId: "org1" }]]
}
