import type { ActivitiesRepo } from "./activities/ActivitiesRepo.js"
import type { AgentExecutionsRepo } from "./agents/AgentExecutionsRepo.js"
import type { DocumentsRepo } from "./documents/DocumentsRepo.js"
import type { FoldersRepo } from "./folders/FoldersRepo.js"
import type { JobDataPort } from "./jobs/JobDataPort.js"
import type { JobsRepo } from "./jobs/JobsRepo.js"
import type { JudgmentsRepo } from "./memory/JudgmentsRepo.js"
import type { NotificationPreferencesRepo } from "./notifications/NotificationPreferencesRepo.js"
import type { OrganizationsRepo } from "./organizations/OrganizationsRepo.js"
import type { PresenceRepo } from "./presence/PresenceRepo.js"
import type { RateLimitsRepo } from "./protocol/RateLimitsRepo.js"
import type { ServerSecretsRepo } from "./ports/ServerSecretsRepo.js"
import type { StorageHealth } from "./ports/StorageHealth.js"
import type { Transactions } from "./ports/Transactions.js"
import type { SigningKeysRepo } from "./tokens/SigningKeysRepo.js"
import type { UserGroupsRepo } from "./users/UserGroupsRepo.js"
import type { UsersRepo } from "./users/UsersRepo.js"
import type { WebhookConfigRepo } from "./webhooks/WebhookConfigRepo.js"
import type { WebhookEndpointsRepo } from "./webhooks/WebhookEndpointsRepo.js"
import type { DomainsRepo } from "./workspace/DomainsRepo.js"
import type { LoginLinksRepo } from "./workspace/LoginLinksRepo.js"
import type { SettingsRepo } from "./workspace/SettingsRepo.js"
import type { WorkspaceRepo } from "./workspace/WorkspaceRepo.js"

/**
 * Everything a storage Layer provides: one typed repository per domain, the
 * transaction boundary and a health check. In-memory (`@atrium/core/testing`),
 * SQLite (`@atrium/sql-sqlite`) and PostgreSQL provide all of them.
 */
export type StorageServices =
  | WorkspaceRepo
  | SettingsRepo
  | DomainsRepo
  | LoginLinksRepo
  | OrganizationsRepo
  | DocumentsRepo
  | FoldersRepo
  | UsersRepo
  | UserGroupsRepo
  | PresenceRepo
  | NotificationPreferencesRepo
  | JobsRepo
  | JobDataPort
  | ActivitiesRepo
  | WebhookConfigRepo
  | WebhookEndpointsRepo
  | SigningKeysRepo
  | AgentExecutionsRepo
  | JudgmentsRepo
  | ServerSecretsRepo
  | RateLimitsRepo
  | Transactions
  | StorageHealth
