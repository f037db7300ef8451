import type { DomainIsolation } from "../protocol/DomainIsolation.js"

export const isolation: DomainIsolation = {
  seed: async ({ call, mark }) => {
    await call("/v2/livestate/broadcast", { organizationId: "org1", documentId: "doc1", liveStateDataId: "ls1", data: { note: `${mark} live` } })
    return { aimed: { liveStateDataId: "ls1" } }
  },
  // No operation reads a live state: B's broadcasts with merge, aimed at ls1, must merge into B's own (none), which no answer shows.
  reads: () => []
}
