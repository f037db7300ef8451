import { Workspaces } from "@atrium/core"
import { createAtrium } from "@atrium/core"
import * as Effect from "effect/Effect"
import * as ManagedRuntime from "effect/ManagedRuntime"
import { SqliteStorage } from "@atrium/sql-sqlite"
import type { ServerEnv } from "./Env.js"
import { storageFromUrl } from "./Storage.js"

/** `atrium migrate`: applies pending migrations and says which. */
export const migrate = async (env: ServerEnv): Promise<ReadonlyArray<string>> => {
  const storage = storageFromUrl(env.databaseUrl)
  const runtime = ManagedRuntime.make(storage.clientLayer)
  try {
    const applied = await runtime.runPromise(SqliteStorage.migrate)
    return applied.map(([id, name]) => `${id}_${name}`)
  } finally {
    await runtime.dispose()
  }
}

export interface CreatedWorkspace {
  readonly workspaceId: string
  readonly workspaceAuthToken: string
  readonly apiKey: string
  readonly authToken: string
}

/** `atrium workspace create`: a workspace with one API key, in the server's database. */
export const createWorkspace = async (env: ServerEnv, input: { ownerEmail: string; name?: string }): Promise<CreatedWorkspace> => {
  const atrium = createAtrium({ storage: storageFromUrl(env.databaseUrl).layer, options: env.options })
  try {
    const result = await atrium.runtime.runPromise(
      Workspaces.create({ ownerEmail: input.ownerEmail, ...(input.name !== undefined && { name: input.name }) }, undefined).pipe(
        Effect.catchTag("ApiError", (error) => Effect.die(new Error(`${error.status}: ${error.message}`)))
      )
    )
    const data = result.data
    const [apiKey, entry] = Object.entries(data.apiKeyList)[0]! as [string, { readonly authToken?: string }]
    return { workspaceId: data.id, workspaceAuthToken: data.authToken!, apiKey, authToken: entry.authToken! }
  } finally {
    await atrium.dispose()
  }
}

