import type { Provided } from "./Domain.js"
import type { Domain } from "./domains.js"
import { ActivitiesRepo } from "./activities/ActivitiesRepo.js"
import { AgentExecutionsRepo } from "./agents/AgentExecutionsRepo.js"
import { CommentsRepo } from "./comments/CommentsRepo.js"
import { DeliveriesRepo } from "./deliveries/DeliveriesRepo.js"
import { OutboxRepo } from "./deliveries/OutboxRepo.js"
import { DocumentsRepo } from "./documents/DocumentsRepo.js"
import { FoldersRepo } from "./folders/FoldersRepo.js"
import { JobDataPort } from "./jobs/JobDataPort.js"
import { JobsRepo } from "./jobs/JobsRepo.js"
import { JudgmentsRepo } from "./judgments/JudgmentsRepo.js"
import { LiveStateRepo } from "./livestate/LiveStateRepo.js"
import { NotificationPreferencesRepo } from "./notifications/NotificationPreferencesRepo.js"
import { OrganizationsRepo } from "./organizations/OrganizationsRepo.js"
import { PresenceRepo } from "./presence/PresenceRepo.js"
import { RateLimitsRepo } from "./protocol/RateLimitsRepo.js"
import { ChangeFeed } from "./realtime/ChangeFeed.js"
import { RealtimeLogRepo } from "./realtime/RealtimeLogRepo.js"
import { ServerSecretsRepo } from "./ports/ServerSecretsRepo.js"
import { StorageHealth } from "./ports/StorageHealth.js"
import { Transactions } from "./ports/Transactions.js"
import { SigningKeysRepo } from "./tokens/SigningKeysRepo.js"
import { UserGroupsRepo } from "./users/UserGroupsRepo.js"
import { UsersRepo } from "./users/UsersRepo.js"
import { WebhookConfigRepo } from "./webhooks/WebhookConfigRepo.js"
import { WebhookEndpointsRepo } from "./webhooks/WebhookEndpointsRepo.js"
import { DomainsRepo } from "./workspace/DomainsRepo.js"
import { LoginLinksRepo } from "./workspace/LoginLinksRepo.js"
import { SettingsRepo } from "./workspace/SettingsRepo.js"
import { WorkspaceRepo } from "./workspace/WorkspaceRepo.js"

/** The storage ports: a storage Layer provides each of these tags (tests and new storages use them). */
export {
  ActivitiesRepo,
  AgentExecutionsRepo,
  ChangeFeed,
  CommentsRepo,
  DeliveriesRepo,
  DocumentsRepo,
  OutboxRepo,
  FoldersRepo,
  JobDataPort,
  JobsRepo,
  JudgmentsRepo,
  LiveStateRepo,
  NotificationPreferencesRepo,
  OrganizationsRepo,
  PresenceRepo,
  RateLimitsRepo,
  RealtimeLogRepo,
  ServerSecretsRepo,
  StorageHealth,
  Transactions,
  SigningKeysRepo,
  UserGroupsRepo,
  UsersRepo,
  WebhookConfigRepo,
  WebhookEndpointsRepo,
  DomainsRepo,
  LoginLinksRepo,
  SettingsRepo,
  WorkspaceRepo
}

/**
 * Everything a storage Layer provides: every domain's repositories (their descriptors'
 * `repositories`, domains.ts), the jobs' data port over the domains' tables, the transaction
 * boundary, a health check, the server's secrets, the rate limits' counters and the change feed
 * between servers (realtime/ChangeFeed.ts). In-memory
 * (`@atrium/core/testing`), SQLite (`@atrium/sql-sqlite`) and PostgreSQL provide all of them.
 */
export type StorageServices =
  | Provided<Domain["repositories"][number]>
  | JobDataPort
  | ServerSecretsRepo
  | RateLimitsRepo
  | Transactions
  | StorageHealth
  | ChangeFeed
