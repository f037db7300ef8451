import * as Effect from "effect/Effect"
import type { CommentAnnotation } from "../comments/CommentSchemas.js"
import type { EventEnricher } from "../events/EventEnricher.js"
import type { NewEvent } from "../events/EventListener.js"
import { involvedIn } from "./CommentNotifications.js"
import type { NotificationPreferences, UsersNotificationsConfig } from "./NotificationPreferences.js"

/** A comment change's event (comments/CommentEvents.ts): its data carries the thread after the change. */
const threadOf = (event: NewEvent): CommentAnnotation | undefined =>
  (event.type.startsWith("comment.") || event.type.startsWith("comment_annotation."))
    ? event.data.commentAnnotation as CommentAnnotation | undefined
    : undefined

/**
 * Slack and the host's other channels (docs/notifications.md, "Slack and other channels"): every
 * comment event's data gains its thread's involved users' preferences, as
 * `usersDocumentNotificationsConfig` or `usersOrganizationNotificationsConfig`
 * (NotificationPreferences.usersConfigs). Involved here is every user of the thread, mentioned
 * ones included, the actor too: the host routes, so it is told everyone's (docs/decisions.md,
 * "Notifications"). One read per organization in the batch: a change touches one.
 */
export const commentEventPreferences = (preferences: NotificationPreferences): EventEnricher => ({
  name: "comment event preferences",
  enrich: (apiKey, events) => {
    const involved = events.map((event) => {
      const thread = threadOf(event)
      return thread === undefined ? undefined : { metadata: thread.metadata, userIds: involvedIn(thread, true) }
    })
    const wanted = new Map<string, { userIds: Set<string>; documentIds: Set<string> }>()
    for (const about of involved) {
      if (about === undefined) continue
      const entry = wanted.get(about.metadata.organizationId) ?? { userIds: new Set(), documentIds: new Set() }
      for (const userId of about.userIds) entry.userIds.add(userId)
      entry.documentIds.add(about.metadata.documentId)
      wanted.set(about.metadata.organizationId, entry)
    }
    if (wanted.size === 0) return Effect.succeed(events)
    return Effect.map(
      Effect.forEach(wanted, ([organizationId, { documentIds, userIds }]) =>
        Effect.map(preferences.usersConfigs(apiKey, organizationId, [...userIds], [...documentIds]), (of) => [organizationId, of] as const)),
      (read) => {
        const configsOf = new Map<string, (documentId: string, userIds: ReadonlyArray<string>) => UsersNotificationsConfig>(read)
        return events.map((event, i) => {
          const about = involved[i]
          if (about === undefined) return event
          const { documentId, organizationId } = about.metadata
          return { ...event, data: { ...event.data, ...configsOf.get(organizationId)!(documentId, about.userIds) } }
        })
      }
    )
  }
})
