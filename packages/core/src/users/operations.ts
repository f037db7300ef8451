import * as Effect from "effect/Effect"
import { answer } from "../protocol/Envelope.js"
import { defineOperation } from "../protocol/Operation.js"
import {
  AddGroupUsersInput,
  AddUserGroupsInput,
  DeleteGroupUsersInput,
  GroupUsersResult,
  UserGroupsAddedResult
} from "./UserGroupSchemas.js"
import { UserGroups } from "./UserGroups.js"
import {
  AddUsersInput,
  DeleteUsersInput,
  GetUsersInput,
  UpdateUsersV1Input,
  UpdateUsersV2Input,
  UsersDeletedResult,
  UsersPage,
  UsersProcessedResult
} from "./UserSchemas.js"
import { Users, type UsersListing } from "./Users.js"

const retrieved = answer("User(s) retrieved successfully.")

/** users/get gives the next page's token under both names the spec shows (docs/decisions.md, "Product rulings"). */
const usersPage = ({ items, next }: UsersListing) =>
  next === undefined ? retrieved(items) : { ...retrieved(items), nextPageToken: next, pageToken: next }

export const userOperations = [
  defineOperation({
    name: "users.add",
    paths: ["/v1/users/add", "/v2/users/add"],
    auth: "apiKey",
    summary: "Add users to an organization, or to one document or folder of it, with an access role.",
    input: AddUsersInput,
    output: UsersProcessedResult,
    errors: ["NOT_FOUND"],
    organization: (input) => input.organizationId,
    service: Users,
    handler: (users, input, caller) => Effect.map(users.add(caller.apiKey, input), answer("User(s) processed successfully."))
  }),
  defineOperation({
    name: "users.get",
    paths: ["/v2/users/get"],
    auth: "apiKey",
    summary: "List the users of an organization, a document, a folder or all documents, filtered by ids and groups.",
    input: GetUsersInput,
    output: UsersPage,
    errors: ["INVALID_ARGUMENT"],
    organization: (input) => input.organizationId,
    service: Users,
    handler: (users, input, caller) => Effect.map(users.get(caller.apiKey, input), usersPage)
  }),
  defineOperation({
    name: "users.update.v1",
    paths: ["/v1/users/update"],
    auth: "apiKey",
    summary: "Update users' name and email in an organization, document or folder.",
    input: UpdateUsersV1Input,
    output: UsersProcessedResult,
    organization: (input) => input.organizationId,
    service: Users,
    handler: (users, input, caller) => Effect.map(users.update(caller.apiKey, input), answer("User(s) processed successfully."))
  }),
  defineOperation({
    name: "users.update",
    paths: ["/v2/users/update"],
    auth: "apiKey",
    summary: "Update users' details and access role in an organization, document or folder.",
    input: UpdateUsersV2Input,
    output: UsersProcessedResult,
    organization: (input) => input.organizationId,
    service: Users,
    handler: (users, input, caller) => Effect.map(users.update(caller.apiKey, input), answer("User(s) processed successfully."))
  }),
  defineOperation({
    name: "users.delete",
    paths: ["/v2/users/delete"],
    auth: "apiKey",
    summary: "Remove users from an organization (all its documents, folders and groups), a document or a folder.",
    input: DeleteUsersInput,
    output: UsersDeletedResult,
    organization: (input) => input.organizationId,
    service: Users,
    handler: (users, input, caller) => Effect.map(users.delete(caller.apiKey, input), answer("User(s) deleted successfully."))
  }),
  defineOperation({
    name: "organizations.usergroups.add",
    paths: ["/v2/organizations/usergroups/add"],
    auth: "apiKey",
    summary: "Add organization user groups, or rename existing ones.",
    input: AddUserGroupsInput,
    output: UserGroupsAddedResult,
    errors: ["NOT_FOUND"],
    organization: (input) => input.organizationId,
    service: UserGroups,
    handler: (userGroups, input, caller) =>
      Effect.map(userGroups.add(caller.apiKey, input), answer("Organization User Groups added successfully."))
  }),
  defineOperation({
    name: "organizations.usergroups.users.add",
    paths: ["/v2/organizations/usergroups/users/add"],
    auth: "apiKey",
    summary: "Add users to an organization user group.",
    input: AddGroupUsersInput,
    output: GroupUsersResult,
    errors: ["NOT_FOUND"],
    organization: (input) => input.organizationId,
    service: UserGroups,
    handler: (userGroups, input, caller) =>
      Effect.map(userGroups.addUsers(caller.apiKey, input), answer("Added organization users to group successfully."))
  }),
  defineOperation({
    name: "organizations.usergroups.users.delete",
    paths: ["/v2/organizations/usergroups/users/delete"],
    auth: "apiKey",
    summary: "Remove users, or every user (deleteAll), from an organization user group.",
    input: DeleteGroupUsersInput,
    output: GroupUsersResult,
    errors: ["NOT_FOUND"],
    organization: (input) => input.organizationId,
    service: UserGroups,
    handler: (userGroups, input, caller) =>
      Effect.map(userGroups.deleteUsers(caller.apiKey, input), answer("Deleted users from group successfully."))
  })
] as const
