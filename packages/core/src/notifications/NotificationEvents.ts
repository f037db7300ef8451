import { aboutOrganization } from "../events/Channels.js"
import type { NewEvent } from "../events/EventListener.js"
import type { NotificationRow } from "./NotificationsRepo.js"
import { toNotification } from "./NotificationPresenter.js"

/**
 * `notification.add`, for every notification made (docs/decisions.md, "Notifications"): its data is
 * the notification as notifications/get answers it, its recipients in `notifyUsersByUserId` (and
 * `notifyAll`). Webhooks carry it to the host's own channels; realtime pushes it to each recipient.
 */
export const notificationAdded = (row: NotificationRow): NewEvent => ({
  type: "notification.add",
  data: toNotification(row, null),
  ...aboutOrganization(row.organizationId, row.documentId)
})
