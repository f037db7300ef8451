import type { DomainIsolation } from "../protocol/DomainIsolation.js"

export const isolation: DomainIsolation = {
  seed: async ({ call, mark }) => {
    await call("/v1/organizations/documents/add", { organizationId: "org1", documents: [{ documentId: "doc1", documentName: `${mark} doc` }, { documentId: "doc2", documentName: `${mark} doc2` }] })
    return { aimed: { documentId: "doc1", newDocumentId: "doc2" }, aimedList: { documentIds: ["doc1", "doc2"] } }
  },
  reads: () => [["/v2/organizations/documents/get", { organizationId: "org1" }]]
}
