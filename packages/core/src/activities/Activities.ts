import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { invalidArgument } from "../protocol/ApiError.js"
import { PageTokens } from "../protocol/PageTokens.js"
import { Ids } from "../ports/Ids.js"
import { lockInOrder, Transactions } from "../ports/Transactions.js"
import { Events } from "../events/Events.js"
import { aboutOrganization } from "../events/Channels.js"
import { requireActivitiesEnabled, requireActivitiesMutable } from "../workspace/ActivityServiceConfig.js"
import { SettingsRepo } from "../workspace/SettingsRepo.js"
import { ActivitiesRepo, type ActivityCursor, type ActivityFilters } from "./ActivitiesRepo.js"
import type { Activity, AddActivitiesInput, DeleteActivitiesInput, GetActivitiesInput, UpdateActivitiesInput } from "./ActivitySchemas.js"

const DEFAULT_PAGE_SIZE = 1000

/** Sorted and without duplicates: the same filter always binds a page token the same way. */
const normalized = <A extends string>(values: ReadonlyArray<A>) => Array.from(new Set(values)).sort()

/** The activity log of an organization's documents. */
export class Activities extends Effect.Service<Activities>()("@atrium/core/Activities", {
  accessors: true,
  effect: Effect.gen(function*() {
    const repo = yield* ActivitiesRepo
    const pageTokens = yield* PageTokens
    const ids = yield* Ids
    const events = yield* Events
    const { lock, withTransaction } = yield* Transactions
    const settings = yield* SettingsRepo

    return {
      /**
       * activities/add (docs/compatibility.md, "Activities and presence"). The answer is not keyed by id, so the call
       * is one transaction: every activity is written, or (on a storage failure) none, and with
       * them their events, `<featureType>.<actionType>` carrying the activity as activities/get shows it.
       * Returns the activities written, as activities/get shows them. FAILED_PRECONDITION while the
       * workspace's activity log is off (activityconfig).
       */
      add: (apiKey: string, input: typeof AddActivitiesInput.Type) =>
        Effect.gen(function*() {
          yield* requireActivitiesEnabled(settings, apiKey)
          const now = yield* Clock.currentTimeMillis
          const metadata = { apiKey, documentId: input.documentId, organizationId: input.organizationId }
          const place = aboutOrganization(input.organizationId, input.documentId)
          return yield* withTransaction(Effect.gen(function*() {
            const written = yield* Effect.forEach(input.activities, ({ id, timestamp, ...fields }) =>
              Effect.gen(function*() {
                const activity: Activity = { id: id ?? (yield* ids.make()), ...fields, metadata, timestamp: timestamp ?? now }
                yield* repo.put(activity)
                return activity
              }))
            yield* events.emit(apiKey, written.map((activity) => ({
              type: `${activity.featureType}.${activity.actionType}`,
              data: activity,
              ...place
            })))
            return written
          }))
        }),

      /** Spec activities/get: filters combine; keyset pages over (timestamp, id). */
      get: (apiKey: string, input: typeof GetActivitiesInput.Type) =>
        Effect.gen(function*() {
          const limit = input.pageSize ?? DEFAULT_PAGE_SIZE
          const order = input.order ?? "desc"
          const filters: ActivityFilters = {
            ...(input.documentId !== undefined && { documentId: input.documentId }),
            ...(input.targetEntityId !== undefined && { targetEntityId: input.targetEntityId }),
            ...(input.featureTypes && { featureTypes: normalized(input.featureTypes) }),
            ...(input.actionTypes && { actionTypes: normalized(input.actionTypes) }),
            ...(input.userId !== undefined && { userId: input.userId }),
            ...(input.activityIds && { ids: normalized(input.activityIds) })
          }
          const scope = { apiKey, operation: "activities.get", filters: { organizationId: input.organizationId, order, ...filters } }
          return yield* pageTokens.page({
            scope,
            token: input.pageToken,
            limit,
            read: (after: ActivityCursor | undefined, limit) =>
              repo.page(apiKey, input.organizationId, filters, { order, limit, ...(after && { after }) }),
            cursorOf: (activity): ActivityCursor => ({ timestamp: activity.timestamp, id: activity.id }),
            present: (page) => page
          })
        }),

      /**
       * activities/delete (compatibility facts §1.8): the organization's activities the filters pick (they
       * combine), answered per activity id: each one named (`activityIds`) and each one removed. A named one not
       * removed (unknown, another document's) is "Failed to delete activity.", so a repeated call removes nothing.
       * Without a filter: INVALID_ARGUMENT (the whole organization's log goes with organizations/delete).
       * FAILED_PRECONDITION while the log is immutable (activityconfig).
       */
      delete: (apiKey: string, input: typeof DeleteActivitiesInput.Type) =>
        Effect.gen(function*() {
          const { activityIds, documentId, organizationId, targetEntityId } = input
          if (documentId === undefined && activityIds === undefined && targetEntityId === undefined) {
            return yield* invalidArgument("At least one of documentId, activityIds or targetEntityId must be provided.")
          }
          yield* requireActivitiesMutable(settings, apiKey)
          const removed = yield* withTransaction(Effect.gen(function*() {
            // Named ones under update's locks: an update that read one does not write it back after it went.
            yield* lockInOrder(lock, (activityIds ?? []).map((id) => ["activity", apiKey, organizationId, id]))
            return yield* repo.delete(apiKey, organizationId, {
              ...(documentId !== undefined && { documentId }),
              ...(targetEntityId !== undefined && { targetEntityId }),
              ...(activityIds !== undefined && { ids: activityIds })
            })
          }))
          const data: Record<string, { success: boolean; message: string }> = {}
          for (const id of activityIds ?? []) data[id] = { success: false, message: "Failed to delete activity." }
          for (const id of removed) data[id] = { success: true, message: "Activity deleted." }
          return data
        }),

      /**
       * Spec activities/update: each item a savepoint in the call's transaction; an unknown id (or
       * one of another organization or API key) fails only that item. Each is a merge: concurrent
       * updates apply one after the other, under the activity's lock, every one of the call's taken
       * first in one order (`lockInOrder`: two calls naming the same ones in other orders would each
       * wait for the other). FAILED_PRECONDITION while the log is immutable (activityconfig).
       */
      update: (apiKey: string, input: typeof UpdateActivitiesInput.Type) =>
        withTransaction(Effect.gen(function*() {
          yield* requireActivitiesMutable(settings, apiKey)
          yield* lockInOrder(lock, input.activities.map(({ id }) => ["activity", apiKey, input.organizationId, id]))
          const data: Record<string, { success: boolean; message: string }> = {}
          for (const { id, ...fields } of input.activities) {
            data[id] = yield* withTransaction(Effect.gen(function*() {
              const existing = yield* repo.find(apiKey, input.organizationId, id)
              // An UPDATE, not put's upsert: an activity a delete by filter removed meanwhile (it takes no id locks) stays gone.
              const updated = existing !== undefined && (yield* repo.updateRecord({ ...existing, ...fields }))
              return updated ? { success: true, message: "Activity updated." } : { success: false, message: "Failed to update activity." }
            }))
          }
          return data
        }))
    }
  })
}) {}
