import { AtriumError, type ErrorStatus } from "@atrium/client"
import { MAX_FRAME_BYTES, type PresenceEntry, type PresenceStatus, type RoomBroadcast, type RoomEvent, type ServerMessage } from "./RealtimeMessages.js"
import { createTopic, type Topic } from "./Topic.js"

/**
 * - `entering`: the subscribe is sent (or waits for the socket); no answer yet.
 * - `entered`: subscribed; events and presence arrive. It stays so across reconnects.
 * - `refused`: Atrium answered the subscribe with an error (`room.error`); not retried.
 * - `revoked`: the user lost read access (`room.revokedReason`); not resubscribed.
 * - `left`: `leave()` was called.
 */
export type RoomState = "entering" | "entered" | "refused" | "revoked" | "left"

/** What befalls a room besides its events and presence. */
export type RoomNotice =
  /** Subscribed: the first time, and again after each reconnect. */
  | { readonly type: "entered" }
  /**
   * Events may have been missed (the log no longer holds them, or the room had not yet seen an
   * event when its connection dropped, so it could not say where it was): reload the document's
   * threads. `seq` is the document's last event number when Atrium said it.
   */
  | { readonly type: "resync"; readonly seq: number | undefined }
  /** The user lost read access: no more messages for this room. */
  | { readonly type: "revoked"; readonly reason: string }
  /** Atrium refused a subscribe (the room is then `refused`), a presence update or a broadcast. */
  | { readonly type: "error"; readonly error: AtriumError }

export interface RoomPresence {
  /** Who else is on the document now (the user's own entry left out), as the server last said. */
  readonly others: ReadonlyArray<PresenceEntry>
  /** The user's own entry: as the server listed it, with the page's updates since. */
  readonly mine: PresenceEntry | undefined
  /**
   * Sets the user's presence on the document (`data`: any JSON object up to 4 KB, e.g. a cursor;
   * `status` when given). Sent once the room is entered, and again after each reconnect; a refusal
   * comes as an `error` notice.
   */
  readonly update: (data: PresenceEntry["data"], status?: PresenceStatus) => void
  /** Called with `others` each time it changes. */
  readonly subscribe: (listener: (others: ReadonlyArray<PresenceEntry>) => void) => () => void
}

/** One document the user is on, over the client's realtime socket. */
export interface Room {
  readonly organizationId: string
  readonly documentId: string
  readonly state: RoomState
  /** Why the subscribe was refused, when `state` is `refused`. */
  readonly error: AtriumError | undefined
  /** Why access ended, when `state` is `revoked`. */
  readonly revokedReason: string | undefined
  /** The `seq` of the last event received (or of the last `resync`): where a reconnect resumes. */
  readonly lastSeq: number | undefined
  /** Settles at the first answer to the subscribe (no error once entered, else Atrium's refusal), or when left first. Never rejects. */
  readonly entered: Promise<{ readonly error?: AtriumError }>
  /** Each change to the document, once, in order, from the moment the room is entered. */
  readonly events: Topic<RoomEvent>
  readonly notices: Topic<RoomNotice>
  readonly presence: RoomPresence
  /** Data broadcast to the document by the others (the user's own broadcasts from this room are not given back). */
  readonly broadcasts: Topic<RoomBroadcast>
  /**
   * Sends `data` (a JSON object) to the document's other subscribers under `liveStateDataId`;
   * `merge: true` sets its keys over the live state's last data instead of replacing it. Editors
   * only: a viewer's is refused (an `error` notice, PERMISSION_DENIED). Sent at once when the room
   * is entered and the socket open (true), else not at all (false): a broadcast is of the moment,
   * not kept for later. A frame over 16 KB is not sent either (an `error` notice): larger data, up
   * to 64 KB, goes through the host's server (livestate/broadcast).
   */
  readonly broadcast: (liveStateDataId: string, data: RoomBroadcast["data"], options?: { readonly merge?: boolean }) => boolean
  /** Unsubscribes (the user leaves the document's presence); settles once Atrium answered, or at once without a socket. */
  readonly leave: () => Promise<void>
}

type OnDocument<T extends ServerMessage["type"]> = Extract<ServerMessage, { type: T }>

