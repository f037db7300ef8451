import * as Effect from "effect/Effect"
import type { EventListener, NewEvent } from "../events/EventListener.js"
import { ChangeFeed } from "./ChangeFeed.js"
import { Followers } from "./Followers.js"
import { RealtimeLogRepo } from "./RealtimeLogRepo.js"

/** The document an event is about: its channel `<organizationId>/<documentId>` (events/Channels.ts), if it has one. */
const documentOf = (event: NewEvent): { readonly organizationId: string; readonly documentId: string } | undefined => {
  if (event.organizationId === null) return undefined
  const prefix = `${event.organizationId}/`
  const channel = event.channels.find((c) => c.startsWith(prefix))
  return channel === undefined ? undefined : { organizationId: event.organizationId, documentId: channel.slice(prefix.length) }
}

/** Events of writes the access rule reads (access/AccessEvents.ts): for the hubs to ask again, not for users' pages. */
const isAccessEvent = (event: NewEvent) => event.type.startsWith("access.")

/** A notification made (notifications/NotificationEvents.ts): pushed to its recipients, not to the document's subscribers. */
const isNotificationEvent = (event: NewEvent) => event.type === "notification.add"

/**
 * Realtime's listener of domain events: while some server follows the key, each change's events
 * about a document are logged in the change's transaction, numbered in the document's order, and
 * every server is told the document's new last number once the change commits. Notifications are
 * not logged either: every server is told of each, and pushes it to the users it is for. Access events are
 * not logged (who was granted what is the host's business, not every subscriber's): every server
 * is told which organizations they touched, and asks its subscribers' access again (`revoked`).
 */
export class RealtimeListener extends Effect.Service<RealtimeListener>()("@atrium/core/RealtimeListener", {
  effect: Effect.gen(function*() {
    const repo = yield* RealtimeLogRepo
    const feed = yield* ChangeFeed
    const followers = yield* Followers

    const listener: EventListener = {
      name: "realtime",
      follows: followers.isFollowed,
      inTransaction: ({ apiKey, at, events }) =>
        Effect.gen(function*() {
          // Per document, in the order emitted.
          const byDocument = new Map<string, { organizationId: string; documentId: string; events: Array<NewEvent> }>()
          const accessChanged = new Set<string | null>()
          for (const event of events) {
            if (isAccessEvent(event)) {
              accessChanged.add(event.organizationId)
              continue
            }
            if (isNotificationEvent(event) && event.organizationId !== null) {
              yield* feed.publish({ kind: "notification", apiKey, organizationId: event.organizationId, notificationId: String(event.data.id) })
              continue
            }
            const document = documentOf(event)
            if (document === undefined) continue
            const key = JSON.stringify([document.organizationId, document.documentId])
            const entry = byDocument.get(key) ?? { ...document, events: [] }
            entry.events.push(event)
            byDocument.set(key, entry)
          }
          for (const { documentId, events: logged, organizationId } of byDocument.values()) {
            const seq = yield* repo.append({ apiKey, organizationId, documentId }, logged, at)
            yield* feed.publish({ kind: "change", apiKey, organizationId, documentId, seq })
          }
          for (const organizationId of accessChanged) yield* feed.publish({ kind: "access", apiKey, organizationId })
        })
    }
    return { listener }
  })
}) {}
