import { defineDomain } from "../Domain.js"
import { LiveState } from "./LiveState.js"
import { liveStateOperations } from "./operations.js"
import { SqlLiveStateRepo } from "./SqlLiveStateRepo.js"

/** Data broadcast to a document's realtime subscribers, kept per live state so the next may merge into it. */
export const livestateDomain = defineDomain({
  name: "livestate",
  operations: liveStateOperations,
  // Realtime's hub broadcasts an editor's frames through it.
  shared: [LiveState.Default],
  services: [],
  repositories: [SqlLiveStateRepo],
  dataTables: [{ name: "live_states", apiKey: "api_key", organization: "organization_id", document: "document_id", documentInKey: true }],
  tags: [{ name: "livestate", description: "Data broadcast to a document's realtime subscribers." }]
})