/** What the socket does for a room. */
export interface RoomLink {
  /** The signed-in user, from the token: left out of `others`. */
  readonly userId: () => string | undefined
  /**
   * Sends a frame when the socket is open (false when not), with an id: a fresh one whose reply goes
   * to `answer` once, or `standingId`, whose replies (errors only: presence and broadcasts are not acknowledged) all go to `answer`.
   */
  readonly send: (frame: Record<string, unknown>, answer?: (message: ServerMessage) => void, standingId?: string) => boolean
  /** The room leaves: the socket forgets it (and closes when it was the last). */
  readonly forget: (room: RoomDriver) => Promise<void>
}

/** The room as the socket drives it. */
export interface RoomDriver {
  readonly room: Room
  readonly presenceId: string
  /** The id of its broadcast frames, standing like `presenceId`. */
  readonly broadcastId: string
  /** Sends its subscribe (resuming: with `afterSeq` and `since`, once it has a seq). */
  readonly subscribe: () => void
  /** A message about its document. */
  readonly receive: (message: ServerMessage) => void
  /** The socket dropped: the next `subscribed` is a resubscribe. */
  readonly disconnected: () => void
}

/** An error answer as an AtriumError (no HTTP status: it came over the socket). */
export const realtimeError = (message: OnDocument<"error">, operation: string) =>
  new AtriumError({ status: message.status as ErrorStatus, message: message.message, httpStatus: 0, operation })

const utf8 = new TextEncoder()

/** An error the SDK itself answers, as Atrium would have (no HTTP status: no request was made). */
const localError = (status: ErrorStatus, message: string, operation: string) => new AtriumError({ status, message, httpStatus: 0, operation })

