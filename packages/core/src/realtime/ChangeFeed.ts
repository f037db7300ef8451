import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import { afterCommit } from "../ports/Transactions.js"

/** Who a presence message is about, as subscribers see them. */
export interface PresenceUser {
  readonly userId: string
  readonly name: string | null
  readonly email: string | null
}

/**
 * What servers tell each other through the feed: for changes ids, never an event (the log holds
 * those); presence whole, since it is not kept anywhere but the latest entry; for a broadcast its
 * live state's ids and version (docs/realtime.md).
 */
export type FeedMessage =
  /** The document's log reached `seq`. */
  | { readonly kind: "change"; readonly apiKey: string; readonly organizationId: string; readonly documentId: string; readonly seq: number }
  /** A server began following the key: log its changes from now on. */
  | { readonly kind: "follow"; readonly apiKey: string }
  /** A notification was made (`notification.add`): each server pushes it to the connections of those who see it. */
  | { readonly kind: "notification"; readonly apiKey: string; readonly organizationId: string; readonly notificationId: string }
  /** Something the access rule reads changed in the organization (null: the key's own settings): who may read what is asked again. */
  | { readonly kind: "access"; readonly apiKey: string; readonly organizationId: string | null }
  /** A user entered or changed its presence; `origin` is the connection that set it (not echoed to it), null for the server API. */
  | {
    readonly kind: "presence"
    readonly apiKey: string
    readonly organizationId: string
    readonly documentId: string
    readonly user: PresenceUser
    readonly status: string
    readonly data: unknown
    readonly origin: string | null
  }
  /**
   * A user left the document's presence (unsubscribed, disconnected, expired, or removed by presence/delete);
   * `origin` is the server whose connection let go of it (which knows already), null when it was removed.
   */
  | {
    readonly kind: "presence.leave"
    readonly apiKey: string
    readonly organizationId: string
    readonly documentId: string
    readonly userId: string
    readonly origin: string | null
  }
  /**
   * A live state was broadcast and stored at `version` (its data is read from storage, not carried:
   * it may be 64 KB); `userId` sent it and `origin` is its connection (not echoed to it), both
   * null for the server API.
   */
  | {
    readonly kind: "broadcast"
    readonly apiKey: string
    readonly organizationId: string
    readonly documentId: string
    readonly liveStateDataId: string
    readonly version: number
    readonly userId: string | null
    readonly origin: string | null
  }

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

/** PostgreSQL's limit on a NOTIFY payload, in bytes. */
const MAX_PAYLOAD_BYTES = 7_999
const utf8 = new TextEncoder()

/**
 * A feed message as NOTIFY's text payload, under PostgreSQL's 8,000 bytes: ids are at most 256
 * characters and presence `data` 4 KB, but a token's user name and email are long enough, in
 * the worst case, to pass it: then the presence message goes without them (subscribers read
 * null), rather than not at all.
 */
export const encodeFeedMessage = (message: FeedMessage): string => {
  const text = JSON.stringify(message)
  if (message.kind !== "presence" || text.length * 3 <= MAX_PAYLOAD_BYTES || utf8.encode(text).length <= MAX_PAYLOAD_BYTES) return text
  return JSON.stringify({ ...message, user: { userId: message.user.userId, name: null, email: null } })
}

const isText = (value: unknown): value is string => typeof value === "string"
const isTextOrNull = (value: unknown): value is string | null => value === null || typeof value === "string"

/** The message a payload holds, or undefined for one that is not (another program's NOTIFY on the channel). */
export const decodeFeedMessage = (payload: string): FeedMessage | undefined => {
  try {
    const value = JSON.parse(payload) as Partial<Record<string, unknown>>
    if (value.kind === "follow" && typeof value.apiKey === "string") return { kind: "follow", apiKey: value.apiKey }
    if (value.kind === "access" && isText(value.apiKey) && isTextOrNull(value.organizationId)) {
      return { kind: "access", apiKey: value.apiKey, organizationId: value.organizationId }
    }
    if (value.kind === "notification" && isText(value.apiKey) && isText(value.organizationId) && isText(value.notificationId)) {
      return { kind: "notification", apiKey: value.apiKey, organizationId: value.organizationId, notificationId: value.notificationId }
    }
    if (
      value.kind === "change" && typeof value.apiKey === "string" && typeof value.organizationId === "string" &&
      typeof value.documentId === "string" && typeof value.seq === "number"
    ) {
      return { kind: "change", apiKey: value.apiKey, organizationId: value.organizationId, documentId: value.documentId, seq: value.seq }
    }
    if (!isText(value.apiKey) || !isText(value.organizationId) || !isText(value.documentId)) return undefined
    const place = { apiKey: value.apiKey, organizationId: value.organizationId, documentId: value.documentId }
    if (value.kind === "presence.leave" && isText(value.userId) && isTextOrNull(value.origin)) {
      return { kind: "presence.leave", ...place, userId: value.userId, origin: value.origin }
    }
    if (
      value.kind === "broadcast" && isText(value.liveStateDataId) && typeof value.version === "number" && isTextOrNull(value.userId) &&
      isTextOrNull(value.origin)
    ) {
      return { kind: "broadcast", ...place, liveStateDataId: value.liveStateDataId, version: value.version, userId: value.userId, origin: value.origin }
    }
    const user = value.user as Partial<Record<string, unknown>> | null | undefined
    if (
      value.kind === "presence" && typeof user === "object" && user !== null && isText(user.userId) && isTextOrNull(user.name) &&
      isTextOrNull(user.email) && isText(value.status) && isTextOrNull(value.origin)
    ) {
      return {
        kind: "presence",
        ...place,
        user: { userId: user.userId, name: user.name, email: user.email },
        status: value.status,
        data: value.data ?? null,
        origin: value.origin
      }
    }
  } catch {
    // not ours
  }
  return undefined
}
