/** The channels of an event about an organization, or one of its documents. */
export const channelsOf = (organizationId: string, documentId?: string): ReadonlyArray<string> =>
  documentId === undefined ? [organizationId] : [organizationId, `${organizationId}/${documentId}`]
