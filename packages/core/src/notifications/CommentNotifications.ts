import * as Effect from "effect/Effect"
import { type AccessJudge, DocumentAccess } from "../access/DocumentAccess.js"
import type { CommentAnnotation } from "../comments/CommentSchemas.js"
import { threadsSeenBy } from "../comments/ThreadReaders.js"
import type { EventListener, NewEvent } from "../events/EventListener.js"
import { Ids } from "../ports/Ids.js"
import { storedNotificationService } from "../workspace/NotificationServiceConfig.js"
import { SettingsRepo } from "../workspace/SettingsRepo.js"
import { notificationAdded } from "./NotificationEvents.js"
import type { NotificationRecord, NotificationRow } from "./NotificationsRepo.js"
import { NotificationsRepo } from "./NotificationsRepo.js"

/**
 * The comment changes that notify, each with the notification-service trigger that turns it off
 * (`triggers.comment.<name>: false`, docs/decisions.md "Notifications") and its headline.
 */
const NOTIFYING: Readonly<Record<string, { readonly trigger: string; readonly headline: string }>> = {
  "comment_annotation.add": { trigger: "add", headline: "{actionUser} started a comment thread" },
  "comment.add": { trigger: "reply", headline: "{actionUser} replied to a comment thread" },
  "comment_annotation.assign": { trigger: "assign", headline: "{actionUser} assigned a comment thread" },
  "comment_annotation.status_change": { trigger: "statusChange", headline: "{actionUser} changed the status of a comment thread" }
}

/** The notification-service trigger of a comment notification's kind (its `actionType`); undefined for others (a host's). */
export const triggerOf = (actionType: string | undefined): string | undefined =>
  actionType === undefined ? undefined : NOTIFYING[actionType]?.trigger

/**
 * Who is involved in a thread (docs/notifications.md): its comments' authors, the users its
 * comments mention, and its assignee; `mentions` false leaves out those only mentioned (the
 * `mention` trigger off). The thread has no subscriptions yet: no operation makes them.
 */
export const involvedIn = (thread: CommentAnnotation, mentions: boolean): ReadonlyArray<string> => {
  const users = new Set<string>()
  for (const comment of thread.comments) {
    users.add(comment.from.userId)
    if (mentions) for (const tagged of comment.taggedUserContacts) users.add(tagged.userId)
  }
  if (thread.assignedTo !== undefined) users.add(thread.assignedTo.userId)
  return [...users]
}

/**
 * The notifications' listener of domain events: for each comment change that asks for
 * notifications (NewEvent.notifies), in the change's transaction, one notification addressed to
 * the users involved in the thread, less the actor, less those who may not read the document or
 * see the thread (the access rule and the thread's visibility, as the client API judges them).
 */
export class CommentNotifications extends Effect.Service<CommentNotifications>()("@atrium/core/CommentNotifications", {
  effect: Effect.gen(function*() {
    const repo = yield* NotificationsRepo
    const access = yield* DocumentAccess
    const settings = yield* SettingsRepo
    const ids = yield* Ids

    const notify = (apiKey: string, at: number, event: NewEvent, triggers: Readonly<Record<string, unknown>>, judge: AccessJudge) =>
      Effect.gen(function*() {
        const kind = NOTIFYING[event.type]
        if (kind === undefined || triggers[kind.trigger] === false) return undefined
        const thread = event.data.commentAnnotation as CommentAnnotation
        const { documentId, organizationId } = thread.metadata
        // The thread as the event carries it, after the change: no need to read it again.
        const visible = { documentId, createdBy: thread.from.userId, record: { visibilityConfig: thread.visibilityConfig } }
        const actionUser = event.data.actionUser as { readonly userId: string } | undefined
        const candidates = involvedIn(thread, triggers.mention !== false).filter((userId) => userId !== actionUser?.userId)
        const recipients = yield* Effect.filter(candidates, (userId) =>
          Effect.map(threadsSeenBy(judge, { apiKey, userId }, organizationId)([visible]), (seen) => seen.length > 0))
        const target = event.data.targetComment as { readonly commentId?: number; readonly commentText?: string } | undefined
        const record: NotificationRecord = {
          notificationSource: "comment",
          actionType: event.type,
          ...(actionUser !== undefined && { actionUser }),
          displayHeadlineMessageTemplate: kind.headline,
          displayHeadlineMessageTemplateData: { ...(actionUser !== undefined && { actionUser }) },
          displayBodyMessage: target?.commentText ?? "",
          notificationSourceData: {
            annotationId: thread.annotationId,
            ...(target?.commentId !== undefined && { commentId: target.commentId }),
            ...(event.data.newStatus !== undefined && { newStatus: event.data.newStatus }),
            ...(event.type === "comment_annotation.assign" && thread.assignedTo !== undefined && { assignedTo: thread.assignedTo })
          },
          recipients,
          thread: { createdBy: visible.createdBy, visibilityConfig: thread.visibilityConfig }
        }
        const notification: NotificationRow = {
          apiKey,
          organizationId,
          id: yield* ids.make(undefined, 20),
          documentId,
          locationId: thread.location === undefined ? null : String(thread.location.id),
          annotationId: thread.annotationId,
          toAll: false,
          createdAt: at,
          record
        }
        return (yield* repo.insert(notification, recipients)) ? notificationAdded(notification) : undefined
      })

    const listener: EventListener = {
      name: "notifications",
      // Any key's changes that ask for notifications (docs/notifications.md), and only those.
      follows: (_apiKey, notifying) => Effect.succeed(notifying),
      plain: true,
      inTransaction: ({ apiKey, at, events }) => {
        const asking = events.filter((event) => event.notifies === true && NOTIFYING[event.type] !== undefined)
        if (asking.length === 0) return Effect.void
        // Each notification made is an event of its own (`notification.add`), told to the other listeners next.
        return Effect.gen(function*() {
          const service = yield* storedNotificationService(settings, apiKey)
          const judge = yield* access.pinned(apiKey)
          const made = yield* Effect.forEach(asking, (event) => notify(apiKey, at, event, service.notificationServiceConfig.triggers.comment, judge))
          return made.filter((event) => event !== undefined)
        })
      }
    }
    return { listener }
  })
}) {}
