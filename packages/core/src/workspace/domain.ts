import { defineDomain } from "../Domain.js"
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
  services: [Workspaces.Default, WorkspaceSettings.Default],
  repositories: [SqlWorkspaceRepo, SqlSettingsRepo, SqlDomainsRepo, SqlLoginLinksRepo],
  tags: [{
    name: "workspace",
    description: "The workspace: API keys and auth tokens, domains, the permission provider, notifications, the login link, advanced webhooks (endpoints, messages, attempts)."
  }]
})
