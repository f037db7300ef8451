import * as Schema from "effect/Schema"
import { BatchResult, SuccessResult } from "../protocol/Envelope.js"
import { ACTOR_REFUSED, capTogether, Id, NonEmptyIds, optional, refusing } from "../schema/Common.js"

/**
 * Preferences one set call writes: every user × every document, or every user at organization
 * level (docs/decisions.md, "Limits"). Each list alone has the same cap: more could not fit.
 */
export const MAX_PREFERENCES_PER_CALL = 1000

/** spec "Notification preferences for a user": all activity, only activity involving the user, or nothing. */
export const Channel = Schema.Literal("ALL", "MINE", "NONE")
export type Channel = typeof Channel.Type

const getConfigFields = {
  organizationId: Id,
  documentIds: optional(NonEmptyIds(30)),
  /** true: the user's organization-level config. */
  getOrganizationConfig: optional(Schema.Boolean)
}

/** Either level is asked for: the organization's (getOrganizationConfig) or documents'. */
const levelAsked = (input: { readonly getOrganizationConfig?: boolean; readonly documentIds?: ReadonlyArray<string> }) =>
  input.getOrganizationConfig === true || input.documentIds !== undefined ||
  { path: ["documentIds"], message: "is required unless getOrganizationConfig is true" }

export const GetNotificationConfigInput = Schema.Struct({ ...getConfigFields, userId: Id }).pipe(Schema.filter(levelAsked))

/** The client API's config/get: the same, for the token's user. */
export const ClientGetNotificationConfigInput = refusing(getConfigFields, { userId: ACTOR_REFUSED }).pipe(Schema.filter(levelAsked))

const ChannelsInput = Schema.Struct({ inbox: optional(Channel), email: optional(Channel), slack: optional(Channel) }).pipe(
  Schema.filter((config) =>
    config.inbox !== undefined || config.email !== undefined || config.slack !== undefined ||
    "must set at least one of inbox, email, slack"
  )
)

export const SetNotificationConfigInput = Schema.Struct({
  organizationId: Id,
  userIds: NonEmptyIds(MAX_PREFERENCES_PER_CALL),
  config: ChannelsInput,
  /** Omitted: the organization level, the users' default for every document. */
  documentIds: optional(NonEmptyIds(MAX_PREFERENCES_PER_CALL))
}).pipe(
  capTogether({
    counted: "userIds × documentIds",
    max: MAX_PREFERENCES_PER_CALL,
    path: ["documentIds"],
    product: (input) => [input.userIds.length, input.documentIds?.length ?? 1]
  })
)

/** The client API's config/set: the same, for the token's user. */
export const ClientSetNotificationConfigInput = refusing({
  organizationId: Id,
  config: ChannelsInput,
  documentIds: optional(NonEmptyIds(MAX_PREFERENCES_PER_CALL))
}, { userIds: ACTOR_REFUSED })

export const NotificationConfigEntry = Schema.Struct({
  config: Schema.Struct({ inbox: Channel, email: Channel, slack: optional(Channel) }),
  metadata: Schema.Struct({
    organizationId: Schema.String,
    apiKey: Schema.String,
    /** null for the organization-level entry. */
    documentId: Schema.NullOr(Schema.String),
    userId: Schema.String
  })
}).annotations({ identifier: "NotificationConfigEntry" })
export type NotificationConfigEntry = typeof NotificationConfigEntry.Type

export const NotificationConfigsResult = SuccessResult(Schema.Array(NotificationConfigEntry))

export const NotificationConfigSetResult = SuccessResult(BatchResult(Schema.Struct({
  success: Schema.Boolean,
  userId: Schema.String,
  /** The document when exactly one was given; null at organization level or with several. */
  documentId: Schema.NullOr(Schema.String),
  /** Every document written, when documentIds were given. */
  documentIds: optional(Schema.Array(Schema.String)),
  message: Schema.String
})))
