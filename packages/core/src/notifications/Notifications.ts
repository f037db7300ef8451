import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { DocumentAccess } from "../access/DocumentAccess.js"
import type { VisibleThread } from "../comments/CommentVisibility.js"
import { CommentsRepo } from "../comments/CommentsRepo.js"
import { type ThreadReader, threadsSeenBy } from "../comments/ThreadReaders.js"
import { Events } from "../events/Events.js"
import { type ApiError, invalidArgument } from "../protocol/ApiError.js"
import { type Page, PageTokens } from "../protocol/PageTokens.js"
import { Ids } from "../ports/Ids.js"
import { Transactions } from "../ports/Transactions.js"
import { notificationAdded } from "./NotificationEvents.js"
import { NotificationPreferences } from "./NotificationPreferences.js"
import { toNotification } from "./NotificationPresenter.js"
import {
  type AddNotificationInput,
  type DeleteNotificationsInput,
  type GetNotificationsInput,
  MAX_DELETED_NOTIFICATIONS,
  type Notification,
  type UpdateNotificationsInput
} from "./NotificationSchemas.js"
import {
  type NotificationCursor,
  type NotificationFilters,
  type NotificationRecord,
  type NotificationRow,
  NotificationsRepo,
  type UserNotification,
  type UserView
} from "./NotificationsRepo.js"

const DEFAULT_PAGE_SIZE = 1000

/** Rows a user's view reads at a time while it judges them. */
const CHUNK = 1000

/** A notification, and its user's state, judged as a thread: its current one, else the one it was made about, else public. */
interface Judged extends VisibleThread {
  readonly documentId: string
  readonly item: UserNotification
}

/**
 * Notifications: those the comment listener writes (CommentNotifications.ts) and those a host
 * adds, each user's views of them and their read state (docs/notifications.md). A user's views
 * show only what the user may read now: the document (the access rule), the thread (its
 * visibility), and their inbox preference for the document (NONE: nothing; MINE: those
 * addressed to them; ALL: also the others of documents they may read).
 */
