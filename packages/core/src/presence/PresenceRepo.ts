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
  /** What the user's client set (realtime `presence` frames), as JSON text; null until then. */
  readonly data: string | null
  /** The server whose connection holds the entry and renews it; null for entries of the server API. */
  readonly heldBy: string | null
  /** When the entry was last written. */
  readonly updatedAt: number
  /** Its last sign of life: written, or renewed by the server holding it. */
  readonly lastSeenAt: number
}

/** Which user left which document's list. */
export interface PresenceKey {
  readonly apiKey: string
  readonly organizationId: string
  readonly documentId: string
  readonly userId: string
}

/** Storage port: the presence list of each document. */
export class PresenceRepo extends Context.Tag("@atrium/core/PresenceRepo")<PresenceRepo, {
  readonly find: (apiKey: string, organizationId: string, documentId: string, userId: string) => Effect.Effect<PresenceRow | undefined>
  /** Inserts the entry, or replaces the existing one. */
  readonly put: (row: PresenceRow) => Effect.Effect<void>
  /** Removes the users' entries; the ids of those that were there. */
  readonly delete: (
    apiKey: string,
    organizationId: string,
    documentId: string,
    userIds: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<string>>
  /** Removes the user's entry if `heldBy` still holds it (another server's connection may have taken it over); whether it did. */
  readonly release: (key: PresenceKey, heldBy: string) => Effect.Effect<boolean>
  /** The document's presence list, ordered by userId: the entries seen at `seenSince` or later. */
  readonly list: (apiKey: string, organizationId: string, documentId: string, seenSince: number) => Effect.Effect<ReadonlyArray<PresenceRow>>
  /**
   * The entries named, if `heldBy` holds them, were seen at `now`. Named rather than every entry
   * `heldBy` holds: one its connection let go of, and a late write brought back, must not live on.
   */
  readonly renew: (heldBy: string, entries: ReadonlyArray<PresenceKey>, now: number) => Effect.Effect<void>
  /** Removes the entries last seen before `before`, and says which (each to exactly one caller, however many sweep at once). */
  readonly sweep: (before: number) => Effect.Effect<ReadonlyArray<PresenceKey>>
}>() {}
