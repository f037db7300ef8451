/**
 * The credential headers, by what they carry, as the part after the prefix (`x-service-api-key`
 * with the default prefix): one list for the dispatcher, the OpenAPI document and the typed client.
 */
export const credentialHeaderSuffixes = {
  apiKey: "api-key",
  authToken: "auth-token",
  workspaceId: "workspace-id",
  workspaceAuthToken: "workspace-auth-token"
} as const

export type CredentialHeader = keyof typeof credentialHeaderSuffixes

/** The full header names under `prefix` (`x-service`, `x-velt`, …). */
export const credentialHeaders = (prefix: string): { readonly [K in CredentialHeader]: string } => ({
  apiKey: `${prefix}-${credentialHeaderSuffixes.apiKey}`,
  authToken: `${prefix}-${credentialHeaderSuffixes.authToken}`,
  workspaceId: `${prefix}-${credentialHeaderSuffixes.workspaceId}`,
  workspaceAuthToken: `${prefix}-${credentialHeaderSuffixes.workspaceAuthToken}`
})