/** `roomId`: names the room's presence and broadcast frames (`presence <roomId>`, `broadcast <roomId>`), unique on its socket. */
export const createRoom = (organizationId: string, documentId: string, roomId: number, link: RoomLink): RoomDriver => {
  const presenceId = `presence ${roomId}`
  const broadcastId = `broadcast ${roomId}`
  let state: RoomState = "entering"
  let error: AtriumError | undefined
  let revokedReason: string | undefined
  let lastSeq: number | undefined
  /** The last `subscribed`'s `since`: said back on a resume, so Atrium can tell whether its log has a gap. */
  let since: number | undefined
  /** Dropped since the last `subscribed`: the next one is a resubscribe. */
  let resubscribing = false
  let others: ReadonlyArray<PresenceEntry> = []
  let mine: PresenceEntry | undefined
  /** The page's last presence update: sent again after each reconnect. */
  let lastUpdate: { readonly data: PresenceEntry["data"]; readonly status: PresenceStatus | undefined } | undefined
  let settle: (outcome: { readonly error?: AtriumError }) => void = () => {}
  const entered = new Promise<{ readonly error?: AtriumError }>((resolve) => (settle = resolve))
  const events = createTopic<RoomEvent>()
  const notices = createTopic<RoomNotice>()
  const presenceChanges = createTopic<ReadonlyArray<PresenceEntry>>()
  const broadcasts = createTopic<RoomBroadcast>()
  const where = { organizationId, documentId }
  const live = () => state === "entering" || state === "entered"

  const setOthers = (next: ReadonlyArray<PresenceEntry>) => {
    others = next
    presenceChanges.publish(others)
  }

  const sendPresence = () => {
    if (lastUpdate === undefined || state !== "entered") return
    link.send(
      { type: "presence", ...where, ...(lastUpdate.status !== undefined && { status: lastUpdate.status }), ...(lastUpdate.data !== undefined && { data: lastUpdate.data }) },
      (answer) => {
        if (answer.type === "error") notices.publish({ type: "error", error: realtimeError(answer, "realtime.presence") })
      },
      presenceId
    )
  }

  const onSubscribed = (message: OnDocument<"subscribed">) => {
    if (!live()) return
    const me = link.userId()
    const listed = message.presence ?? []
    const own = listed.find((entry) => entry.userId === me)
    mine = own && lastUpdate ? { ...own, data: lastUpdate.data, status: lastUpdate.status ?? own.status } : own ?? mine
    // A room that had seen no event when its socket dropped cannot say where to resume: it may have missed some.
    const unknownGap = resubscribing && lastSeq === undefined
    if (lastSeq === undefined && typeof message.seq === "number") lastSeq = message.seq
    if (typeof message.since === "number") since = message.since
    resubscribing = false
    state = "entered"
    settle({})
    setOthers(listed.filter((entry) => entry.userId !== me))
    notices.publish({ type: "entered" })
    if (unknownGap) notices.publish({ type: "resync", seq: undefined })
    sendPresence()
  }

  const onRefused = (message: OnDocument<"error">) => {
    if (!live()) return
    error = realtimeError(message, "realtime.subscribe")
    state = "refused"
    settle({ error })
    notices.publish({ type: "error", error })
    void link.forget(driver)
  }

  const receive = (message: ServerMessage) => {
    if (!live()) return
    switch (message.type) {
      case "event":
        // A resume sends what the room missed and no more; the check keeps an event from arriving twice regardless.
        if (lastSeq !== undefined && message.seq <= lastSeq) return
        lastSeq = message.seq
        events.publish({ ...message.event, seq: message.seq })
        return
      case "resync":
        lastSeq = message.seq
        notices.publish({ type: "resync", seq: message.seq })
        return
      case "presence": {
        const entry: PresenceEntry = {
          userId: message.userId,
          name: message.user?.name ?? null,
          email: message.user?.email ?? null,
          status: message.status,
          data: message.data ?? null,
          lastSeenAt: message.lastSeenAt ?? Date.now()
        }
        if (message.userId === link.userId()) {
          mine = entry // the user's other tab
          return
        }
        const at = others.findIndex((other) => other.userId === message.userId)
        setOthers(at < 0 ? [...others, entry] : others.map((other, i) => (i === at ? entry : other)))
        return
      }
      case "presence.leave":
        if (message.userId === link.userId()) {
          // Removed by the server API's presence/delete: back once the page updates its presence again.
          mine = undefined
          lastUpdate = undefined
          return
        }
        if (others.some((other) => other.userId === message.userId)) setOthers(others.filter((other) => other.userId !== message.userId))
        return
      case "broadcast":
        broadcasts.publish({ liveStateDataId: message.liveStateDataId, data: message.data, ...(message.userId !== undefined && { userId: message.userId }) })
        return
      case "revoked":
        state = "revoked"
        revokedReason = message.reason
        settle({})
        notices.publish({ type: "revoked", reason: message.reason })
        void link.forget(driver)
        return
    }
  }

  const room: Room = {
    organizationId,
    documentId,
    get state() {
      return state
    },
    get error() {
      return error
    },
    get revokedReason() {
      return revokedReason
    },
    get lastSeq() {
      return lastSeq
    },
    entered,
    events,
    notices,
    presence: {
      get others() {
        return others
      },
      get mine() {
        return mine
      },
      update: (data, status) => {
        if (!live()) return
        lastUpdate = { data, status }
        if (mine !== undefined) mine = { ...mine, data, status: status ?? mine.status }
        sendPresence()
      },
      subscribe: presenceChanges.subscribe
    },
    broadcasts: { subscribe: broadcasts.subscribe },
    broadcast: (liveStateDataId, data, options) => {
      if (state !== "entered") return false
      const frame = { type: "broadcast", ...where, liveStateDataId, data, ...(options?.merge === true && { merge: true }) }
      const bytes = utf8.encode(JSON.stringify({ ...frame, id: broadcastId })).length // as sent
      if (bytes > MAX_FRAME_BYTES) {
        const message = `broadcast: the frame would be ${bytes} bytes, over the socket's ${MAX_FRAME_BYTES}: send larger data through your server (livestate/broadcast).`
        notices.publish({ type: "error", error: localError("INVALID_ARGUMENT", message, "realtime.broadcast") })
        return false
      }
      return link.send(frame, (answer) => {
        if (answer.type === "error") notices.publish({ type: "error", error: realtimeError(answer, "realtime.broadcast") })
      }, broadcastId)
    },
    leave: () => {
      if (state === "left") return Promise.resolve()
      const wasLive = live()
      state = "left"
      settle({})
      return wasLive ? link.forget(driver) : Promise.resolve()
    }
  }

  const driver: RoomDriver = {
    room,
    presenceId,
    broadcastId,
    subscribe: () => {
      if (!live()) return
      const resume = resubscribing && lastSeq !== undefined ? { afterSeq: lastSeq, ...(since !== undefined && { since }) } : {}
      link.send({ type: "subscribe", ...where, ...resume }, (answer) => {
        if (answer.type === "subscribed") onSubscribed(answer)
        else if (answer.type === "error") onRefused(answer)
      })
    },
    receive,
    disconnected: () => {
      resubscribing = state === "entered" || resubscribing
    }
  }
  return driver
}
