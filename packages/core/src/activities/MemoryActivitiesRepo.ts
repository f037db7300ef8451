import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MemoryDb } from "../testing/memory/MemoryDb.js"
import { compareText } from "../TextOrder.js"
import { ActivitiesRepo, type ActivityCursor, type ActivityFilters } from "./ActivitiesRepo.js"
import type { Activity } from "./ActivitySchemas.js"

/** Ascending (timestamp, id) comparison, the order of the SQL indexes. */
const compare = (a: ActivityCursor, b: ActivityCursor) =>
  a.timestamp !== b.timestamp ? a.timestamp - b.timestamp : compareText(a.id, b.id)

const matches = (activity: Activity, filters: ActivityFilters) =>
  (filters.documentId === undefined || activity.metadata.documentId === filters.documentId) &&
  (filters.targetEntityId === undefined || activity.targetEntityId === filters.targetEntityId) &&
  (filters.featureTypes === undefined || filters.featureTypes.includes(activity.featureType)) &&
  (filters.actionTypes === undefined || filters.actionTypes.includes(activity.actionType)) &&
  (filters.userId === undefined || activity.actionUser.userId === filters.userId) &&
  (filters.ids === undefined || filters.ids.includes(activity.id))

export const MemoryActivitiesRepo = Layer.effect(
  ActivitiesRepo,
  Effect.gen(function*() {
    const table = (yield* MemoryDb).table<Activity>("activities")
    const key = (apiKey: string, organizationId: string, id: string) => `${apiKey}\n${organizationId}\n${id}`
    return {
      put: (a) => Effect.sync(() => table.set(key(a.metadata.apiKey, a.metadata.organizationId, a.id), a)),
      find: (apiKey, organizationId, id) => Effect.sync(() => table.get(key(apiKey, organizationId, id))),
      page: (apiKey, organizationId, filters, { after, limit, order }) =>
        Effect.sync(() => {
          const sign = order === "asc" ? 1 : -1
          return table.values()
            .filter((a) =>
              a.metadata.apiKey === apiKey && a.metadata.organizationId === organizationId && matches(a, filters) &&
              (after === undefined || sign * compare(a, after) > 0)
            )
            .sort((a, b) => sign * compare(a, b))
            .slice(0, limit)
        })
    }
  })
)
