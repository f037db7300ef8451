import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { SqlDocumentsRepo } from "../documents/SqlDocumentsRepo.js"
import { SqlFoldersRepo } from "../folders/SqlFoldersRepo.js"
import { SqlOrganizationsRepo } from "../organizations/SqlOrganizationsRepo.js"
import { SqlRateLimitsRepo } from "../protocol/SqlRateLimitsRepo.js"
import { SqlServerSecretsRepo } from "../ports/SqlServerSecretsRepo.js"
import { StorageHealth } from "../ports/StorageHealth.js"
import { Transactions } from "../ports/Transactions.js"
import type { StorageServices } from "../Storage.js"
import { SqlWorkspaceRepo } from "../workspace/SqlWorkspaceRepo.js"

const SqlTransactions = Layer.effect(
  Transactions,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    // A storage failure is a defect (logged, answered INTERNAL); the operation's own errors pass through.
    withTransaction: <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
      sql.withTransaction(self).pipe(
        Effect.catchIf((error): error is SqlError => error instanceof SqlError, (error) => Effect.die(error))
      ) as Effect.Effect<A, E, R>
  }))
)

const SqlHealth = Layer.effect(
  StorageHealth,
  Effect.map(SqlClient.SqlClient, (sql) => ({ ping: Effect.asVoid(sql`SELECT 1`) }))
)

/**
 * Every repository written once against `@effect/sql`'s SqlClient: the SQLite
 * and PostgreSQL packages add only their client and their migrations.
 */
export const SqlStorage: Layer.Layer<StorageServices, never, SqlClient.SqlClient> = Layer.mergeAll(
  SqlWorkspaceRepo,
  SqlOrganizationsRepo,
  SqlDocumentsRepo,
  SqlFoldersRepo,
  SqlServerSecretsRepo,
  SqlRateLimitsRepo,
  SqlTransactions,
  SqlHealth
)
