import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { Channel } from "./NotificationPreferenceSchemas.js"

/** A user's channel settings for one document, or their default for the organization; null channels are unset. */
export interface NotificationPreferenceRow {
  readonly apiKey: string
  readonly organizationId: string
  readonly userId: string
  /** null: the organization-level default, for every document. */
  readonly documentId: string | null
  readonly inbox: Channel | null
  readonly email: Channel | null
  readonly slack: Channel | null
  readonly updatedAt: number
}

/** Storage port: per-user notification preferences. */
export class NotificationPreferencesRepo extends Context.Tag("@atrium/core/NotificationPreferencesRepo")<
  NotificationPreferencesRepo,
  {
    /**
     * The users' organization-level rows (if any) and the rows of those documents that have one:
     * one statement for up to a thousand users (a comment event's involved users are read at once).
     */
    readonly list: (
      apiKey: string,
      organizationId: string,
      userIds: ReadonlyArray<string>,
      documentIds: ReadonlyArray<string>
    ) => Effect.Effect<ReadonlyArray<NotificationPreferenceRow>>
    /** Inserts the row, or replaces the existing one of the same level. */
    readonly put: (row: NotificationPreferenceRow) => Effect.Effect<void>
    /**
     * For every user at every level (a document, or null: the organization level), sets the
     * channels given (non-null) and keeps the others as stored: one statement for them all.
     */
    readonly merge: (
      apiKey: string,
      organizationId: string,
      userIds: ReadonlyArray<string>,
      documentIds: ReadonlyArray<string | null>,
      channels: { readonly inbox: Channel | null; readonly email: Channel | null; readonly slack: Channel | null },
      updatedAt: number
    ) => Effect.Effect<void>
    /** The users whose email channel resolves to ALL in the document (set there, or set at the organization and not there). */
    readonly emailAllIn: (apiKey: string, organizationId: string, documentId: string) => Effect.Effect<ReadonlyArray<string>>
  }
>() {}
