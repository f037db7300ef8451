import * as Schema from "effect/Schema"
import { User } from "../comments/CommentSchemas.js"
import { BatchItem, BatchResult, SuccessResult } from "../protocol/Envelope.js"
import { ACTOR_REFUSED, Id, JsonObject, List, NonEmptyIds, NonEmptyList, optional, PageSize, refusing, Text } from "../schema/Common.js"

/** Recipients one notifications/add names at most, and notifications one update changes: one call's work stays short. */
export const MAX_NOTIFY_USERS = 1000
export const MAX_UPDATED_NOTIFICATIONS = 100
/** Notifications one delete by selectors removes at most (more: name fewer, or call again). */
export const MAX_DELETED_NOTIFICATIONS = 1000

/** A caller's notification id (N-ADD: letters, digits, `_` and `-` only). */
const NotificationId = Id.pipe(
  Schema.pattern(/^[A-Za-z0-9_-]+$/, { message: () => "may hold only letters, digits, _ and -" })
)

/** The user views of notifications/get (docs/notifications.md): addressed to the user, or every one of documents they may read. */
export const View = Schema.Literal("forYou", "all")

const displayFields = {
  actionUser: optional(User),
  displayHeadlineMessageTemplate: optional(Text(10_000)),
  displayHeadlineMessageTemplateData: optional(JsonObject),
  displayBodyMessage: optional(Text(100_000)),
  displayBodyMessageTemplate: optional(Text(100_000)),
  displayBodyMessageTemplateData: optional(JsonObject),
  notificationSourceData: optional(Schema.Unknown),
  location: optional(JsonObject),
  metadata: optional(JsonObject),
  context: optional(JsonObject)
}

export const AddNotificationInput = Schema.Struct({
  organizationId: Id,
  documentId: Id,
  ...displayFields,
  actionUser: User,
  /** Only the users who may read the document get it. */
  verifyUserPermissions: optional(Schema.Boolean),
  /** The caller's id: a second add with it adds nothing (the first is kept). */
  notificationId: optional(NotificationId),
  isNotificationResolverUsed: optional(Schema.Boolean),
  notifyUsers: List(User, MAX_NOTIFY_USERS),
  /** true (the default): every user of the organization who may read the document; false: `notifyUsers` only. */
  notifyAll: optional(Schema.Boolean),
  notificationSource: optional(Text(100))
}).pipe(Schema.filter((input) =>
  input.isNotificationResolverUsed === true || input.displayHeadlineMessageTemplate !== undefined ||
  { path: ["displayHeadlineMessageTemplate"], message: "is required unless isNotificationResolverUsed is true" }
), Schema.filter((input) =>
  input.isNotificationResolverUsed === true || input.displayBodyMessage !== undefined ||
  { path: ["displayBodyMessage"], message: "is required unless isNotificationResolverUsed is true" }
))

export const AddNotificationResult = SuccessResult(Schema.Struct({
  success: Schema.Boolean,
  message: Schema.String,
  /** The notification's id (given or made): an extension, the hosted answer leaves it out. */
  notificationId: Schema.String,
  /** false: a notification with this id already existed, and was kept as it was. */
  added: Schema.Boolean
}))

const getFields = {
  organizationId: Id,
  documentId: optional(Id),
  locationId: optional(Id),
  notificationIds: optional(NonEmptyIds(30)),
  pageSize: optional(PageSize()),
  pageToken: optional(Schema.String),
  order: optional(Schema.Literal("asc", "desc")),
  /** With userId: "forYou" (the default), those addressed to the user; "all", every one of documents they may read. */
  view: optional(View)
}

export const GetNotificationsInput = Schema.Struct({ ...getFields, userId: optional(Id) }).pipe(
  Schema.filter((input) =>
    input.documentId !== undefined || input.userId !== undefined || { path: ["userId"], message: "or documentId is required" }
  ),
  Schema.filter((input) => input.view === undefined || input.userId !== undefined || { path: ["view"], message: "needs userId: it is a user's view" })
)

/** A notification as notifications/get answers it. */
export const Notification = Schema.Struct(
  {
    id: Schema.String,
    notificationSource: Schema.String,
    actionType: optional(Schema.String),
    targetAnnotationId: optional(Schema.String),
    metadata: Schema.Struct({ apiKey: Schema.String, organizationId: Schema.String, documentId: Schema.String, locationId: optional(Schema.String) }, JsonObject),
    /** The users it is addressed to, by userId (the hosted service keys a hash of it). */
    notifyUsersByUserId: Schema.Record({ key: Schema.String, value: Schema.Boolean }),
    notifyAll: Schema.Boolean,
    timestamp: Schema.Number,
    /** In a user's view: when they read it (null: unread). */
    readAt: optional(Schema.NullOr(Schema.Number)),
    /** In a user's view: whether it is addressed to them. */
    forYou: optional(Schema.Boolean)
  },
  JsonObject
).annotations({ identifier: "Notification" })
export type Notification = typeof Notification.Type

export const NotificationsPage = SuccessResult(Schema.Array(Notification), { pageToken: optional(Schema.String) })

const UpdatedNotification = Schema.Struct({
  id: Id,
  ...displayFields,
  /** Marked read for these users. */
  readByUserIds: optional(NonEmptyIds(MAX_NOTIFY_USERS)),
  /** With readByUserIds: read ones stay in those users' "for you" view. */
  persistReadForUsers: optional(Schema.Boolean)
})

export const UpdateNotificationsInput = Schema.Struct({
  organizationId: Id,
  documentId: optional(Id),
  locationId: optional(Id),
  userId: optional(Id),
  verifyUserPermissions: optional(Schema.Boolean),
  notifications: NonEmptyList(UpdatedNotification, MAX_UPDATED_NOTIFICATIONS)
})

export const DeleteNotificationsInput = Schema.Struct({
  organizationId: Id,
  documentId: optional(Id),
  locationId: optional(Id),
  /** Deletes from this user's inbox only. */
  userId: optional(Id),
  notificationIds: optional(NonEmptyIds(MAX_DELETED_NOTIFICATIONS))
}).pipe(Schema.filter((input) =>
  input.documentId !== undefined || input.locationId !== undefined || input.userId !== undefined || input.notificationIds !== undefined ||
  { path: ["notificationIds"], message: "or documentId, locationId or userId is required: a call does not delete a whole organization's notifications" }
))

/** Per notification id: whether it was updated or deleted, and why not. */
export const PerIdResult = SuccessResult(BatchResult(BatchItem))

// The client API (spec client-api.md): the same, for the token's user.

export const ClientGetNotificationsInput = refusing(getFields, { userId: ACTOR_REFUSED })

export const ClientNotificationsPage = SuccessResult(Schema.Array(Notification), {
  pageToken: optional(Schema.String),
  /** The user's unread notifications addressed to them in the organization ("for you"). */
  unreadCount: Schema.Number
})

export const ClientUpdateNotificationsInput = Schema.Struct({
  organizationId: Id,
  notificationIds: optional(NonEmptyIds(100)),
  all: optional(Schema.Literal(true))
}).pipe(Schema.filter((input) =>
  (input.notificationIds === undefined) !== (input.all === undefined) ||
  { path: ["notificationIds"], message: "or all: true is required, not both" }
))

export const ClientUpdateNotificationsResult = SuccessResult(BatchResult(BatchItem), { unreadCount: Schema.Number })
