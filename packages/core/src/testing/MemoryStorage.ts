import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MemoryDocumentsRepo } from "../documents/MemoryDocumentsRepo.js"
import { MemoryFoldersRepo } from "../folders/MemoryFoldersRepo.js"
import { MemoryOrganizationsRepo } from "../organizations/MemoryOrganizationsRepo.js"
import { MemoryRateLimitsRepo } from "../protocol/MemoryRateLimitsRepo.js"
import { MemoryServerSecretsRepo } from "../ports/MemoryServerSecretsRepo.js"
import { StorageHealth } from "../ports/StorageHealth.js"
import type { StorageServices } from "../Storage.js"
import { MemoryWorkspaceRepo } from "../workspace/MemoryWorkspaceRepo.js"
import { MemoryDb, MemoryTransactions } from "./memory/MemoryDb.js"

/** In-memory storage: every repository over one `MemoryDb`. Each build of the layer is a fresh, empty store. */
export const MemoryStorage: Layer.Layer<StorageServices | MemoryDb> = Layer.mergeAll(
  MemoryWorkspaceRepo,
  MemoryOrganizationsRepo,
  MemoryDocumentsRepo,
  MemoryFoldersRepo,
  MemoryServerSecretsRepo,
  MemoryRateLimitsRepo,
  MemoryTransactions,
  Layer.succeed(StorageHealth, { ping: Effect.void })
).pipe(Layer.provideMerge(MemoryDb.layer))
