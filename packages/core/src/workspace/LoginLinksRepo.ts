import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

export interface LoginLinkRow {
  /** SHA-256 of the one-time token: the token itself is only in the mail. */
  readonly tokenHash: string
  /** The workspace owner the link signs in. */
  readonly email: string
  readonly createdAt: number
  readonly expiresAt: number
}

/** Storage port: pending login links (not per API key: a link belongs to a workspace owner's email). */
export class LoginLinksRepo extends Context.Tag("@atrium/core/LoginLinksRepo")<LoginLinksRepo, {
  readonly insert: (row: LoginLinkRow) => Effect.Effect<void>
  /** Drops every link that expired at or before `now`, so the table holds only live links. */
  readonly deleteExpired: (now: number) => Effect.Effect<void>
}>() {}
