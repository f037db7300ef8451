import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { AtriumConfig } from "../Config.js"
import { secretMatches } from "../crypto/Secrets.js"
import { OrganizationsRepo } from "../organizations/OrganizationsRepo.js"
import { WorkspaceRepo } from "../workspace/WorkspaceRepo.js"
import { type ApiError, permissionDenied } from "./ApiError.js"
import { keyedTtlCache } from "./KeyedTtlCache.js"
import type { ApiKeyCaller, WorkspaceCaller } from "./Operation.js"
import { RateLimiter } from "./RateLimiter.js"

export const INVALID_API_KEY = "Invalid API key."
export const INVALID_WORKSPACE_CREDENTIALS = "Invalid workspace credentials."

/** Authentication of the three modes, and the organization gate, written once for every operation. */
export class Access extends Context.Tag("@atrium/core/Access")<Access, {
  readonly apiKeyCaller: (
    apiKey: string | undefined,
    authToken: string | undefined,
    ip: string
  ) => Effect.Effect<ApiKeyCaller, ApiError<"PERMISSION_DENIED">>
  /**
   * The caller, when this process verified these credentials within `cacheTtlMillis`; undefined
   * otherwise (then `apiKeyCaller` decides). Synchronous: the hot path of every API-key request.
   */
  readonly knownApiKeyCaller: (apiKey: string | undefined, authToken: string | undefined, ip: string) => ApiKeyCaller | undefined
  readonly workspaceCaller: (
    workspaceId: string | undefined,
    authToken: string | undefined,
    ip: string
  ) => Effect.Effect<WorkspaceCaller, ApiError<"PERMISSION_DENIED">>
  /** A disabled organization refuses reads and writes of its data (docs/decisions.md, "Product rulings"). */
  readonly ensureOrganizationEnabled: (apiKey: string, organizationId: string) => Effect.Effect<void, ApiError<"PERMISSION_DENIED">>
  /** True when this process saw the organization enabled within `cacheTtlMillis` (then `ensureOrganizationEnabled` has nothing to do). */
  readonly knownEnabled: (apiKey: string, organizationId: string) => boolean
  /** Counts a call against the key's own limit (`rateLimits.perApiKey`); undefined when there is none. */
  readonly limitApiKey: ((apiKey: string) => Effect.Effect<void, ApiError<"RESOURCE_EXHAUSTED">>) | undefined
  /**
   * Whether the API key a user's token names still exists (a deleted key's tokens act on nothing);
   * trusted for `cacheTtlMillis`.
   */
  readonly apiKeyExists: (apiKey: string) => Effect.Effect<boolean>
  /** Drop what this process remembers of a key's tokens (after a reset). */
  readonly forgetApiKey: (apiKey: string) => void
  /** Drop what this process remembers of an organization's state (after disabling or enabling it). */
  readonly forgetOrganization: (apiKey: string, organizationId: string) => void
}>() {
  static readonly layer = Layer.effect(
    Access,
    Effect.gen(function*() {
      const workspaces = yield* WorkspaceRepo
      const organizations = yield* OrganizationsRepo
      const { cacheTtlMillis, rateLimits } = yield* AtriumConfig
      const limiter = yield* RateLimiter
      const perApiKey = rateLimits.perApiKey
      // The clock of the fiber that built the layer (a TestClock in tests), read without an Effect:
      // the cached checks run on every request and must cost next to nothing.
      const clock = yield* Effect.clock
      const now = () => clock.unsafeCurrentTimeMillis()
      const verified = keyedTtlCache<string>() // (apiKey, token) -> workspaceId
      const disabled = keyedTtlCache<boolean>() // (apiKey, organizationId) -> disabled
      const existing = keyedTtlCache<boolean>() // (apiKey, "") -> exists

      const apiKeyDenied = permissionDenied(INVALID_API_KEY)
      const workspaceDenied = permissionDenied(INVALID_WORKSPACE_CREDENTIALS)
      const disabledError = (organizationId: string) => permissionDenied(`Organization ${organizationId} is disabled.`)

      const knownApiKeyCaller = (apiKey: string | undefined, authToken: string | undefined, ip: string): ApiKeyCaller | undefined => {
        if (!apiKey || !authToken) return undefined
        const workspaceId = verified.get(apiKey, authToken, now())
        return workspaceId === undefined ? undefined : { mode: "apiKey", apiKey, workspaceId, ip }
      }

      return {
        knownApiKeyCaller,
        apiKeyCaller: (apiKey, authToken, ip) =>
          Effect.suspend(() => {
            if (!apiKey || !authToken) return Effect.fail(apiKeyDenied)
            const known = knownApiKeyCaller(apiKey, authToken, ip)
            if (known !== undefined) return Effect.succeed(known)
            return Effect.flatMap(workspaces.credentials(apiKey), (credentials) => {
              if (credentials === undefined || !credentials.tokenHashes.some((hash) => secretMatches(authToken, hash))) {
                return Effect.fail(apiKeyDenied)
              }
              verified.set(apiKey, authToken, credentials.workspaceId, now() + cacheTtlMillis)
              return Effect.succeed<ApiKeyCaller>({ mode: "apiKey", apiKey, workspaceId: credentials.workspaceId, ip })
            })
          }),
        workspaceCaller: (workspaceId, authToken, ip) => {
          if (!workspaceId || !authToken) return Effect.fail(workspaceDenied)
          return Effect.flatMap(workspaces.findWorkspace(workspaceId), (workspace) =>
            workspace !== undefined && secretMatches(authToken, workspace.authTokenHash)
              ? Effect.succeed<WorkspaceCaller>({ mode: "workspace", workspaceId, ip })
              : Effect.fail(workspaceDenied))
        },
        knownEnabled: (apiKey, organizationId) => disabled.get(apiKey, organizationId, now()) === false,
        ensureOrganizationEnabled: (apiKey, organizationId) =>
          Effect.suspend(() => {
            const cached = disabled.get(apiKey, organizationId, now())
            if (cached !== undefined) return cached ? Effect.fail(disabledError(organizationId)) : Effect.void
            return Effect.flatMap(organizations.isDisabled(apiKey, organizationId), (state) => {
              disabled.set(apiKey, organizationId, state === true, now() + cacheTtlMillis)
              return state === true ? Effect.fail(disabledError(organizationId)) : Effect.void
            })
          }),
        apiKeyExists: (apiKey) =>
          Effect.suspend(() => {
            const cached = existing.get(apiKey, "", now())
            if (cached !== undefined) return Effect.succeed(cached)
            return Effect.map(workspaces.credentials(apiKey), (credentials) => {
              existing.set(apiKey, "", credentials !== undefined, now() + cacheTtlMillis)
              return credentials !== undefined
            })
          }),
        limitApiKey: perApiKey === undefined ? undefined : (apiKey) => limiter.consume([[`api-key:${apiKey}`, perApiKey]]),
        forgetApiKey: (apiKey) => {
          verified.deleteApiKey(apiKey)
          existing.deleteApiKey(apiKey)
        },
        forgetOrganization: (apiKey, organizationId) => disabled.delete(apiKey, organizationId)
      }
    })
  )
}
