import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MemoryDb } from "../testing/memory/MemoryDb.js"
import { compareText } from "../TextOrder.js"
import { type ApiKeyRow, type AuthTokenRow, WorkspaceRepo, type WorkspaceRow } from "./WorkspaceRepo.js"

export const MemoryWorkspaceRepo = Layer.effect(
  WorkspaceRepo,
  Effect.gen(function*() {
    const db = yield* MemoryDb
    const workspaces = db.table<WorkspaceRow>("workspaces")
    const apiKeys = db.table<ApiKeyRow>("api_keys")
    const tokens = db.table<AuthTokenRow>("auth_tokens")
    const tokenKey = (t: { apiKey: string; id: string }) => `${t.apiKey}\n${t.id}`
    return {
      insertWorkspace: (w) => Effect.sync(() => workspaces.set(w.id, w)),
      findWorkspace: (id) => Effect.sync(() => workspaces.get(id)),
      countWorkspacesOwnedBy: (email) => Effect.sync(() => workspaces.values().filter((w) => w.ownerEmail === email).length),
      insertApiKey: (k) => Effect.sync(() => apiKeys.set(k.apiKey, k)),
      findApiKey: (apiKey) => Effect.sync(() => apiKeys.get(apiKey)),
      listApiKeys: (workspaceId, { after, apiKeys: only, limit }) =>
        Effect.sync(() =>
          apiKeys.values()
            .filter((k) =>
              k.workspaceId === workspaceId && (only === undefined || only.includes(k.apiKey)) &&
              (after === undefined || compareText(k.apiKey, after) > 0)
            )
            .sort((a, b) => compareText(a.apiKey, b.apiKey))
            .slice(0, limit)
        ),
      renameApiKey: (workspaceId, apiKey, name) =>
        Effect.sync(() => {
          const key = apiKeys.get(apiKey)
          if (key === undefined || key.workspaceId !== workspaceId) return false
          apiKeys.set(apiKey, { ...key, name })
          return true
        }),
      insertAuthToken: (t) => Effect.sync(() => tokens.set(tokenKey(t), t)),
      listAuthTokens: (apiKey) =>
        Effect.sync(() =>
          tokens.values().filter((t) => t.apiKey === apiKey).sort((a, b) => a.createdAt - b.createdAt || compareText(a.id, b.id))
        ),
      deleteAuthTokens: (apiKey) =>
        Effect.sync(() => tokens.values().filter((t) => t.apiKey === apiKey).forEach((t) => tokens.delete(tokenKey(t)))),
      credentials: (apiKey) =>
        Effect.sync(() => {
          const key = apiKeys.get(apiKey)
          return key === undefined ? undefined : {
            workspaceId: key.workspaceId,
            tokenHashes: tokens.values().filter((t) => t.apiKey === apiKey).map((t) => t.tokenHash)
          }
        })
    }
  })
)
