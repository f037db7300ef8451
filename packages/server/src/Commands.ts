import { Workspaces } from "@atrium/core"
import { createAtrium } from "@atrium/core"
import { PgStorage } from "@atrium/sql-pg"
import { SqliteStorage } from "@atrium/sql-sqlite"
import * as Effect from "effect/Effect"
import type { ServerEnv } from "./Env.js"
import { storageFromUrl } from "./Storage.js"

/** `atrium migrate`: applies pending migrations and says which. */
export const migrate = (env: ServerEnv): Promise<ReadonlyArray<string>> => Effect.runPromise(storageFromUrl(env.databaseUrl, env).migrate)

/** `atrium migrate --print`: the SQL of every migration in one dialect; needs no database. */
export const printMigrations = (dialect: "sqlite" | "pg"): Promise<string> =>
  Effect.runPromise(dialect === "pg" ? PgStorage.printMigrations : SqliteStorage.printMigrations)

export interface CreatedWorkspace {
  readonly workspaceId: string
  readonly workspaceAuthToken: string
  readonly apiKey: string
  readonly authToken: string
}

/** `atrium workspace create`: a workspace with one API key, in the server's database. */
export const createWorkspace = async (env: ServerEnv, input: { ownerEmail: string; name?: string }): Promise<CreatedWorkspace> => {
  const atrium = createAtrium({ storage: storageFromUrl(env.databaseUrl, env).layer, options: env.options })
  try {
    const data = await atrium.runtime.runPromise(
      Workspaces.create({ ownerEmail: input.ownerEmail, ...(input.name !== undefined && { name: input.name }) }, undefined).pipe(
        Effect.catchTag("ApiError", (error) => Effect.die(new Error(`${error.status}: ${error.message}`)))
      )
    )
    const [apiKey, entry] = Object.entries(data.apiKeyList)[0]! as [string, { readonly authToken?: string }]
    return { workspaceId: data.id, workspaceAuthToken: data.authToken!, apiKey, authToken: entry.authToken! }
  } finally {
    await atrium.dispose()
  }
}

