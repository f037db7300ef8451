import { defineDomain } from "../Domain.js"
import { DOCUMENT_ROWS } from "../jobs/JobTables.js"
import { Documents } from "./Documents.js"
import { documentOperations } from "./operations.js"
import { SqlDocumentsRepo } from "./SqlDocumentsRepo.js"

/** Documents of an organization. */
export const documentsDomain = defineDomain({
  name: "documents",
  operations: documentOperations,
  services: [Documents.Default],
  repositories: [SqlDocumentsRepo],
  // A migration moves the document row before the rows that name it.
  dataTables: [{ name: DOCUMENT_ROWS, apiKey: "api_key", organization: "organization_id", document: "id", documentInKey: true, access: true, order: "first" }]
})
