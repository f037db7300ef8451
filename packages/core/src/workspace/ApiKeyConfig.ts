import * as Effect from "effect/Effect"
import type { AccessType } from "../folders/FoldersRepo.js"
import type { SettingsRepo } from "./SettingsRepo.js"

/**
 * apikeyconfig: of the hosted service's API-key settings, the one Atrium acts on: the access
 * type of a document that has none of its own and no folder (docs/decisions.md, "Access").
 */
export interface ApiKeyConfig {
  readonly defaultDocumentAccessType: AccessType
}

/** Until configured: `public`, the facts' default. */
export const DEFAULT_API_KEY_CONFIG: ApiKeyConfig = { defaultDocumentAccessType: "public" }

/** The settings document's name in SettingsRepo. */
export const API_KEY_CONFIG_SETTING = "apiKeyConfig"

/** The key's stored settings, or the default until configured. */
export const storedApiKeyConfig = (settings: typeof SettingsRepo.Service, apiKey: string): Effect.Effect<ApiKeyConfig> =>
  Effect.map(settings.get(apiKey, API_KEY_CONFIG_SETTING), (stored) => ({ ...DEFAULT_API_KEY_CONFIG, ...(stored as Partial<ApiKeyConfig> | undefined) }))
