import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

/** What a notification keeps besides its indexed fields (`notifications.record`): as notifications/get answers it, less those. */
export interface NotificationRecord {
  readonly notificationSource: string
  readonly actionType?: string
  readonly actionUser?: Readonly<Record<string, unknown>>
  readonly displayHeadlineMessageTemplate?: string
  readonly displayHeadlineMessageTemplateData?: Readonly<Record<string, unknown>>
  readonly displayBodyMessage?: string
  readonly displayBodyMessageTemplate?: string
  readonly displayBodyMessageTemplateData?: Readonly<Record<string, unknown>>
  readonly notificationSourceData?: unknown
  readonly isNotificationResolverUsed?: boolean
  readonly location?: unknown
  readonly context?: unknown
  /** Other metadata the caller sent (notifications/add's `metadata`): answered beside the ids. */
  readonly metadata?: Readonly<Record<string, unknown>>
  /** Who it was addressed to when made (`notifyUsersByUserId` of the answer). */
  readonly recipients: ReadonlyArray<string>
  /**
   * The thread's visibility when it was made (comment notifications): judged by when the thread
   * is gone, so a private thread's notification never shows to more users once it is deleted.
   */
  readonly thread?: { readonly createdBy: string; readonly visibilityConfig: { readonly type: "public" | "organizationPrivate" | "restricted"; readonly organizationId?: string; readonly userIds?: ReadonlyArray<string> } }
}

/** One notification as stored. */
export interface NotificationRow {
  readonly apiKey: string
  readonly organizationId: string
  readonly id: string
  readonly documentId: string
  readonly locationId: string | null
  /** The comment thread it is about, if any. */
  readonly annotationId: string | null
  /** For every user of the organization who may read the document (notifications/add's `notifyAll`). */
  readonly toAll: boolean
  /** Its `timestamp`, the order of every view. */
  readonly createdAt: number
  readonly record: NotificationRecord
}

/** One user's state in a notification. */
export interface RecipientState {
  /** Addressed to the user: in their "for you" view. */
  readonly involved: boolean
  readonly readAt: number | null
  /** Stays in "for you" once read. */
  readonly persistRead: boolean
  readonly deletedAt: number | null
}

/** A notification with one user's state in it (none: the user has none yet). */
export interface UserNotification {
  readonly row: NotificationRow
  readonly state: RecipientState | undefined
}

/** Position of the last notification of a page: ordered by (createdAt, id). */
export interface NotificationCursor {
  readonly createdAt: number
  readonly id: string
}

export interface NotificationFilters {
  readonly documentId?: string
  readonly locationId?: string
  readonly ids?: ReadonlyArray<string>
}

export interface PageOptions {
  readonly order: "asc" | "desc"
  readonly after?: NotificationCursor
  readonly limit: number
}

/**
 * A user's views: `forYou`, the notifications addressed to them (to them, or to everyone) that
 * they have not deleted, less those read unless kept (`persistRead`); `all`, every notification
 * of the organization they have not deleted; `unread`, those of `forYou` not read.
 */
export type UserView = "forYou" | "all" | "unread"

/** Storage port: notifications and each user's state in them, per API key and organization. */
export class NotificationsRepo extends Context.Tag("@atrium/core/NotificationsRepo")<NotificationsRepo, {
  /** Adds the notification and its recipients (involved, unread), unless the organization has one with its id; whether it was added. */
  readonly insert: (row: NotificationRow, recipients: ReadonlyArray<string>) => Effect.Effect<boolean>
  /** Writes the record of an existing notification. */
  readonly updateRecord: (apiKey: string, organizationId: string, id: string, record: NotificationRecord) => Effect.Effect<void>
  /** Keyset page ordered by (createdAt, id) in `order`, strictly after `after`. */
  readonly page: (apiKey: string, organizationId: string, filters: NotificationFilters, options: PageOptions) => Effect.Effect<ReadonlyArray<NotificationRow>>
  /** The same, as one user's view, with their state in each. */
  readonly pageFor: (
    apiKey: string,
    organizationId: string,
    userId: string,
    view: UserView,
    filters: NotificationFilters,
    options: PageOptions
  ) => Effect.Effect<ReadonlyArray<UserNotification>>
  /** Sets the users' read time (and whether read ones stay in "for you") in these notifications, giving a state to those without one. */
  readonly markRead: (
    apiKey: string,
    organizationId: string,
    userIds: ReadonlyArray<string>,
    ids: ReadonlyArray<string>,
    readAt: number,
    persistRead: boolean
  ) => Effect.Effect<void>
  /** The user deleted these notifications from their inbox. */
  readonly markDeleted: (apiKey: string, organizationId: string, userId: string, ids: ReadonlyArray<string>, at: number) => Effect.Effect<void>
  /** Deletes the notifications and every user's state in them. */
  readonly delete: (apiKey: string, organizationId: string, ids: ReadonlyArray<string>) => Effect.Effect<void>
}>() {}
