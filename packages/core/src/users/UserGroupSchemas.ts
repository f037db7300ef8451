import * as Schema from "effect/Schema"
import { BatchItemWithId, BatchResult, SuccessResult } from "../protocol/Envelope.js"
import { Id, NonEmptyIds, NonEmptyList, optional, Text } from "../schema/Common.js"

/** Groups, or users, per user-group call (docs/decisions.md, "Limits": one call stays short on SQLite). */
export const MAX_GROUP_ENTRIES_PER_CALL = 100

export const AddUserGroupsInput = Schema.Struct({
  organizationId: Id,
  createOrganization: optional(Schema.Boolean),
  organizationUserGroups: NonEmptyList(Schema.Struct({ groupId: Id, groupName: Text(1000) }), MAX_GROUP_ENTRIES_PER_CALL)
})

export const AddGroupUsersInput = Schema.Struct({
  organizationId: Id,
  organizationUserGroupId: Id,
  userIds: NonEmptyIds(MAX_GROUP_ENTRIES_PER_CALL)
})

export const DeleteGroupUsersInput = Schema.Struct({
  organizationId: Id,
  organizationUserGroupId: Id,
  userIds: optional(NonEmptyIds(MAX_GROUP_ENTRIES_PER_CALL)),
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
