import * as Schema from "effect/Schema"
import { BatchItemWithId, BatchResult, SuccessResult } from "../protocol/Envelope.js"
import { Id, Ids, JsonObject, NonEmptyIds, NonEmptyList, optional, PageSize, Text } from "../schema/Common.js"

/** Organizations per add or disable-state call (docs/decisions.md, "Limits": one call stays short on SQLite). */
export const MAX_ORGANIZATIONS_PER_CALL = 100

export const DisableStateInput = Schema.Struct({
  organizationIds: NonEmptyIds(MAX_ORGANIZATIONS_PER_CALL),
  disabled: Schema.Boolean
})

/**
 * Organizations per organizations/delete call (docs/decisions.md, "Limits"): each goes whole, every
 * table in one transaction, so one call stays bounded by what ten organizations hold.
 */
export const MAX_ORGANIZATIONS_PER_DELETE = 10

export const DeleteOrganizationsInput = Schema.Struct({
  organizationIds: NonEmptyIds(MAX_ORGANIZATIONS_PER_DELETE)
})

export const OrganizationInput = Schema.Struct(
  {
    organizationId: Id,
    organizationName: optional(Text(1000))
  },
  // Further fields are the caller's own metadata, kept and returned as given.
  JsonObject
)

export const AddOrganizationsInput = Schema.Struct({
  organizations: NonEmptyList(OrganizationInput, MAX_ORGANIZATIONS_PER_CALL)
})

export const GetOrganizationsInput = Schema.Struct({
  organizationIds: optional(Ids(30)),
  pageSize: optional(PageSize()),
  pageToken: optional(Schema.String)
})

export const Organization = Schema.Struct(
  { id: Schema.String, organizationName: Schema.String, disabled: Schema.Boolean },
  JsonObject
).annotations({ identifier: "Organization" })
export type Organization = typeof Organization.Type

export const BatchWithIdResult = SuccessResult(BatchResult(BatchItemWithId))

export const OrganizationsPage = SuccessResult(Schema.Array(Organization), {
  nextPageToken: optional(Schema.String)
})

