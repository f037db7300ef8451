import * as Schema from "effect/Schema"
import { BatchItem, BatchResult, SuccessResult } from "../protocol/Envelope.js"
import { Email, Id, Ids, JsonObject, NonEmptyIds, NonEmptyList, optional, PageSize, Text } from "../schema/Common.js"

/** Users per add, update or delete call (docs/decisions.md, "Limits": one call stays short on SQLite). */
export const MAX_USERS_PER_CALL = 100

export const AccessRole = Schema.Literal("viewer", "editor")
export type AccessRole = typeof AccessRole.Type

/** Spec (users get, update, delete) and the hosted service's users/add (docs/compatibility.md, "Users"): "provide either documentId or folderId". */
const documentOrFolder = (input: { readonly documentId?: string; readonly folderId?: string }) =>
  input.documentId === undefined || input.folderId === undefined ||
  { path: ["folderId"], message: "provide either documentId or folderId, not both" }

/** A user as written by users/add and v2 users/update (docs/compatibility.md, "Users"). */
export const UserInput = Schema.Struct(
  {
    userId: Id,
    name: optional(Text(1000)),
    email: optional(Email),
    /** Default `editor` on add; on update, the role is left as it is when omitted. */
    accessRole: optional(AccessRole),
    /** Derived from `name` when missing. */
    initial: optional(Text(16)),
    photoUrl: optional(Text(2000))
  },
  // Further fields of the SDK's User model are kept as the user's metadata.
  JsonObject
)

export const AddUsersInput = Schema.Struct({
  organizationId: Id,
  /** Accepted for compatibility: a missing organization is always created (docs/compatibility.md, "Users"). */
  createOrganization: optional(Schema.Boolean),
  documentId: optional(Id),
  createDocument: optional(Schema.Boolean),
  folderId: optional(Id),
  createFolder: optional(Schema.Boolean),
  users: NonEmptyList(UserInput, MAX_USERS_PER_CALL)
}).pipe(Schema.filter(documentOrFolder))

export const GetUsersInput = Schema.Struct({
  organizationId: Id,
  documentId: optional(Id),
  folderId: optional(Id),
  userIds: optional(Ids(30)),
  organizationUserGroupIds: optional(Ids(30)),
  allDocuments: optional(Schema.Boolean),
  /** Effective only with `allDocuments`. */
  groupByDocumentId: optional(Schema.Boolean),
  pageSize: optional(PageSize()),
  pageToken: optional(Schema.String)
}).pipe(
  Schema.filter(documentOrFolder),
  Schema.filter((input) =>
    input.allDocuments !== true || (input.documentId === undefined && input.folderId === undefined) ||
    { path: ["allDocuments"], message: "cannot be combined with documentId or folderId" }
  )
)

/** Spec v1 users/update: only name and email are updated. */
export const UpdateUsersV1Input = Schema.Struct({
  organizationId: Id,
  documentId: optional(Id),
  folderId: optional(Id),
  users: NonEmptyList(Schema.Struct({ userId: Id, name: optional(Text(1000)), email: optional(Email) }), MAX_USERS_PER_CALL)
}).pipe(Schema.filter(documentOrFolder))

/** v2 users/update: the users/add body without the create flags, `accessRole` included (docs/compatibility.md, "Users"). */
export const UpdateUsersV2Input = Schema.Struct({
  organizationId: Id,
  documentId: optional(Id),
  folderId: optional(Id),
  users: NonEmptyList(UserInput, MAX_USERS_PER_CALL)
}).pipe(Schema.filter(documentOrFolder))

export const DeleteUsersInput = Schema.Struct({
  organizationId: Id,
  documentId: optional(Id),
  folderId: optional(Id),
  userIds: NonEmptyIds(MAX_USERS_PER_CALL)
}).pipe(Schema.filter(documentOrFolder))

export const User = Schema.Struct({
  email: optional(Schema.String),
  name: optional(Schema.String),
  userId: Schema.String
}).annotations({ identifier: "User" })
export type User = typeof User.Type

/**
 * The next page token is given under both names the spec shows (docs/decisions.md, "Product rulings");
 * with allDocuments and groupByDocumentId, `data` maps document ids to users.
 */
export const UsersPage = SuccessResult(
  Schema.Union(Schema.Array(User), Schema.Record({ key: Schema.String, value: Schema.Array(User) })),
  { nextPageToken: optional(Schema.String), pageToken: optional(Schema.String) }
)

/** `id` is the user's internal id; absent for a user the API key has never added. */
const UserItem = Schema.Struct({ success: Schema.Boolean, id: optional(Schema.String), message: Schema.String })

export const UsersProcessedResult = SuccessResult(BatchResult(UserItem))

export const UsersDeletedResult = SuccessResult(BatchResult(BatchItem))
