import { defineDomain } from "../Domain.js"
import { userOperations } from "./operations.js"
import { SqlUserGroupsRepo } from "./SqlUserGroupsRepo.js"
import { SqlUsersRepo } from "./SqlUsersRepo.js"
import { UserGroups } from "./UserGroups.js"
import { Users } from "./Users.js"

const common = { apiKey: "api_key", organization: "organization_id" } as const

/** Users, their access to organizations, folders and documents, and user groups. */
export const usersDomain = defineDomain({
  name: "users",
  operations: userOperations,
  services: [Users.Default, UserGroups.Default],
  repositories: [SqlUsersRepo, SqlUserGroupsRepo],
  dataTables: [
    // The organization's members for organizationPrivate (the access rule).
    { name: "user_group_members", ...common, user: "user_id", access: true },
    {
      // Organization, folder and document access; scope_id is the document id at level "document".
      name: "user_memberships",
      ...common,
      user: "user_id",
      document: "scope_id",
      documentRowsOnly: { column: "level", value: "document" },
      documentInKey: true,
      // scope_id is the folder id at level "folder".
      folder: { column: "scope_id", rowsOnly: { column: "level", value: "folder" } },
      access: true
    },
    // The organization's user groups (their members are above).
    { name: "user_groups", ...common },
    // The user record (name, email, …), one per API key: shared by its organizations; deleted last.
    { name: "users", apiKey: "api_key", user: "user_id", json: ["metadata"], order: "last" }
  ],
  tags: [{ name: "users", description: "Users of an organization, document or folder, and deleting a user's data everywhere." }]
})
