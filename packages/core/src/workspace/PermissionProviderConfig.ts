import * as Effect from "effect/Effect"
import { secretHint } from "../crypto/Secrets.js"
import type { SettingsRepo } from "./SettingsRepo.js"
import type { PermissionProviderSettings, UpdatePermissionProviderInput } from "./WorkspaceSettingsSchemas.js"

export type PermissionProvider = typeof PermissionProviderSettings.Type

/** Until configured; the first enable merges the request over it (docs/compatibility.md, "Workspace settings"). */
export const DEFAULT_PERMISSION_PROVIDER: PermissionProvider = {
  usePermissionProvider: false,
  permissionProviderConfig: { permissionProviderUrl: "", authToken: "" }
}

/** The settings document's name in SettingsRepo. */
export const PERMISSION_PROVIDER_SETTING = "permissionProvider"

/** The key's stored provider settings, or the default until configured. */
export const storedPermissionProvider = (settings: typeof SettingsRepo.Service, apiKey: string) =>
  Effect.map(settings.get(apiKey, PERMISSION_PROVIDER_SETTING), (stored) => (stored as PermissionProvider | undefined) ?? DEFAULT_PERMISSION_PROVIDER)

/** Below this length the last 4 characters would reveal too much of the token. */
const MIN_HINTED_LENGTH = 12

/**
 * The provider's auth token as answers show it: "" when unset, else `…` and its last 4
 * characters (only `…` for a short token). It is stored as given: Atrium sends it to the provider.
 */
export const maskAuthToken = (token: string): string =>
  token === "" ? "" : token.length < MIN_HINTED_LENGTH ? "…" : secretHint(token)

export const masked = (settings: PermissionProvider): PermissionProvider => ({
  ...settings,
  permissionProviderConfig: {
    ...settings.permissionProviderConfig,
    authToken: maskAuthToken(settings.permissionProviderConfig.authToken)
  }
})

/**
 * The update merged over the stored settings. An `authToken` equal to the stored token's mask
 * keeps the stored token, so sending back what get answered never replaces the secret with its mask.
 */
export const mergePermissionProvider = (
  current: PermissionProvider,
  update: typeof UpdatePermissionProviderInput.Type
): PermissionProvider => {
  const stored = current.permissionProviderConfig
  const { authToken, permissionProviderUrl } = update.permissionProviderConfig ?? {}
  return {
    usePermissionProvider: update.usePermissionProvider ?? current.usePermissionProvider,
    permissionProviderConfig: {
      permissionProviderUrl: permissionProviderUrl ?? stored.permissionProviderUrl,
      authToken: authToken === undefined || authToken === maskAuthToken(stored.authToken) ? stored.authToken : authToken
    }
  }
}
