import type { DocumentsRepo } from "./documents/DocumentsRepo.js"
import type { FoldersRepo } from "./folders/FoldersRepo.js"
import type { OrganizationsRepo } from "./organizations/OrganizationsRepo.js"
import type { RateLimitsRepo } from "./protocol/RateLimitsRepo.js"
import type { ServerSecretsRepo } from "./ports/ServerSecretsRepo.js"
import type { StorageHealth } from "./ports/StorageHealth.js"
import type { Transactions } from "./ports/Transactions.js"
import type { WorkspaceRepo } from "./workspace/WorkspaceRepo.js"

/**
 * Everything a storage Layer provides: one typed repository per domain, the
 * transaction boundary and a health check. In-memory (`@atrium/core/testing`),
 * SQLite (`@atrium/sql-sqlite`) and PostgreSQL provide all of them.
 */
export type StorageServices =
  | WorkspaceRepo
  | OrganizationsRepo
  | DocumentsRepo
  | FoldersRepo
  | ServerSecretsRepo
  | RateLimitsRepo
  | Transactions
  | StorageHealth
