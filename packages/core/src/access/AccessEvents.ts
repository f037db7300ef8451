import { aboutOrganization } from "../events/Channels.js"
import type { NewEvent } from "../events/EventListener.js"
import type { AccessRole, AccessType } from "./AccessRule.js"

/**
 * The events of every write the access rule reads (organizations' disabled flag, grants, user
 * group members, documents' and folders' access, the key's default and its permission provider,
 * the jobs that remove or move such rows), one constructor per type, so that realtime and the
 * host's webhooks can re-check who may read what. Each carries the `resource` it is about, as
 * auth/permissions names resources (an organization is its own `organizationId`); its organization
 * (`aboutOrganization`, as every domain's events: the outbox holds a disabled organization's
 * messages), none for the key's own settings; and its channels: the organization's, and the
 * document's when it is about one. No hosted names exist for these (docs/decisions.md, "Access";
 * the list: docs/webhooks.md, "What is emitted").
 */

export interface AccessResource {
  readonly type: "organization" | "folder" | "document"
  readonly id: string
  readonly organizationId: string
}

/** Where a grant is stored: a membership row's organization, level and scope (the empty string at organization level). */
export interface GrantPlace {
  readonly organizationId: string
  readonly level: "organization" | "folder" | "document"
  readonly scopeId: string
}

export const organizationResource = (organizationId: string): AccessResource => ({ type: "organization", id: organizationId, organizationId })

export const documentResource = (organizationId: string, id: string): AccessResource => ({ type: "document", id, organizationId })

export const folderResource = (organizationId: string, id: string): AccessResource => ({ type: "folder", id, organizationId })

/** The resource a grant stored at `place` is on. */
export const resourceOf = (place: GrantPlace): AccessResource =>
  place.level === "organization" ? organizationResource(place.organizationId) : { type: place.level, id: place.scopeId, organizationId: place.organizationId }

/**
 * Every type below, for the documentation's list (docs/webhooks.md) to be checked against. The
 * constructors take their type from here, so none can emit a type the list lacks.
 */
export const ACCESS_EVENT_TYPES = [
  "access.granted",
  "access.revoked",
  "access.group_member_added",
  "access.group_member_removed",
  "access.organization_disabled_updated",
  "access.document_type_updated",
  "access.document_disabled_updated",
  "access.document_folder_updated",
  "access.folder_type_updated",
  "access.default_type_updated",
  "access.permission_provider_updated",
  "access.user_data_deleted",
  "access.document_migrated",
  "access.organization_deleted",
  "access.folder_deleted",
  "access.document_deleted"
] as const

export type AccessEventType = typeof ACCESS_EVENT_TYPES[number]

/** An event about `resource`: of its organization, on the organization's channel and the document's when it is one. */
const about = (type: AccessEventType, resource: AccessResource, data: Record<string, unknown>): NewEvent => ({
  type,
  data: { resource, ...data },
  ...aboutOrganization(resource.organizationId, resource.type === "document" ? resource.id : undefined)
})

/** An event about the key's own settings: of no organization (the outbox never holds it), on no channel. */
const aboutTheKey = (type: AccessEventType, data: Record<string, unknown>): NewEvent => ({ type, data, organizationId: null, channels: [] })

export const accessEvents = {
  /** A grant stored or replaced (auth/permissions/add, users/add, users/update's accessRole). */
  granted: (userId: string, resource: AccessResource, accessRole: AccessRole, expiresAt?: number): NewEvent =>
    about("access.granted", resource, { userId, accessRole, ...(expiresAt !== undefined && { expiresAt }) }),

  /** A grant removed (auth/permissions/remove, users/delete). */
  revoked: (userId: string, resource: AccessResource): NewEvent => about("access.revoked", resource, { userId }),

  /** The user joined one of the organization's user groups: it is now among the organization's members (organizationPrivate). */
  groupMemberAdded: (userId: string, organizationId: string, organizationUserGroupId: string): NewEvent =>
    about("access.group_member_added", organizationResource(organizationId), { userId, organizationUserGroupId }),

  /** The user left one of the organization's user groups (usergroups/users/delete, users/delete of the organization). */
  groupMemberRemoved: (userId: string, organizationId: string, organizationUserGroupId: string): NewEvent =>
    about("access.group_member_removed", organizationResource(organizationId), { userId, organizationUserGroupId }),

  /** The organization was disabled (nobody reads or writes it) or enabled again. */
  organizationDisabledUpdated: (organizationId: string, disabled: boolean): NewEvent =>
    about("access.organization_disabled_updated", organizationResource(organizationId), { disabled }),

  documentTypeUpdated: (organizationId: string, documentId: string, accessType: AccessType): NewEvent =>
    about("access.document_type_updated", documentResource(organizationId, documentId), { accessType }),

  documentDisabledUpdated: (organizationId: string, documentId: string, disabled: boolean): NewEvent =>
    about("access.document_disabled_updated", documentResource(organizationId, documentId), { disabled }),

  /** The document was added in a folder, or moved to another (null: the organization's root): it follows that folder's access now. */
  documentFolderUpdated: (organizationId: string, documentId: string, folderId: string | null): NewEvent =>
    about("access.document_folder_updated", documentResource(organizationId, documentId), { folderId }),

  /** `accessType` as stored, inheritance applied. */
  folderTypeUpdated: (organizationId: string, folderId: string, accessType: AccessType, inheritFromParent: boolean): NewEvent =>
    about("access.folder_type_updated", folderResource(organizationId, folderId), { accessType, inheritFromParent }),

  /** Of the whole key, so on no channel: endpoints that filter by channel do not get it. */
  defaultTypeUpdated: (defaultDocumentAccessType: AccessType): NewEvent =>
    aboutTheKey("access.default_type_updated", { defaultDocumentAccessType }),

  /**
   * The key's permission provider settings were written (on or off, its URL or token): while on,
   * its answers replace stored grants and access types. The whole key's, on no channel; the
   * settings themselves stay out (the token is a secret).
   */
  permissionProviderUpdated: (usePermissionProvider: boolean): NewEvent =>
    aboutTheKey("access.permission_provider_updated", { usePermissionProvider }),

  /** A user-data deletion removed the user's grants or group memberships in the organization (one task: one kind of them). */
  userDataDeleted: (userId: string, organizationId: string): NewEvent =>
    about("access.user_data_deleted", organizationResource(organizationId), { userId }),

  /** organizations/delete removed the organization and everything in it. */
  organizationDeleted: (organizationId: string): NewEvent => about("access.organization_deleted", organizationResource(organizationId), {}),

  /** folders/delete removed the folder, with its grants (its documents: `documentDeleted`). */
  folderDeleted: (organizationId: string, folderId: string): NewEvent => about("access.folder_deleted", folderResource(organizationId, folderId), {}),

  /** documents/delete (or a folder's deletion) removed the document, with its grants. */
  documentDeleted: (organizationId: string, documentId: string): NewEvent =>
    about("access.document_deleted", documentResource(organizationId, documentId), {}),

  /**
   * A document migration moved the document's row, or its grants, to `newDocumentId` (one task
   * each): on the new document's channel too.
   */
  documentMigrated: (organizationId: string, documentId: string, newDocumentId: string): NewEvent => {
    const event = about("access.document_migrated", documentResource(organizationId, documentId), { newDocumentId })
    return { ...event, channels: [...event.channels, `${organizationId}/${newDocumentId}`] }
  }
} as const
