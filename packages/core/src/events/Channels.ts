/** The channels of an event about an organization, or one of its documents. */
export const channelsOf = (organizationId: string, documentId?: string): ReadonlyArray<string> =>
  documentId === undefined ? [organizationId] : [organizationId, `${organizationId}/${documentId}`]

/**
 * Where an event about an organization, or one of its documents, belongs: its organization and
 * its channels, named once so the two never disagree (`{ type, data, ...aboutOrganization(o, d) }`).
 */
export const aboutOrganization = (organizationId: string, documentId?: string) => ({
  organizationId,
  channels: channelsOf(organizationId, documentId)
})
