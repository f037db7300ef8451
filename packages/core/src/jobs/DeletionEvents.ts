import { aboutOrganization } from "../events/Channels.js"
import type { NewEvent } from "../events/EventListener.js"

/**
 * The events of the deletions (jobs/Deletions.ts), for webhooks and realtime: the hosted service's
 * names where it has them (`organization.delete`, `document.delete`). Each deletion also emits its
 * `access.*_deleted` event (access/AccessEvents.ts), for those who re-check who may read what.
 */
export const DELETION_EVENT_TYPES = ["organization.delete", "folder.delete", "document.delete"] as const

export const deletionEvents = {
  organization: (organizationId: string): NewEvent => ({ type: "organization.delete", data: { organizationId }, ...aboutOrganization(organizationId) }),
  folder: (organizationId: string, folderId: string): NewEvent => ({ type: "folder.delete", data: { organizationId, folderId }, ...aboutOrganization(organizationId) }),
  /** On the document's channel too: realtime tells the pages open on it. */
  document: (organizationId: string, documentId: string): NewEvent => ({
    type: "document.delete",
    data: { organizationId, documentId },
    ...aboutOrganization(organizationId, documentId)
  })
} as const
