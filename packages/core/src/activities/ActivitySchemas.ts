import * as Schema from "effect/Schema"
import { BatchItem, BatchResult, SuccessResult } from "../protocol/Envelope.js"
import { Email, EpochMillis, Id, JsonObject, NonEmptyIds, NonEmptyList, optional, PageSize, Text } from "../schema/Common.js"

/** Activities per add or update call (docs/decisions.md, "Limits": one call stays short on SQLite). */
export const MAX_ACTIVITIES_PER_CALL = 100

export const FeatureType = Schema.Literal("comment", "reaction", "recorder", "crdt", "custom")
export type FeatureType = typeof FeatureType.Type

export const Order = Schema.Literal("asc", "desc")
export type Order = typeof Order.Type

const ActionUser = Schema.Struct({
  userId: Id,
  name: optional(Text(1000)),
  email: optional(Email)
})

/** Spec, Activity log record: a map of field name to `{from, to}`. */
const Changes = Schema.Record({
  key: Schema.String,
  value: Schema.Struct({ from: optional(Schema.Unknown), to: optional(Schema.Unknown) })
})

/** The fields activities/update may change (spec); activities/add sets them too. */
const updatableFields = {
  changes: optional(Changes),
  entityData: optional(Schema.Unknown),
  entityTargetData: optional(Schema.Unknown),
  displayMessageTemplate: optional(Text(10_000)),
  displayMessageTemplateData: optional(JsonObject),
  actionIcon: optional(Text(2048))
}

export const ActivityInput = Schema.Struct({
  /** Omitted: generated. An existing id is overwritten, as by the hosted service. */
  id: optional(Id),
  featureType: FeatureType,
  actionType: Id,
  actionUser: ActionUser,
  targetEntityId: optional(Id),
  targetSubEntityId: optional(Id),
  ...updatableFields,
  isActivityResolverUsed: optional(Schema.Boolean),
  /** ms; omitted: now. */
  timestamp: optional(EpochMillis)
}).pipe(
  Schema.filter((activity) =>
    activity.featureType !== "custom" || activity.targetEntityId !== undefined ||
    { path: ["targetEntityId"], message: "is required when featureType is custom" }
  )
)

export const AddActivitiesInput = Schema.Struct({
  organizationId: Id,
  documentId: Id,
  activities: NonEmptyList(ActivityInput, MAX_ACTIVITIES_PER_CALL)
})

export const GetActivitiesInput = Schema.Struct({
  organizationId: Id,
  documentId: optional(Id),
  targetEntityId: optional(Id),
  /** At most one of each. */
  featureTypes: optional(NonEmptyList(FeatureType, FeatureType.literals.length)),
  actionTypes: optional(NonEmptyIds(1000)),
  /** The acting user. */
  userId: optional(Id),
  activityIds: optional(NonEmptyIds(1000)),
  /** By timestamp; default desc. */
  order: optional(Order),
  pageSize: optional(PageSize()),
  pageToken: optional(Schema.String)
})

export const ActivityUpdate = Schema.Struct({ id: Id, ...updatableFields })

export const UpdateActivitiesInput = Schema.Struct({
  organizationId: Id,
  activities: NonEmptyList(ActivityUpdate, MAX_ACTIVITIES_PER_CALL)
})

/** activities/delete: the filters combine; at least one is required (the service says so). */
export const DeleteActivitiesInput = Schema.Struct({
  organizationId: Id,
  documentId: optional(Id),
  activityIds: optional(NonEmptyIds(MAX_ACTIVITIES_PER_CALL)),
  targetEntityId: optional(Id)
})

/** The spec's Activity log record, as stored and as returned. */
export const Activity = Schema.Struct({
  id: Schema.String,
  featureType: FeatureType,
  actionType: Schema.String,
  actionUser: Schema.Struct({ userId: Schema.String, name: optional(Schema.String), email: optional(Schema.String) }),
  targetEntityId: optional(Schema.String),
  targetSubEntityId: optional(Schema.String),
  metadata: Schema.Struct({ apiKey: Schema.String, documentId: Schema.String, organizationId: Schema.String }),
  timestamp: Schema.Number,
  ...updatableFields,
  isActivityResolverUsed: optional(Schema.Boolean)
}).annotations({ identifier: "Activity" })
export type Activity = typeof Activity.Type

export const AddActivitiesResult = SuccessResult(Schema.Struct({ success: Schema.Boolean, message: Schema.String }))

export const ActivitiesPage = SuccessResult(Schema.Array(Activity), { pageToken: optional(Schema.String) })

export const UpdateActivitiesResult = SuccessResult(BatchResult(BatchItem))
