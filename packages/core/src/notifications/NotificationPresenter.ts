import type { Notification } from "./NotificationSchemas.js"
import type { NotificationRow, UserNotification } from "./NotificationsRepo.js"

/** A notification as get answers it; in a user's view, with their state. */
export const toNotification = (row: NotificationRow, view?: UserNotification["state"] | null): Notification => {
  const { metadata, recipients, thread: _thread, ...shown } = row.record
  return {
    ...shown,
    id: row.id,
    ...(row.annotationId !== null && { targetAnnotationId: row.annotationId }),
    metadata: {
      ...metadata,
      apiKey: row.apiKey,
      organizationId: row.organizationId,
      documentId: row.documentId,
      ...(row.locationId !== null && { locationId: row.locationId })
    },
    notifyUsersByUserId: Object.fromEntries(recipients.map((userId) => [userId, true])),
    notifyAll: row.toAll,
    timestamp: row.createdAt,
    ...(view !== null && { readAt: view?.readAt ?? null, forYou: row.toAll || view?.involved === true })
  }
}
