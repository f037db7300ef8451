import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { AtriumConfig } from "../Config.js"
import { secretMatches } from "../crypto/Secrets.js"
import { OrganizationsRepo } from "../organizations/OrganizationsRepo.js"
import { WorkspaceRepo } from "../workspace/WorkspaceRepo.js"
import { type ApiError, permissionDenied } from "./ApiError.js"
import type { ApiKeyCaller, WorkspaceCaller } from "./Operation.js"

/**
 * A small time-bounded cache. Hot requests would otherwise read the same
 * credentials and organization flags from storage on every call; writes made
 * through this process drop their entries at once, other servers see them
 * within `cacheTtlMillis` (docs/decisions.md).
 */
const ttlCache = <V>(maxEntries = 10_000) => {
  const entries = new Map<string, { readonly value: V; readonly until: number }>()
  return {
    get: (key: string, now: number): V | undefined => {
      const entry = entries.get(key)
      return entry !== undefined && entry.until > now ? entry.value : undefined
    },
    set: (key: string, value: V, until: number) => {
      if (entries.size >= maxEntries) entries.clear()
      entries.set(key, { value, until })
    },
    delete: (key: string) => void entries.delete(key),
    deleteWhere: (matches: (key: string) => boolean) => {
      for (const key of entries.keys()) if (matches(key)) entries.delete(key)
    }
  }
}

export const INVALID_API_KEY = "Invalid API key."
export const INVALID_WORKSPACE_CREDENTIALS = "Invalid workspace credentials."

/** Authentication of the three modes, and the organization gate, written once for every operation. */
export class Access extends Context.Tag("@atrium/core/Access")<Access, {
  readonly apiKeyCaller: (
    apiKey: string | undefined,
    authToken: string | undefined,
    ip: string
  ) => Effect.Effect<ApiKeyCaller, ApiError<"PERMISSION_DENIED">>
  readonly workspaceCaller: (
    workspaceId: string | undefined,
    authToken: string | undefined,
    ip: string
  ) => Effect.Effect<WorkspaceCaller, ApiError<"PERMISSION_DENIED">>
  /** A disabled organization refuses reads and writes of its data (DECISIONS.md). */
  readonly ensureOrganizationEnabled: (apiKey: string, organizationId: string) => Effect.Effect<void, ApiError<"PERMISSION_DENIED">>
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
      const { cacheTtlMillis } = yield* AtriumConfig
      const verified = ttlCache<string>() // `${apiKey}\n${token}` -> workspaceId
      const disabled = ttlCache<boolean>() // `${apiKey}\n${organizationId}` -> disabled

      const apiKeyDenied = permissionDenied(INVALID_API_KEY)
      const workspaceDenied = permissionDenied(INVALID_WORKSPACE_CREDENTIALS)

      return {
        apiKeyCaller: (apiKey, authToken, ip) =>
          Effect.flatMap(Clock.currentTimeMillis, (now) => {
            if (!apiKey || !authToken) return Effect.fail(apiKeyDenied)
            const cacheKey = `${apiKey}\n${authToken}`
            const cached = verified.get(cacheKey, now)
            if (cached !== undefined) return Effect.succeed<ApiKeyCaller>({ mode: "apiKey", apiKey, workspaceId: cached, ip })
            return Effect.flatMap(workspaces.credentials(apiKey), (credentials) => {
              if (credentials === undefined || !credentials.tokenHashes.some((hash) => secretMatches(authToken, hash))) {
                return Effect.fail(apiKeyDenied)
              }
              verified.set(cacheKey, credentials.workspaceId, now + cacheTtlMillis)
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
        ensureOrganizationEnabled: (apiKey, organizationId) =>
          Effect.flatMap(Clock.currentTimeMillis, (now) => {
            const cacheKey = `${apiKey}\n${organizationId}`
            const cached = disabled.get(cacheKey, now)
            const check = (isDisabled: boolean) =>
              isDisabled
                ? Effect.fail(permissionDenied(`Organization ${organizationId} is disabled.`))
                : Effect.void
            if (cached !== undefined) return check(cached)
            return Effect.flatMap(organizations.isDisabled(apiKey, organizationId), (state) => {
              disabled.set(cacheKey, state === true, now + cacheTtlMillis)
              return check(state === true)
            })
          }),
        forgetApiKey: (apiKey) => verified.deleteWhere((key) => key.startsWith(`${apiKey}\n`)),
        forgetOrganization: (apiKey, organizationId) => disabled.delete(`${apiKey}\n${organizationId}`)
      }
    })
  )
}
