import * as Schema from "effect/Schema"
import { SuccessResult } from "../protocol/Envelope.js"
import { capTogether, Id, Ids, NonEmptyIds, NonEmptyList, optional } from "../schema/Common.js"
import { TokenResourceInput } from "../tokens/TokenSchemas.js"

/**
 * auth/permissions/* and auth/generate_signature, per the hosted service's facts
 * (compatible-api-facts.md §1.5); rulings in docs/decisions.md, "Access".
 */

/** Resources per permissions/add or remove call, and permissions per generate_signature: as per token. */
export const MAX_PERMISSION_RESOURCES = 100
/** Users and resources per permissions/get: the facts' filter size. */
export const MAX_PERMISSION_QUERY_IDS = 30
/** Decisions per permissions/get (each user on each folder and document): a few reads each keep one call short on SQLite. */
export const MAX_PERMISSION_CHECKS = 300

const AccessRole = Schema.Literal("viewer", "editor")

/** What the facts answer beside `message` when there is no `data`. */
export const MessageResult = Schema.Struct({ status: Schema.Literal("success"), message: Schema.String })

/** permissions/add: the user, and resources as a token's entries (`expiresAt` in seconds or ms). */
export const AddPermissionsInput = Schema.Struct({
  user: Schema.Struct({ userId: Id }),
  permissions: Schema.Struct({ resources: NonEmptyList(TokenResourceInput, MAX_PERMISSION_RESOURCES) })
})

/** A resource a grant is removed from: `organizationId` required for documents and folders, as on add. */
const ResourceRef = Schema.Union(
  Schema.Struct({ type: Schema.Literal("organization"), id: Id, organizationId: optional(Id) }),
  ...(["document", "folder"] as const).map((type) =>
    Schema.Struct({
      type: Schema.Literal(type),
      id: Id,
      organizationId: Schema.propertySignature(Id).annotations({ missingMessage: () => `is required when type is ${type}` })
    })
  )
)

/** permissions/remove: `userId` at the top level here (the facts), not under `user`. */
export const RemovePermissionsInput = Schema.Struct({
  userId: Id,
  permissions: Schema.Struct({ resources: NonEmptyList(ResourceRef, MAX_PERMISSION_RESOURCES) })
})

export const GetPermissionsInput = Schema.Struct({
  organizationId: Id,
  userIds: NonEmptyIds(MAX_PERMISSION_QUERY_IDS),
  folderIds: optional(Ids(MAX_PERMISSION_QUERY_IDS)),
  documentIds: optional(Ids(MAX_PERMISSION_QUERY_IDS))
}).pipe(
  capTogether({
    counted: "userIds × (folderIds + documentIds)",
    max: MAX_PERMISSION_CHECKS,
    path: ["userIds"],
    product: (input) => [input.userIds.length, (input.folderIds?.length ?? 0) + (input.documentIds?.length ?? 0)]
  })
)

const AccessTypeValue = Schema.Literal("public", "organizationPrivate", "restricted")

/** A resource the user may not use: the facts' denied item. */
const Denied = Schema.Struct({
  error: Schema.String,
  errorCode: Schema.Literal("permission_denied", "does_not_exist", "something_went_wrong"),
  accessType: optional(AccessTypeValue)
})

const Granted = Schema.Struct({ accessRole: AccessRole, accessType: AccessTypeValue, expiresAt: optional(Schema.Number) })

export const UserPermissions = Schema.Struct({
  organization: optional(Schema.Record({ key: Schema.String, value: Schema.Union(Schema.Struct({ accessRole: AccessRole, expiresAt: optional(Schema.Number) }), Denied) })),
  folders: optional(Schema.Record({ key: Schema.String, value: Schema.Union(Granted, Denied) })),
  documents: optional(Schema.Record({ key: Schema.String, value: Schema.Union(Granted, Denied) }))
}).annotations({ identifier: "UserPermissions" })
export type UserPermissions = typeof UserPermissions.Type

export const GetPermissionsResult = SuccessResult(Schema.Record({ key: Schema.String, value: UserPermissions }))

/** generate_signature: what a permission provider answers, to be signed. */
export const SignedPermission = Schema.Struct({
  userId: Id,
  resourceId: Id,
  type: Schema.Literal("organization", "folder", "document", "context"),
  hasAccess: Schema.Boolean,
  accessRole: optional(AccessRole),
  /** Epoch ms (the facts: generate_signature takes ms). */
  expiresAt: optional(Schema.Number)
})

export const GenerateSignatureInput = Schema.Struct({
  permissions: NonEmptyList(SignedPermission, MAX_PERMISSION_RESOURCES)
})

export const GenerateSignatureResult = SuccessResult(Schema.Struct({ signature: Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/)) }))
