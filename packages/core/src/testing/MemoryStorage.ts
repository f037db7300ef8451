import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MemoryActivitiesRepo } from "../activities/MemoryActivitiesRepo.js"
import { MemoryAgentExecutionsRepo } from "../agents/MemoryAgentExecutionsRepo.js"
import { MemoryDocumentsRepo } from "../documents/MemoryDocumentsRepo.js"
import { MemoryFoldersRepo } from "../folders/MemoryFoldersRepo.js"
import { MemoryJobDataPort } from "../jobs/MemoryJobDataPort.js"
import { MemoryJobsRepo } from "../jobs/MemoryJobsRepo.js"
import { MemoryJudgmentsRepo } from "../judgments/MemoryJudgmentsRepo.js"
import { MemoryNotificationPreferencesRepo } from "../notifications/MemoryNotificationPreferencesRepo.js"
import { MemoryOrganizationsRepo } from "../organizations/MemoryOrganizationsRepo.js"
import { MemoryRateLimitsRepo } from "../protocol/MemoryRateLimitsRepo.js"
import { MemoryServerSecretsRepo } from "../ports/MemoryServerSecretsRepo.js"
import { StorageHealth } from "../ports/StorageHealth.js"
import { MemoryPresenceRepo } from "../presence/MemoryPresenceRepo.js"
import type { StorageServices } from "../Storage.js"
import { MemorySigningKeysRepo } from "../tokens/MemorySigningKeysRepo.js"
import { MemoryUserGroupsRepo } from "../users/MemoryUserGroupsRepo.js"
import { MemoryUsersRepo } from "../users/MemoryUsersRepo.js"
import { MemoryWebhookConfigRepo } from "../webhooks/MemoryWebhookConfigRepo.js"
import { MemoryWebhookEndpointsRepo } from "../webhooks/MemoryWebhookEndpointsRepo.js"
import { MemoryDomainsRepo } from "../workspace/MemoryDomainsRepo.js"
import { MemoryLoginLinksRepo } from "../workspace/MemoryLoginLinksRepo.js"
import { MemorySettingsRepo } from "../workspace/MemorySettingsRepo.js"
import { MemoryWorkspaceRepo } from "../workspace/MemoryWorkspaceRepo.js"
import { MemoryDb, MemoryTransactions } from "./memory/MemoryDb.js"

/** In-memory storage: every repository over one `MemoryDb`. Each build of the layer is a fresh, empty store. */
export const MemoryStorage: Layer.Layer<StorageServices | MemoryDb> = Layer.mergeAll(
  MemoryWorkspaceRepo,
  MemorySettingsRepo,
  MemoryDomainsRepo,
  MemoryLoginLinksRepo,
  MemoryOrganizationsRepo,
  MemoryDocumentsRepo,
  MemoryFoldersRepo,
  MemoryUsersRepo,
  MemoryUserGroupsRepo,
  MemoryPresenceRepo,
  MemoryNotificationPreferencesRepo,
  MemoryJobsRepo,
  MemoryJobDataPort,
  MemoryActivitiesRepo,
  MemoryWebhookConfigRepo,
  MemoryWebhookEndpointsRepo,
  MemorySigningKeysRepo,
  MemoryAgentExecutionsRepo,
  MemoryJudgmentsRepo,
  MemoryServerSecretsRepo,
  MemoryRateLimitsRepo,
  MemoryTransactions,
  Layer.succeed(StorageHealth, { ping: Effect.void })
).pipe(Layer.provideMerge(MemoryDb.layer))
