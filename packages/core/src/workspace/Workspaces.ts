import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { AtriumConfig } from "../Config.js"
import { hashSecret, newSecret, secretHint } from "../crypto/Secrets.js"
import { Access } from "../protocol/Access.js"
import { alreadyExists, invalidArgument, notFound, permissionDenied } from "../protocol/ApiError.js"
import { PageTokens } from "../protocol/PageTokens.js"
import { RateLimiter } from "../protocol/RateLimiter.js"
import { Ids } from "../ports/Ids.js"
import { Transactions } from "../ports/Transactions.js"
import { isDisposableEmail } from "./EmailRules.js"
import type {
  CreateApiKeyInput,
  CreateWorkspaceInput,
  ListApiKeysInput,
  UpdateApiKeyInput
} from "./WorkspaceSchemas.js"
import { type ApiKeyRow, type ApiKeyType, WorkspaceRepo, type WorkspaceRow } from "./WorkspaceRepo.js"

export const PUBLIC_CREATE_OFF = "Workspace creation over the API is turned off on this server: the operator creates workspaces with `atrium workspace create`."

export const DISPOSABLE_EMAIL = "This email domain is not supported."
const API_KEY_NOT_FOUND = "API key not found."
const DEFAULT_TOKEN_NAME = "Default Auth Token"

/** "jane.doe@x.com" -> "Jane.doe Test API Key" (the hosted service's default name). */
const defaultApiKeyName = (email: string, type: ApiKeyType) => {
  const local = email.split("@", 1)[0]!
  return `${local.charAt(0).toUpperCase()}${local.slice(1)} ${type === "testing" ? "Test" : "Production"} API Key`
}

const apiKeyEntry = (key: ApiKeyRow) => ({ id: key.apiKey, apiKeyName: key.name, type: key.type })

