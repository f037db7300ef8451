import * as Effect from "effect/Effect"
import { answer, answerPage } from "../protocol/Envelope.js"
import { defineOperation } from "../protocol/Operation.js"
import {
  AddOrganizationsInput,
  DeleteOrganizationsInput,
  BatchWithIdResult,
  DisableStateInput,
  GetOrganizationsInput,
  OrganizationsPage
} from "./OrganizationSchemas.js"
import { Organizations } from "./Organizations.js"

export const organizationOperations = [
  defineOperation({
    name: "organizations.access.disablestate.update",
    paths: ["/v1/organizations/access/disablestate/update", "/v2/organizations/access/disablestate/update"],
    auth: "apiKey",
    summary: "Disable or re-enable organizations: a disabled organization refuses reads and writes of its data.",
    input: DisableStateInput,
    output: BatchWithIdResult,
    service: Organizations,
    handler: (organizations, input, caller) =>
      Effect.map(
        organizations.updateDisabledState(caller.apiKey, input),
        answer("Updated disable state for Organization(s) successfully.")
      )
  }),
  defineOperation({
    name: "organizations.add",
    paths: ["/v2/organizations/add"],
    auth: "apiKey",
    summary: "Add organizations, or update the name and metadata of existing ones.",
    input: AddOrganizationsInput,
    output: BatchWithIdResult,
    service: Organizations,
    handler: (organizations, input, caller) =>
      Effect.map(organizations.add(caller.apiKey, input), answer("Organization(s) added successfully."))
  }),
  defineOperation({
    name: "organizations.update",
    paths: ["/v2/organizations/update"],
    auth: "apiKey",
    summary: "Update the name and metadata of existing organizations (an unknown one is reported, not created).",
    input: AddOrganizationsInput,
    output: BatchWithIdResult,
    service: Organizations,
    handler: (organizations, input, caller) =>
      Effect.map(organizations.update(caller.apiKey, input), answer("Organization(s) updated successfully."))
  }),
  defineOperation({
    name: "organizations.delete",
    paths: ["/v2/organizations/delete"],
    auth: "apiKey",
    summary: "Delete organizations and everything in them: documents, folders, comments, grants, user groups, notifications, webhook messages (the users' records stay).",
    input: DeleteOrganizationsInput,
    output: BatchWithIdResult,
    service: Organizations,
    handler: (organizations, input, caller) =>
      Effect.map(organizations.delete(caller.apiKey, input), answer("Organization(s) deleted successfully."))
  }),
  defineOperation({
    name: "organizations.get",
    paths: ["/v2/organizations/get"],
    auth: "apiKey",
    summary: "List organizations, optionally by id, a page at a time.",
    input: GetOrganizationsInput,
    output: OrganizationsPage,
    errors: ["INVALID_ARGUMENT"],
    service: Organizations,
    handler: (organizations, input, caller) =>
      Effect.map(organizations.get(caller.apiKey, input), answerPage("Organization(s) retrieved successfully.", "nextPageToken"))
  })
] as const
