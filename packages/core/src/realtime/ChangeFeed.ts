import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import { afterCommit } from "../ports/Transactions.js"

/** What servers tell each other through the feed: ids, never an event (the log holds those). */
export type FeedMessage =
  /** The document's log reached `seq`. */
  | { readonly kind: "change"; readonly apiKey: string; readonly organizationId: string; readonly documentId: string; readonly seq: number }
  /** A server began following the key: log its changes from now on. */
  | { readonly kind: "follow"; readonly apiKey: string }

export interface FeedListener {
  readonly message: (message: FeedMessage) => void
  /**
   * Messages may have been missed (the feed's connection was lost and is back): read every
   * document followed here from where it was. Never called by a feed that cannot lose any.
   */
  readonly gap: () => void
}

/**
 * How a change reaches every server on the database (docs/realtime.md): in-process for SQLite
 * and memory (one process), PostgreSQL's LISTEN/NOTIFY for many (`@atrium/sql-pg`). A storage
 * Layer provides it.
 */
export class ChangeFeed extends Context.Tag("@atrium/core/ChangeFeed")<ChangeFeed, {
  /**
   * Tells every server (this one included). Inside a transaction, once it commits and in the
   * order transactions commit, never if it rolls back; outside one, at once.
   */
  readonly publish: (message: FeedMessage) => Effect.Effect<void>
  /** Listens for as long as the scope is open. */
  readonly listen: (listener: FeedListener) => Effect.Effect<void, never, Scope.Scope>
}>() {}

/** The feed of one process: listeners are told after commit, in the order the commits ran their hooks. */
export const inProcessChangeFeed = (): Context.Tag.Service<ChangeFeed> => {
  const listeners = new Set<FeedListener>()
  return {
    publish: (message) =>
      afterCommit(Effect.sync(() => {
        for (const listener of listeners) listener.message(message)
      })),
    listen: (listener) =>
      Effect.acquireRelease(
        Effect.sync(() => void listeners.add(listener)),
        () => Effect.sync(() => void listeners.delete(listener))
      )
  }
}

export const InProcessChangeFeed: Layer.Layer<ChangeFeed> = Layer.sync(ChangeFeed, inProcessChangeFeed)

/** A feed message as NOTIFY's text payload (under PostgreSQL's 8,000 bytes: ids are at most 256 characters). */
export const encodeFeedMessage = (message: FeedMessage): string => JSON.stringify(message)

/** The message a payload holds, or undefined for one that is not (another program's NOTIFY on the channel). */
export const decodeFeedMessage = (payload: string): FeedMessage | undefined => {
  try {
    const value = JSON.parse(payload) as Partial<Record<string, unknown>>
    if (value.kind === "follow" && typeof value.apiKey === "string") return { kind: "follow", apiKey: value.apiKey }
    if (
      value.kind === "change" && typeof value.apiKey === "string" && typeof value.organizationId === "string" &&
      typeof value.documentId === "string" && typeof value.seq === "number"
    ) {
      return { kind: "change", apiKey: value.apiKey, organizationId: value.organizationId, documentId: value.documentId, seq: value.seq }
    }
  } catch {
    // not ours
  }
  return undefined
}
