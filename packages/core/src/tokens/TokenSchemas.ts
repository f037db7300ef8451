import * as Schema from "effect/Schema"
import { SuccessResult } from "../protocol/Envelope.js"
import { Email, Id, List, MAX_EPOCH_MILLIS, NonEmptyText, optional } from "../schema/Common.js"
import { normalizeExpiresAt } from "./Jwt.js"

/** Resources per token: the spec names no limit; 100 keeps a token (sent with every client call) small. */
export const MAX_TOKEN_RESOURCES = 100

/** Spec "Token permission resource". */
export const TokenResourceInput = Schema.Struct({
  type: Schema.Literal("organization", "document", "folder"),
  id: Id,
  organizationId: optional(Id),
  accessRole: optional(Schema.Literal("viewer", "editor")),
  /** Seconds or milliseconds (below 10^12 is seconds: docs/decisions.md, "Product rulings"); stored in the token as ms. */
  expiresAt: optional(Schema.Number.pipe(
    Schema.nonNegative({ message: () => "must be a Unix timestamp (not negative)" }),
    Schema.filter(
      (value) => normalizeExpiresAt(value) <= MAX_EPOCH_MILLIS || "must be before the year 10000 (in seconds below 10^12, else in milliseconds)",
      { jsonSchema: { maximum: MAX_EPOCH_MILLIS } }
    )
  ))
}).pipe(
  Schema.filter((resource) =>
    resource.type === "organization" || resource.organizationId !== undefined ||
    { path: ["organizationId"], message: `is required when type is ${resource.type}` }
  )
)

export const UserPropertiesInput = Schema.Struct({
  isAdmin: optional(Schema.Boolean),
  name: NonEmptyText(1000),
  email: Email,
  // Declared only to refuse it with a message that says where it goes (spec: generate_token).
  organizationId: optional(Schema.Unknown.annotations({ description: "Not accepted: add an `organization` entry to permissions.resources." }))
}).pipe(
  Schema.filter((properties) =>
    properties.organizationId === undefined || {
      path: ["organizationId"],
      message: "does not belong in userProperties: add it to permissions.resources as an entry of type \"organization\""
    }
  )
)

export const GenerateTokenInput = Schema.Struct({
  userId: Id,
  userProperties: UserPropertiesInput,
  permissions: Schema.Struct({
    resources: List(TokenResourceInput, MAX_TOKEN_RESOURCES)
  })
})

export const GenerateTokenResult = SuccessResult(Schema.Struct({ token: Schema.String }))
