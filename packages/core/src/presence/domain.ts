import { defineDomain } from "../Domain.js"
import { presenceOperations } from "./operations.js"
import { Presence } from "./Presence.js"
import { SqlPresenceRepo } from "./SqlPresenceRepo.js"

/** Who is on a document now. */
export const presenceDomain = defineDomain({
  name: "presence",
  operations: presenceOperations,
  services: [Presence.Default],
  repositories: [SqlPresenceRepo],
  dataTables: [{ name: "presence", apiKey: "api_key", organization: "organization_id", user: "user_id", document: "document_id", documentInKey: true, json: ["data"] }],
  tags: [{ name: "presence", description: "Who is on a document now." }]
})
