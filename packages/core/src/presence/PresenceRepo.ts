import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { PresenceStatus } from "./PresenceSchemas.js"

/** One user on a document's presence list. */
export interface PresenceRow {
  readonly apiKey: string
  readonly organizationId: string
  readonly documentId: string
  readonly userId: string
  readonly name: string | null
  readonly email: string | null
  readonly status: PresenceStatus
  readonly updatedAt: number
}

/** Storage port: the presence list of each document. */
export class PresenceRepo extends Context.Tag("@atrium/core/PresenceRepo")<PresenceRepo, {
  readonly find: (apiKey: string, organizationId: string, documentId: string, userId: string) => Effect.Effect<PresenceRow | undefined>
  /** Inserts the entry, or replaces the existing one. */
  readonly put: (row: PresenceRow) => Effect.Effect<void>
  readonly delete: (
    apiKey: string,
    organizationId: string,
    documentId: string,
    userIds: ReadonlyArray<string>
  ) => Effect.Effect<void>
  /** The document's presence list, ordered by userId. */
  readonly list: (apiKey: string, organizationId: string, documentId: string) => Effect.Effect<ReadonlyArray<PresenceRow>>
}>() {}
