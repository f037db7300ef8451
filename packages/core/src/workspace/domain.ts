import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { defineDomain } from "../Domain.js"
import { AllowedOrigins } from "../protocol/Cors.js"
import { DomainOrigins } from "./DomainOrigins.js"
import { workspaceOperations } from "./operations.js"
import { workspaceSettingsOperations } from "./settingsOperations.js"
import { SqlDomainsRepo } from "./SqlDomainsRepo.js"
import { SqlLoginLinksRepo } from "./SqlLoginLinksRepo.js"
import { SqlSettingsRepo } from "./SqlSettingsRepo.js"
import { SqlWorkspaceRepo } from "./SqlWorkspaceRepo.js"
import { Workspaces } from "./Workspaces.js"
import { WorkspaceSettings } from "./WorkspaceSettings.js"

/** Workspaces, their API keys and auth tokens, login links, and the workspace's settings (domains, permission provider, notifications). */
export const workspaceDomain = defineDomain({
  name: "workspace",
  operations: [...workspaceOperations, ...workspaceSettingsOperations],
  // Shared: the dispatcher asks it whether a browser's origin may call the client API (AllowedOrigins).
  shared: [Layer.effect(AllowedOrigins, Effect.map(DomainOrigins, ({ admits, known }) => ({ admits, known }))).pipe(Layer.provideMerge(DomainOrigins.Default))],
  services: [Workspaces.Default, WorkspaceSettings.Default],
  repositories: [SqlWorkspaceRepo, SqlSettingsRepo, SqlDomainsRepo, SqlLoginLinksRepo],
  otherTables: [
    { name: "workspaces", why: "the workspace and its owner" },
    { name: "api_keys", why: "the workspace's keys" },
    { name: "auth_tokens", why: "the keys' auth tokens (hashed)" },
    { name: "workspace_settings", why: "the key's settings" },
    { name: "allowed_domains", why: "the key's allowed domains" },
    { name: "login_links", why: "the owner's login links (hashed), which expire" },
    { name: "server_secrets", why: "the server's own secrets (page tokens, sealed settings)" },
    { name: "rate_limits", why: "request counters per caller and window" }
  ],
  tags: [{
    name: "workspace",
    description: "The workspace: API keys and auth tokens, domains, the permission provider, notifications, the login link, advanced webhooks (endpoints, messages, attempts)."
  }]
})
