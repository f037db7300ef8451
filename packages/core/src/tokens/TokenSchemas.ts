import * as Arbitrary from "effect/Arbitrary"
import * as Schema from "effect/Schema"
import { SuccessResult } from "../protocol/Envelope.js"
import { Email, Id, IntRange, List, MAX_EPOCH_MILLIS, NonEmptyText, optional } from "../schema/Common.js"
import { normalizeExpiresAt, TOKEN_LIFETIME_SECONDS } from "./Jwt.js"

/** Resources per token: the spec names no limit; 100 keeps a token (sent with every client call) small. */
export const MAX_TOKEN_RESOURCES = 100

const AccessRole = Schema.Literal("viewer", "editor")

/** Seconds or milliseconds (below 10^12 is seconds: docs/decisions.md, "Product rulings"); stored in the token as ms. */
const ExpiresAt = Schema.Number.pipe(
  Schema.nonNegative({ message: () => "must be a Unix timestamp (not negative)" }),
  Schema.filter(
    (value) => normalizeExpiresAt(value) <= MAX_EPOCH_MILLIS || "must be before the year 10000 (in seconds below 10^12, else in milliseconds)",
    { jsonSchema: { maximum: MAX_EPOCH_MILLIS } }
  )
)

/** An `organization` entry: `organizationId` may be given (it is the entry's own id's organization). */
const OrganizationResource = Schema.Struct({
  type: Schema.Literal("organization"),
  id: Id,
  organizationId: optional(Id),
  accessRole: optional(AccessRole),
  expiresAt: optional(ExpiresAt)
})

/** A `document` or `folder` entry: the spec requires its `organizationId`, so the published schema does too. */
const ResourceInOrganization = (type: "document" | "folder") =>
  Schema.Struct({
    type: Schema.Literal(type),
    id: Id,
    organizationId: Schema.propertySignature(Id).annotations({ missingMessage: () => `is required when type is ${type}` }),
    accessRole: optional(AccessRole),
    expiresAt: optional(ExpiresAt)
  })

/**
 * Spec "Token permission resource": one variant per `type`, so that the rule "organizationId is
 * required when type is document or folder" is the schema's, and the OpenAPI document states it.
 */
export const TokenResourceInput = Schema.Union(
  OrganizationResource,
  ResourceInOrganization("document"),
  ResourceInOrganization("folder")
)

/** What userProperties takes. */
const userProperties = {
  isAdmin: optional(Schema.Boolean),
  name: NonEmptyText(1000),
  email: Email
}

/**
 * Spec: `organizationId` must not be placed in userProperties. Declared as a key no value fits
 * (`not: {}` in the OpenAPI document, `never` in generated clients), with a message that says where it goes.
 */
const RefusedOrganizationId = Schema.Never.annotations({
  description: "Not accepted: add an `organization` entry to permissions.resources.",
  message: () => "does not belong in userProperties: add it to permissions.resources as an entry of type \"organization\"",
  // Effect's Arbitrary builds every part, even under the struct's own annotation below.
  arbitrary: () => (fc) => fc.constant(undefined as never)
})

export const UserPropertiesInput = Schema.Struct({ ...userProperties, organizationId: optional(RefusedOrganizationId) }).annotations({
  // Samples (tests) of what is accepted: Effect's Arbitrary would give the refused key a value.
  arbitrary: () => () => Arbitrary.make(Schema.Struct(userProperties))
})

export const GenerateTokenInput = Schema.Struct({
  userId: Id,
  userProperties: UserPropertiesInput,
  permissions: Schema.Struct({
    resources: List(TokenResourceInput, MAX_TOKEN_RESOURCES)
  }),
  /** DECISIONS.md, "Client API and realtime": hosts may issue shorter-lived tokens (default and most: 48 hours). */
  expiresInSeconds: optional(IntRange(60, TOKEN_LIFETIME_SECONDS).annotations({ description: "Seconds until the token expires (60 to 172,800; default 172,800, 48 hours)." }))
})

/**
 * v1 auth/token/get (compatibility facts §1.1): the key's credentials in the body, no auth headers;
 * the user's organization in userProperties. `name` is taken besides the facts' fields (a token
 * carries the user's name; the user id when omitted).
 */
export const GetTokenV1Input = Schema.Struct({
  apiKey: Id,
  authToken: NonEmptyText(1000),
  userId: Id,
  userProperties: Schema.Struct({
    organizationId: Id,
    isAdmin: optional(Schema.Boolean),
    email: Email,
    name: optional(NonEmptyText(1000))
  })
})

export const GenerateTokenResult = SuccessResult(Schema.Struct({ token: Schema.String }))
