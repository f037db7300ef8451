import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

export interface WorkspaceRow {
  readonly id: string
  readonly name: string
  readonly ownerId: string
  readonly ownerEmail: string
  readonly ownerName: string
  readonly ownerAvatar: string | null
  readonly authTokenHash: string
  readonly createdAt: number
}

export type ApiKeyType = "testing" | "production"

export interface ApiKeyRow {
  readonly apiKey: string
  readonly workspaceId: string
  readonly name: string
  readonly type: ApiKeyType
  readonly createdAt: number
}

export interface AuthTokenRow {
  readonly apiKey: string
  readonly id: string
  readonly name: string
  readonly tokenHash: string
  /** The last characters of the token: the token itself is never stored. */
  readonly hint: string
  readonly domains: ReadonlyArray<string>
  readonly createdAt: number
}

/** What authenticating an API-key request needs, in one read. */
export interface ApiKeyCredentials {
  readonly workspaceId: string
  readonly tokenHashes: ReadonlyArray<string>
}

/** Storage port: workspaces, their API keys and the keys' auth tokens. */
export class WorkspaceRepo extends Context.Tag("@atrium/core/WorkspaceRepo")<WorkspaceRepo, {
  readonly insertWorkspace: (row: WorkspaceRow) => Effect.Effect<void>
  readonly findWorkspace: (id: string) => Effect.Effect<WorkspaceRow | undefined>
  /** Workspaces owned by the email, its letters A-Z matched in either case (docs/decisions.md, "Workspaces"). */
  readonly countWorkspacesOwnedBy: (ownerEmail: string) => Effect.Effect<number>
  readonly insertApiKey: (row: ApiKeyRow) => Effect.Effect<void>
  readonly findApiKey: (apiKey: string) => Effect.Effect<ApiKeyRow | undefined>
  /** API keys of a workspace ordered by creation, keyset-paged after `afterApiKey`. */
  readonly listApiKeys: (
    workspaceId: string,
    options: { readonly apiKeys?: ReadonlyArray<string>; readonly after?: string; readonly limit: number }
  ) => Effect.Effect<ReadonlyArray<ApiKeyRow>>
  /** Renames a key of the workspace; false when the workspace has no such key. */
  readonly renameApiKey: (workspaceId: string, apiKey: string, name: string) => Effect.Effect<boolean>
  readonly insertAuthToken: (row: AuthTokenRow) => Effect.Effect<void>
  readonly listAuthTokens: (apiKey: string) => Effect.Effect<ReadonlyArray<AuthTokenRow>>
  /** Removes every auth token of the key. */
  readonly deleteAuthTokens: (apiKey: string) => Effect.Effect<void>
  readonly credentials: (apiKey: string) => Effect.Effect<ApiKeyCredentials | undefined>
}>() {}
