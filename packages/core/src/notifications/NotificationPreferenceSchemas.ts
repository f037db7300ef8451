import * as Schema from "effect/Schema"
import { BatchResult, SuccessResult } from "../protocol/Envelope.js"
import { Id, NonEmptyIds, optional } from "../schema/Common.js"

/** spec "Notification preferences for a user": all activity, only activity involving the user, or nothing. */
export const Channel = Schema.Literal("ALL", "MINE", "NONE")
export type Channel = typeof Channel.Type

export const GetNotificationConfigInput = Schema.Struct({
  organizationId: Id,
  userId: Id,
  documentIds: optional(NonEmptyIds(30)),
  /** true: the user's organization-level config. */
  getOrganizationConfig: optional(Schema.Boolean)
}).pipe(Schema.filter((input) =>
  input.getOrganizationConfig === true || input.documentIds !== undefined ||
  { path: ["documentIds"], message: "is required unless getOrganizationConfig is true" }
))

export const SetNotificationConfigInput = Schema.Struct({
  organizationId: Id,
  userIds: NonEmptyIds(),
  config: Schema.Struct({ inbox: optional(Channel), email: optional(Channel), slack: optional(Channel) }).pipe(
    Schema.filter((config) =>
      config.inbox !== undefined || config.email !== undefined || config.slack !== undefined ||
      "must set at least one of inbox, email, slack"
    )
  ),
  /** Omitted: the organization level, the users' default for every document. */
  documentIds: optional(NonEmptyIds())
})

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
