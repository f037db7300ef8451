import { defineDomain } from "../Domain.js"
import { organizationOperations } from "./operations.js"
import { Organizations } from "./Organizations.js"
import { SqlOrganizationsRepo } from "./SqlOrganizationsRepo.js"

/** Organizations and their disabled flag. */
export const organizationsDomain = defineDomain({
  name: "organizations",
  operations: organizationOperations,
  services: [Organizations.Default],
  repositories: [SqlOrganizationsRepo],
  // The organization's own row: its id is the organization's.
  dataTables: [{ name: "organizations", apiKey: "api_key", organization: "id", access: true }],
  tags: [{ name: "organizations", description: "Organizations, their documents and folders, user groups, access, and document migration." }]
})
