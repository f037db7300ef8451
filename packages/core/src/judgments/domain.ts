import { defineDomain } from "../Domain.js"
import { Judgments } from "./Judgments.js"
import { judgmentOperations } from "./operations.js"
import { SqlJudgmentsRepo } from "./SqlJudgmentsRepo.js"

/** Judgments, and the suggestions made from them. */
export const judgmentsDomain = defineDomain({
  name: "judgments",
  operations: judgmentOperations,
  services: [Judgments.Default],
  repositories: [SqlJudgmentsRepo],
  // The user is the human reviewer who recorded the judgment.
  dataTables: [{ name: "judgments", apiKey: "api_key", organization: "organization_id", user: "reviewer_id", document: "document_id" }],
  tags: [{ name: "memory", description: "Judgments, and approve/reject suggestions from them." }]
})
