import * as Schema from "effect/Schema"
import { BatchItemWithId, BatchResult, SuccessResult } from "../protocol/Envelope.js"
import { Id, NonEmptyIds, optional, Text } from "../schema/Common.js"

export const AddUserGroupsInput = Schema.Struct({
  organizationId: Id,
  createOrganization: optional(Schema.Boolean),
  organizationUserGroups: Schema.Array(Schema.Struct({ groupId: Id, groupName: Text(1000) })).pipe(
    Schema.minItems(1, { message: () => "must have at least 1 entry" })
  )
})

export const AddGroupUsersInput = Schema.Struct({
  organizationId: Id,
  organizationUserGroupId: Id,
  userIds: NonEmptyIds()
})

export const DeleteGroupUsersInput = Schema.Struct({
  organizationId: Id,
  organizationUserGroupId: Id,
  userIds: optional(NonEmptyIds()),
  /** true: every member leaves the group. */
  deleteAll: optional(Schema.Boolean)
}).pipe(Schema.filter((input) =>
  input.deleteAll === true || input.userIds !== undefined ||
  { path: ["userIds"], message: "is required unless deleteAll is true" }
))

export const UserGroupsAddedResult = SuccessResult(BatchResult(BatchItemWithId))

export const GroupUsersResult = SuccessResult(BatchResult(Schema.Struct({
  success: Schema.Boolean,
  organizationUserGroupId: Schema.String,
  message: Schema.String
})))
