import { defineDomain } from "../Domain.js"
import { Folders } from "./Folders.js"
import { folderOperations } from "./operations.js"
import { SqlFoldersRepo } from "./SqlFoldersRepo.js"

/** Folders of an organization's documents. */
export const foldersDomain = defineDomain({
  name: "folders",
  operations: folderOperations,
  services: [Folders.Default],
  repositories: [SqlFoldersRepo],
  dataTables: [{ name: "folders", apiKey: "api_key", organization: "organization_id", folder: { column: "id" }, access: true }]
})
