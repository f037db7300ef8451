import { defineDomain } from "../Domain.js"
import { Activities } from "./Activities.js"
import { activityOperations } from "./operations.js"
import { SqlActivitiesRepo } from "./SqlActivitiesRepo.js"

/** The activity log of an organization's documents. */
export const activitiesDomain = defineDomain({
  name: "activities",
  operations: activityOperations,
  services: [Activities.Default],
  repositories: [SqlActivitiesRepo],
  dataTables: [{
    name: "activities",
    apiKey: "api_key",
    organization: "organization_id",
    // The acting user.
    user: "user_id",
    document: "document_id",
    json: ["record"],
    record: { column: "record", key: ["api_key", "organization_id", "id"], documentPath: ["metadata", "documentId"] }
  }],
  tags: [{ name: "activities", description: "The activity log of an organization's documents." }]
})
