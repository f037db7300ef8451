/**
 * The realtime socket's messages as Atrium sends them (spec client-api.md, "Realtime", and
 * docs/realtime.md, "Messages beyond the contract"). Only what the SDK reads is typed.
 */

export type PresenceStatus = "online" | "away" | "offline"

/** A user on a document, as `presence/get` and the `subscribed` answer list it. */
export interface PresenceEntry {
  readonly userId: string
  readonly name: string | null
  readonly email: string | null
  readonly status: PresenceStatus
  /** What the user's page set (e.g. a cursor): any JSON object, or null. */
  readonly data: { readonly [key: string]: unknown } | null
  /** When Atrium last heard of the user here (ms). */
  readonly lastSeenAt: number
}

/** A change to the document, as a webhook delivery of it carries it, with its number in the document's log. */
export interface RoomEvent {
  /** e.g. `comment_annotation.add`. */
  readonly type: string
  readonly timestamp: number
  readonly data: { readonly [key: string]: unknown }
  /** The event's number in its document's log: 1, 2, … in commit order. */
  readonly seq: number
}

/** Data broadcast to the document: by the host's server (livestate/broadcast) or an editor's page (`room.broadcast`). */
export interface RoomBroadcast {
  /** Names the live state within the document: tell broadcasts apart by it. */
  readonly liveStateDataId: string
  /** The live state's data as it now is (merged first, when the sender asked for a merge). */
  readonly data: { readonly [key: string]: unknown }
  /** The user whose page sent it; absent when the host's server did. */
  readonly userId?: string
}

/** A notification for the user, as `notifications/get` gives it. */
export type RealtimeNotification = { readonly [key: string]: unknown }

interface OnDocument {
  readonly organizationId: string
  readonly documentId: string
}

export type ServerMessage =
  | OnDocument & {
    readonly type: "subscribed"
    readonly id?: number
    /** The document's last event when subscribed: a room that has seen none resumes after it. */
    readonly seq?: number
    /** Since when the document's changes have been logged without a break: said back on a resume. */
    readonly since?: number
    readonly presence: ReadonlyArray<PresenceEntry>
  }
  | OnDocument & { readonly type: "unsubscribed"; readonly id?: number }
  | { readonly type: "error"; readonly id?: number; readonly status: string; readonly message: string }
  | OnDocument & { readonly type: "event"; readonly seq: number; readonly event: Omit<RoomEvent, "seq"> }
  | OnDocument & { readonly type: "resync"; readonly seq: number }
  | OnDocument & {
    readonly type: "presence"
    readonly userId: string
    readonly user: { readonly userId: string; readonly name: string | null; readonly email: string | null }
    readonly status: PresenceStatus
    readonly data: PresenceEntry["data"]
    readonly lastSeenAt?: number
  }
  | OnDocument & { readonly type: "presence.leave"; readonly userId: string }
  | OnDocument & { readonly type: "revoked"; readonly reason: string }
  | OnDocument & { readonly type: "broadcast"; readonly liveStateDataId: string; readonly data: RoomBroadcast["data"]; readonly userId?: string }
  | { readonly type: "notification"; readonly notification: RealtimeNotification }
  | { readonly type: "token.expired" }

/** The longest frame Atrium takes (docs/realtime.md, "Bounded"): a longer one closes the socket (1009). */
export const MAX_FRAME_BYTES = 16 * 1024

/** Close codes the SDK acts on (docs/realtime.md). */
export const CloseCode = {
  /** The client closed it: no room is left. */
  normal: 1000,
  /** The token expired: a fresh one, and connect again at once. */
  tokenExpired: 4001
} as const
