import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { Activity, FeatureType, Order } from "./ActivitySchemas.js"

/** Filters of activities/get; every one given must match. */
export interface ActivityFilters {
  readonly documentId?: string
  readonly targetEntityId?: string
  readonly featureTypes?: ReadonlyArray<FeatureType>
  readonly actionTypes?: ReadonlyArray<string>
  /** The acting user (`actionUser.userId`). */
  readonly userId?: string
  readonly ids?: ReadonlyArray<string>
}

/** Position of the last row of a page: activities are ordered by (timestamp, id). */
export interface ActivityCursor {
  readonly timestamp: number
  readonly id: string
}

/**
 * Storage port: the activity log of an organization. The API key and
 * organization of a record are its `metadata.apiKey` and `metadata.organizationId`.
 */
export class ActivitiesRepo extends Context.Tag("@atrium/core/ActivitiesRepo")<ActivitiesRepo, {
  /** Inserts, or replaces the record with the same key, organization and id. */
  readonly put: (activity: Activity) => Effect.Effect<void>
  /** Writes an existing activity's record (its display and change fields); false when it is gone: nothing is written. */
  readonly updateRecord: (activity: Activity) => Effect.Effect<boolean>
  readonly find: (apiKey: string, organizationId: string, id: string) => Effect.Effect<Activity | undefined>
  /** Removes the organization's activities these filters pick (they combine); the ids removed. */
  readonly delete: (
    apiKey: string,
    organizationId: string,
    filters: Pick<ActivityFilters, "documentId" | "targetEntityId" | "ids">
  ) => Effect.Effect<ReadonlyArray<string>>
  /** Keyset page ordered by (timestamp, id) in `order`, strictly after `after`. */
  readonly page: (
    apiKey: string,
    organizationId: string,
    filters: ActivityFilters,
    options: { readonly order: Order; readonly after?: ActivityCursor; readonly limit: number }
  ) => Effect.Effect<ReadonlyArray<Activity>>
}>() {}