/** Workspaces, their API keys and the keys' auth tokens. Secrets are shown once and stored hashed. */
export class Workspaces extends Effect.Service<Workspaces>()("@atrium/core/Workspaces", {
  accessors: true,
  effect: Effect.gen(function*() {
    const repo = yield* WorkspaceRepo
    const ids = yield* Ids
    const access = yield* Access
    const pageTokens = yield* PageTokens
    const limiter = yield* RateLimiter
    const config = yield* AtriumConfig
    const { lock, withTransaction } = yield* Transactions

    /** Stores a new auth token of the key (its hash); returns its plain value, shown once. */
    const issueAuthToken = (apiKey: string) =>
      Effect.gen(function*() {
        const authToken = newSecret()
        yield* repo.insertAuthToken({
          apiKey,
          id: yield* ids.make("tok"),
          name: DEFAULT_TOKEN_NAME,
          tokenHash: hashSecret(authToken),
          hint: secretHint(authToken),
          domains: [],
          createdAt: yield* Clock.currentTimeMillis
        })
        return authToken
      })

    /** A new API key, with one auth token unless told otherwise; returns the key and the token's plain value. */
    const addApiKey = (workspaceId: string, name: string, type: ApiKeyType, withToken: boolean) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const key: ApiKeyRow = { apiKey: yield* ids.make("atr", 20), workspaceId, name, type, createdAt: now }
        yield* repo.insertApiKey(key)
        return { key, authToken: withToken ? yield* issueAuthToken(key.apiKey) : undefined }
      })

    const describe = (workspace: WorkspaceRow, keys: ReadonlyArray<ApiKeyRow>, secrets?: { workspace: string; keys: Record<string, string> }) => ({
      id: workspace.id,
      name: workspace.name,
      owner: { email: workspace.ownerEmail, id: workspace.ownerId, name: workspace.ownerName, avatar: workspace.ownerAvatar },
      ...(secrets && { authToken: secrets.workspace }),
      apiKeyList: Object.fromEntries(keys.map((key) => {
        const token = secrets?.keys[key.apiKey]
        return [key.apiKey, token === undefined ? apiKeyEntry(key) : { ...apiKeyEntry(key), authToken: token }]
      }))
    })

    const requireKey = (workspaceId: string, apiKey: string) =>
      Effect.flatMap(repo.findApiKey(apiKey), (key) =>
        key === undefined || key.workspaceId !== workspaceId ? Effect.fail(notFound(API_KEY_NOT_FOUND)) : Effect.succeed(key))

    return {
      /**
       * Refuses disposable emails and a second workspace for one email. Callers
       * over HTTP are rate limited per IP, and refused when the operator turned public creation
       * off; the operator's CLI passes no IP.
       */
      create: (input: typeof CreateWorkspaceInput.Type, ip: string | undefined) =>
        Effect.gen(function*() {
          if (ip !== undefined && !config.publicWorkspaceCreate) return yield* permissionDenied(PUBLIC_CREATE_OFF)
          if (isDisposableEmail(input.ownerEmail, config.disposableEmailDomains)) return yield* invalidArgument(DISPOSABLE_EMAIL)
          if (ip !== undefined) yield* limiter.consume([[`workspace-create:ip:${ip}`, config.rateLimits.workspaceCreatePerIp]])
          return yield* withTransaction(Effect.gen(function*() {
            // Two creates for one email (in any case) side by side would each count none.
            yield* lock("workspace-owner", input.ownerEmail.toLowerCase())
            if ((yield* repo.countWorkspacesOwnedBy(input.ownerEmail)) > 0) {
              return yield* alreadyExists("A workspace already exists for this email address")
            }
            const now = yield* Clock.currentTimeMillis
            const name = input.name ?? input.ownerEmail
            const workspaceToken = newSecret()
            const workspace: WorkspaceRow = {
              id: yield* ids.make("ws", 20),
              name: input.workspaceName ?? `${name} workspace`,
              ownerId: yield* ids.make("usr", 20),
              ownerEmail: input.ownerEmail,
              ownerName: name,
              ownerAvatar: input.avatar ?? null,
              authTokenHash: hashSecret(workspaceToken),
              createdAt: now
            }
            yield* repo.insertWorkspace(workspace)
            const { authToken, key } = yield* addApiKey(workspace.id, defaultApiKeyName(input.ownerEmail, "testing"), "testing", true)
            return describe(workspace, [key], { workspace: workspaceToken, keys: { [key.apiKey]: authToken! } })
          }))
        }),

      get: (workspaceId: string) =>
        Effect.gen(function*() {
          const workspace = yield* repo.findWorkspace(workspaceId)
          if (workspace === undefined) return yield* notFound("Workspace not found.")
          const keys = yield* repo.listApiKeys(workspaceId, { limit: 1000 })
          return describe(workspace, keys)
        }),

      createApiKey: (workspaceId: string, input: typeof CreateApiKeyInput.Type) =>
        withTransaction(Effect.gen(function*() {
          const { authToken, key } = yield* addApiKey(
            workspaceId,
            input.apiKeyName ?? defaultApiKeyName(input.ownerEmail, input.type),
            input.type,
            input.createAuthToken !== false
          )
          return { apiKey: key.apiKey, ...(authToken !== undefined && { authToken }) }
        })),

      listApiKeys: (workspaceId: string, input: typeof ListApiKeysInput.Type) =>
        Effect.gen(function*() {
          const limit = input.pageSize ?? 100
          return yield* pageTokens.page({
            scope: { apiKey: workspaceId, operation: "workspace.apikeys.get", filters: input.apiKeys ?? null },
            token: input.pageToken,
            limit,
            read: (after: string | undefined, limit) =>
              repo.listApiKeys(workspaceId, { ...(input.apiKeys && { apiKeys: input.apiKeys }), ...(after !== undefined && { after }), limit }),
            cursorOf: (key) => key.apiKey,
            present: (page) => ({ items: page.items.map(apiKeyEntry), next: page.next })
          })
        }),

      updateApiKey: (workspaceId: string, input: typeof UpdateApiKeyInput.Type) =>
        Effect.flatMap(repo.renameApiKey(workspaceId, input.apiKey, input.apiKeyName), (renamed) =>
          renamed ? Effect.void : Effect.fail(notFound(API_KEY_NOT_FOUND))),

      /** Tokens are stored hashed: the list shows each token's last characters only. */
      getAuthTokens: (workspaceId: string, apiKey: string) =>
        Effect.gen(function*() {
          yield* requireKey(workspaceId, apiKey)
          const tokens = yield* repo.listAuthTokens(apiKey)
          return { apiKey, authTokens: tokens.map((t) => ({ token: t.hint, name: t.name, domains: [...t.domains] })) }
        }),

      /** Replaces every token of the key with a new one; the old ones stop working at once. */
      resetAuthToken: (workspaceId: string, apiKey: string) =>
        Effect.gen(function*() {
          yield* requireKey(workspaceId, apiKey)
          // Under the key's token lock: concurrent resets replace one another, and one token is left.
          const authToken = yield* withTransaction(
            Effect.zipRight(lock("auth-tokens", apiKey), Effect.zipRight(repo.deleteAuthTokens(apiKey), issueAuthToken(apiKey)))
          )
          access.forgetApiKey(apiKey)
          return { apiKey, newAuthToken: { token: authToken, name: DEFAULT_TOKEN_NAME, domains: [] as Array<string> } }
        })
    }
  })
}) {}