export class Notifications extends Effect.Service<Notifications>()("@atrium/core/Notifications", {
  accessors: true,
  effect: Effect.gen(function*() {
    const repo = yield* NotificationsRepo
    const comments = yield* CommentsRepo
    const access = yield* DocumentAccess
    const preferences = yield* NotificationPreferences
    const pageTokens = yield* PageTokens
    const ids = yield* Ids
    const { withTransaction } = yield* Transactions
    const events = yield* Events

    /**
     * Of these notifications (one organization's), those `reader` may read now, in their order: the
     * document (the access rule) and the thread (its visibility), whatever their preferences.
     */
    const readableBy = (reader: ThreadReader, organizationId: string) => {
      const seen = threadsSeenBy(access, reader, organizationId)
      return (wanted: ReadonlyArray<UserNotification>): Effect.Effect<ReadonlyArray<UserNotification>> =>
        Effect.gen(function*() {
          if (wanted.length === 0) return wanted
          const annotationIds = [...new Set(wanted.flatMap((item) => item.row.annotationId ?? []))]
          const threads = annotationIds.length === 0 ? new Map() : new Map(
            (yield* comments.pageAnnotations(reader.apiKey, organizationId, { ids: annotationIds }, { order: "asc", limit: annotationIds.length }))
              .map((thread) => [thread.id, thread])
          )
          const judged = wanted.map((item): Judged => {
            const current = item.row.annotationId === null ? undefined : threads.get(item.row.annotationId)
            const made = item.row.record.thread
            return current !== undefined
              ? { documentId: item.row.documentId, createdBy: current.createdBy, record: current.record, item }
              : { documentId: item.row.documentId, createdBy: made?.createdBy ?? "", record: { visibilityConfig: made?.visibilityConfig ?? { type: "public" } }, item }
          })
          return (yield* seen(judged)).map((entry) => entry.item)
        })
    }

    /** Of these notifications (one organization's), those `reader` may see now in their inbox (readableBy, then their inbox preference), in their order. */
    const visibleTo = (reader: ThreadReader, organizationId: string) => {
      const readable = readableBy(reader, organizationId)
      return (items: ReadonlyArray<UserNotification>): Effect.Effect<ReadonlyArray<UserNotification>> =>
        Effect.gen(function*() {
          if (items.length === 0) return items
          const documentIds = [...new Set(items.map((item) => item.row.documentId))]
          const channels = yield* preferences.channelsFor(reader.apiKey, organizationId, reader.userId, documentIds)
          return yield* readable(items.filter((item) => {
            const inbox = channels.get(item.row.documentId)?.inbox ?? "ALL"
            return inbox === "ALL" || (inbox === "MINE" && (item.row.toAll || item.state?.involved === true))
          }))
        })
    }

    /**
     * One page of `userId`'s view: rows read `limit` at a time, those the user may not see passed
     * over, so a page is short only at the end.
     */
    const pageOfView = (
      reader: ThreadReader,
      organizationId: string,
      view: UserView,
      filters: NotificationFilters,
      order: "asc" | "desc",
      token: string | undefined,
      limit: number
    ) => {
      const visible = visibleTo(reader, organizationId)
      return pageTokens.page({
        scope: { apiKey: reader.apiKey, operation: "notifications.get", filters: { organizationId, userId: reader.userId, view, order, ...filters } },
        token,
        limit,
        read: (after: NotificationCursor | undefined, limit) =>
          Effect.gen(function*() {
            const kept: Array<UserNotification> = []
            let cursor = after
            for (;;) {
              const run = yield* repo.pageFor(reader.apiKey, organizationId, reader.userId, view, filters, { order, limit, ...(cursor && { after: cursor }) })
              kept.push(...(yield* visible(run)))
              if (run.length < limit || kept.length >= limit) return kept.slice(0, limit)
              const last = run[run.length - 1]!.row
              cursor = { createdAt: last.createdAt, id: last.id }
            }
          }),
        cursorOf: (item): NotificationCursor => ({ createdAt: item.row.createdAt, id: item.row.id }),
        present: (page): Page<Notification> => ({ items: page.items.map((item) => toNotification(item.row, item.state)), next: page.next })
      })
    }

    /** The user's unread notifications addressed to them in the organization, that they may see. */
    const unreadCount = (reader: ThreadReader, organizationId: string) =>
      Effect.gen(function*() {
        const visible = visibleTo(reader, organizationId)
        let count = 0
        let after: NotificationCursor | undefined
        for (;;) {
          const run = yield* repo.pageFor(reader.apiKey, organizationId, reader.userId, "unread", {}, { order: "desc", limit: CHUNK, ...(after && { after }) })
          count += (yield* visible(run)).length
          if (run.length < CHUNK) return count
          const last = run[run.length - 1]!.row
          after = { createdAt: last.createdAt, id: last.id }
        }
      })

    /** Whom the notification is addressed to (every reader of its document, or its recipients); undefined when there is none. */
    const addressees = (apiKey: string, organizationId: string, id: string) =>
      Effect.map(repo.page(apiKey, organizationId, { ids: [id] }, { order: "asc", limit: 1 }), ([row]) =>
        row === undefined ? undefined : { toAll: row.toAll, userIds: new Set(row.record.recipients) })

    /**
     * The notification as the reader's "for you" view shows it (with their state), or undefined when
     * that view leaves it out (not theirs, deleted, its document or thread closed to them, their
     * inbox preference): what realtime pushes to the reader's open pages, judged by the views' rule.
     */
    const forYou = (reader: ThreadReader, organizationId: string, id: string): Effect.Effect<Notification | undefined> =>
      Effect.gen(function*() {
        const items = yield* repo.pageFor(reader.apiKey, organizationId, reader.userId, "forYou", { ids: [id] }, { order: "desc", limit: 1 })
        const [shown] = yield* visibleTo(reader, organizationId)(items)
        return shown === undefined ? undefined : toNotification(shown.row, shown.state)
      })

    /** The notifications with these ids the organization has, within the scope given, by id. */
    const found = (apiKey: string, organizationId: string, filters: NotificationFilters, idList: ReadonlyArray<string>, userId?: string) =>
      Effect.map(
        userId === undefined
          ? Effect.map(repo.page(apiKey, organizationId, { ...filters, ids: idList }, { order: "asc", limit: idList.length }), (rows) => rows.map((row) => ({ row, addressed: true })))
          : Effect.map(
            repo.pageFor(apiKey, organizationId, userId, "all", { ...filters, ids: idList }, { order: "asc", limit: idList.length }),
            (items) => items.map((item) => ({ row: item.row, addressed: item.row.toAll || item.state?.involved === true }))
          ),
        (rows) => new Map(rows.filter((entry) => entry.addressed).map((entry) => [entry.row.id, entry.row]))
      )

    /** Of these users, those who may read the document (notifications/add and update's verifyUserPermissions). */
    const mayRead = (apiKey: string, organizationId: string, documentId: string, userIds: ReadonlyArray<string>) =>
      Effect.flatMap(access.pinned(apiKey), (judge) =>
        Effect.filter(userIds, (userId) =>
          Effect.map(judge.check({ apiKey, userId, organizationId, documentId }), (decision) => decision.accessRole !== null)))

    return {
      readableBy,
      visibleTo,
      unreadCount,
      pageOfView,
      addressees,
      forYou,

      /** notifications/add: the notification, unless the organization has one with its id (then nothing changes). */
      add: (apiKey: string, input: typeof AddNotificationInput.Type) =>
        Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          const id = input.notificationId ?? (yield* ids.make(undefined, 20))
          const named = [...new Set(input.notifyUsers.map((user) => user.userId))]
          const recipients = input.verifyUserPermissions === true ? yield* mayRead(apiKey, input.organizationId, input.documentId, named) : named
          const { createOrganization: _o, createDocument: _d, documentId, notificationId: _n, notifyAll, notifyUsers: _u, organizationId, verifyUserPermissions: _v, ...kept } =
            input as typeof input & { createOrganization?: unknown; createDocument?: unknown }
          const record: NotificationRecord = { ...kept, notificationSource: input.notificationSource ?? "custom", recipients }
          const locationId = typeof input.location?.id === "string" || typeof input.location?.id === "number" ? String(input.location.id) : null
          const row: NotificationRow = { apiKey, organizationId, id, documentId, locationId, annotationId: null, toAll: notifyAll ?? true, createdAt: now, record }
          const added = yield* withTransaction(Effect.tap(
            repo.insert(row, recipients),
            // A notification is what listeners of notifications (email) follow: said, so they are told it.
            (added) => added ? events.emit(apiKey, [notificationAdded(row)], true) : Effect.void
          ))
          return { success: true, message: "Notification added successfully.", notificationId: id, added }
        }),

      /** notifications/get: a document's notifications (documentId), or a user's view (userId), keyset pages over (timestamp, id). */
      get: (apiKey: string, input: typeof GetNotificationsInput.Type): Effect.Effect<Page<Notification>, ApiError<"INVALID_ARGUMENT">> => {
        const order = input.order ?? "desc"
        const limit = input.pageSize ?? DEFAULT_PAGE_SIZE
        const filters: NotificationFilters = {
          ...(input.documentId !== undefined && { documentId: input.documentId }),
          ...(input.locationId !== undefined && { locationId: input.locationId }),
          ...(input.notificationIds !== undefined && { ids: [...new Set(input.notificationIds)].sort() })
        }
        if (input.userId !== undefined) {
          return pageOfView({ apiKey, userId: input.userId }, input.organizationId, input.view ?? "forYou", filters, order, input.pageToken, limit)
        }
        return pageTokens.page({
          scope: { apiKey, operation: "notifications.get", filters: { organizationId: input.organizationId, order, ...filters } },
          token: input.pageToken,
          limit,
          read: (after: NotificationCursor | undefined, limit) => repo.page(apiKey, input.organizationId, filters, { order, limit, ...(after && { after }) }),
          cursorOf: (row): NotificationCursor => ({ createdAt: row.createdAt, id: row.id }),
          present: (page): Page<Notification> => ({ items: page.items.map((row) => toNotification(row, null)), next: page.next })
        })
      },

      /** notifications/update: each listed notification within the scope, answered per id. */
      update: (apiKey: string, input: typeof UpdateNotificationsInput.Type) =>
        withTransaction(Effect.gen(function*() {
          const { organizationId } = input
          const now = yield* Clock.currentTimeMillis
          const filters: NotificationFilters = {
            ...(input.documentId !== undefined && { documentId: input.documentId }),
            ...(input.locationId !== undefined && { locationId: input.locationId })
          }
          const rows = yield* found(apiKey, organizationId, filters, [...new Set(input.notifications.map((n) => n.id))], input.userId)
          const data: Record<string, { success: boolean; message: string }> = {}
          for (const change of input.notifications) {
            const row = rows.get(change.id)
            if (row === undefined) {
              data[change.id] = { success: false, message: `Failed to update notification: ${change.id} not found${input.userId !== undefined ? ` among user ${input.userId}'s` : ""}${input.documentId !== undefined ? ` in document ${input.documentId}` : ""}.` }
              continue
            }
            const { id: _id, persistReadForUsers, readByUserIds, ...fields } = change
            if (Object.keys(fields).length > 0) {
              const record = { ...row.record, ...fields }
              yield* repo.updateRecord(apiKey, organizationId, row.id, record)
              rows.set(row.id, { ...row, record })
            }
            if (readByUserIds !== undefined) {
              const readers = input.verifyUserPermissions === true ? yield* mayRead(apiKey, organizationId, row.documentId, readByUserIds) : readByUserIds
              yield* repo.markRead(apiKey, organizationId, [...new Set(readers)].sort(), [row.id], now, persistReadForUsers === true)
            }
            data[change.id] = { success: true, message: "Notification updated." }
          }
          return data
        })),

      /**
       * notifications/delete: the notifications that match (with userId, from that user's inbox
       * only), answered per id: each id named, or each one deleted.
       */
      delete: (apiKey: string, input: typeof DeleteNotificationsInput.Type) =>
        withTransaction(Effect.gen(function*() {
          const { organizationId, userId } = input
          const filters: NotificationFilters = {
            ...(input.documentId !== undefined && { documentId: input.documentId }),
            ...(input.locationId !== undefined && { locationId: input.locationId }),
            ...(input.notificationIds !== undefined && { ids: [...new Set(input.notificationIds)] })
          }
          const matched = userId === undefined
            ? yield* repo.page(apiKey, organizationId, filters, { order: "asc", limit: MAX_DELETED_NOTIFICATIONS + 1 })
            : (yield* repo.pageFor(apiKey, organizationId, userId, "all", filters, { order: "asc", limit: MAX_DELETED_NOTIFICATIONS + 1 })).map((item) => item.row)
          if (matched.length > MAX_DELETED_NOTIFICATIONS) {
            return yield* invalidArgument(`The selectors match more than ${MAX_DELETED_NOTIFICATIONS} notifications; name them (notificationIds) or select fewer.`)
          }
          const matchedIds = matched.map((row) => row.id)
          if (userId === undefined) yield* repo.delete(apiKey, organizationId, matchedIds)
          else yield* repo.markDeleted(apiKey, organizationId, userId, matchedIds, yield* Clock.currentTimeMillis)
          const data: Record<string, { success: boolean; message: string }> = {}
          for (const id of matchedIds) data[id] = { success: true, message: "Notification deleted." }
          for (const id of input.notificationIds ?? []) {
            data[id] ??= { success: false, message: `Failed to delete notification: ${id} not found${userId !== undefined ? ` in user ${userId}'s inbox` : ""}.` }
          }
          return data
        })),

      /** The client API's mark-read: these notifications (those the user has in the organization), or all of their unread ones. */
      markRead: (reader: ThreadReader, organizationId: string, notificationIds: ReadonlyArray<string> | "all") =>
        withTransaction(Effect.gen(function*() {
          const now = yield* Clock.currentTimeMillis
          const idList = notificationIds === "all"
            ? (yield* allOf(repo.pageFor, reader, organizationId)).map((item) => item.row.id)
            : [...new Set(notificationIds)]
          const shown = notificationIds === "all" ? idList : (yield* visibleTo(reader, organizationId)(
            yield* repo.pageFor(reader.apiKey, organizationId, reader.userId, "all", { ids: idList }, { order: "asc", limit: idList.length })
          )).map((item) => item.row.id)
          yield* repo.markRead(reader.apiKey, organizationId, [reader.userId], shown, now, false)
          const data: Record<string, { success: boolean; message: string }> = {}
          if (notificationIds !== "all") {
            for (const id of idList) data[id] = shown.includes(id) ? { success: true, message: "Notification marked read." } : { success: false, message: `Notification ${id} not found.` }
          }
          return data
        }))
    }
  })
}) {}

/** Every unread notification addressed to the user in the organization (their "mark all read"), read in runs. */
const allOf = (
  pageFor: NotificationsRepo["Type"]["pageFor"],
  reader: ThreadReader,
  organizationId: string
) =>
  Effect.gen(function*() {
    const out: Array<UserNotification> = []
    let after: NotificationCursor | undefined
    for (;;) {
      const run = yield* pageFor(reader.apiKey, organizationId, reader.userId, "unread", {}, { order: "desc", limit: CHUNK, ...(after && { after }) })
      out.push(...run)
      if (run.length < CHUNK) return out
      const last = run[run.length - 1]!.row
      after = { createdAt: last.createdAt, id: last.id }
    }
  })
