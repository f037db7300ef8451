import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MemoryDb } from "../testing/memory/MemoryDb.js"
import { type NotificationPreferenceRow, NotificationPreferencesRepo } from "./NotificationPreferencesRepo.js"

export const MemoryNotificationPreferencesRepo = Layer.effect(
  NotificationPreferencesRepo,
  Effect.gen(function*() {
    const table = (yield* MemoryDb).table<NotificationPreferenceRow>("notification_preferences")
    const key = (r: NotificationPreferenceRow) => `${r.apiKey}\n${r.organizationId}\n${r.userId}\n${r.documentId ?? ""}`
    return {
      list: (apiKey, organizationId, userId, documentIds) =>
        Effect.sync(() =>
          table.values().filter((r) =>
            r.apiKey === apiKey && r.organizationId === organizationId && r.userId === userId &&
            (r.documentId === null || documentIds.includes(r.documentId))
          )
        ),
      put: (r) => Effect.sync(() => table.set(key(r), r))
    }
  })
)
