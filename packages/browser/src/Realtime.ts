import { CloseCode, type RealtimeNotification, type ServerMessage } from "./RealtimeMessages.js"
import { createRoom, type Room, type RoomDriver, type RoomLink } from "./Room.js"
import { subjectOf, type TokenCache } from "./TokenCache.js"
import { createTopic, type Topic } from "./Topic.js"

/**
 * - `closed`: no socket (no room entered, or every room left).
 * - `connecting`: the first socket is being opened (again after a wait, when an attempt failed).
 * - `open`: the socket is up; rooms are subscribed on it.
 * - `reconnecting`: it dropped; another is being opened, or waits for its turn.
 */
export type RealtimeState = "connecting" | "open" | "reconnecting" | "closed"

export interface RealtimeStatus {
  readonly state: RealtimeState
  readonly subscribe: (listener: (state: RealtimeState) => void) => () => void
}

/** What a client adds to the operations: rooms, notifications and the socket's state. */
export interface RealtimeApi {
  /**
   * The user on a document: its events and presence over the client's one WebSocket, opened with
   * the first room. Entering a document already entered (and not left) gives the same room.
   */
  readonly enter: (organizationId: string, documentId: string) => Room
  /**
   * Each new notification for the user, as their inbox (`notificationsGet`) shows it, while a
   * listener is subscribed: the socket stays open while one is, room or not.
   */
  readonly notifications: Topic<RealtimeNotification>
  readonly realtime: RealtimeStatus
}

export const FIRST_RETRY_MILLIS = 250
export const MAX_RETRY_MILLIS = 10_000

/**
 * The wait before reconnect attempt `failures` (1, 2, …): 250 ms doubling up to 10 s, each drawn
 * between half of it and all of it, so the clients a server dropped together do not all return at once.
 */
export const retryDelay = (failures: number, random: () => number = Math.random): number => {
  const ceiling = Math.min(MAX_RETRY_MILLIS, FIRST_RETRY_MILLIS * 2 ** Math.max(0, failures - 1))
  return ceiling / 2 + (random() * ceiling) / 2
}

interface Answer {
  readonly answer: (message: ServerMessage) => void
  /** A room's presence or broadcast id: answered (refused) any number of times, kept until the room leaves. */
  readonly standing: boolean
}

const keyOf = (organizationId: string, documentId: string) => JSON.stringify([organizationId, documentId])

/**
 * The client's realtime socket (`<baseUrl>/v2/client/realtime?token=…`): opened when the first
 * room is entered or notification listener subscribes, closed when the last of them is gone, and reconnected after an unexpected close with
 * every room resubscribed where it stopped (`afterSeq`) and its presence sent again.
 */
export const createRealtime = (options: {
  /** `ws(s)://…/v2/client/realtime`. */
  readonly url: string
  readonly tokens: TokenCache
  readonly WebSocket: () => typeof WebSocket
}): RealtimeApi => {
  const rooms = new Map<string, RoomDriver>()
  const answers = new Map<number | string, Answer>()
  /** `leave()`s waiting for their `unsubscribed`: a closed socket settles them too. */
  const leaving = new Set<() => void>()
  const notifications = createTopic<RealtimeNotification>()
  const stateChanges = createTopic<RealtimeState>()
  let state: RealtimeState = "closed"
  let socket: WebSocket | undefined
  let open = false
  /** A socket opened since the first room was entered: a drop is then a reconnect, not still the first connect. */
  let everOpen = false
  /** The token of the last socket: the stale one when Atrium says it expired. */
  let token: string | undefined
  let userId: string | undefined
  let renewToken = false
  /** Attempts that failed since the last socket opened: the backoff's exponent. */
  let failures = 0
  let retry: ReturnType<typeof setTimeout> | undefined
  /** Bumped by every connect and by the close when the last room leaves: an attempt overtaken stops. */
  let attempt = 0
  let nextId = 1
  let roomsMade = 0
  let notificationListeners = 0
  /** Whether the page wants the socket: a room entered, or someone listening for notifications. */
  const wanted = () => rooms.size > 0 || notificationListeners > 0

  const setState = (next: RealtimeState) => {
    if (state === next) return
    state = next
    stateChanges.publish(next)
  }

  const settleLeaving = () => {
    const waiting = [...leaving]
    leaving.clear()
    waiting.forEach((settle) => settle())
  }

  /** The socket is gone: answers that will not come are forgotten (a room's standing presence and broadcast ids stay). */
  const forgetAnswers = () => {
    for (const [id, { standing }] of answers) if (!standing) answers.delete(id)
    settleLeaving()
  }

  const scheduleRetry = () => {
    failures++
    retry = setTimeout(() => void connect(), retryDelay(failures))
  }

  const route = (message: ServerMessage) => {
    const id = "id" in message ? message.id : undefined
    if (id !== undefined && (message.type === "subscribed" || message.type === "unsubscribed" || message.type === "error")) {
      const waiting = answers.get(id)
      if (waiting === undefined) return
      if (!waiting.standing) answers.delete(id)
      waiting.answer(message)
      return
    }
    if (message.type === "notification") return notifications.publish(message.notification)
    if ("organizationId" in message) rooms.get(keyOf(message.organizationId, message.documentId))?.receive(message)
  }

  const connect = async (): Promise<void> => {
    retry = undefined
    const mine = ++attempt
    let fresh: string
    try {
      fresh = renewToken && token !== undefined ? await options.tokens.renew(token) : await options.tokens.current()
    } catch {
      // getToken failed (the host's backend unreachable?): try again later, as for a socket that failed.
      if (mine === attempt && wanted()) scheduleRetry()
      return
    }
    if (mine !== attempt || !wanted()) return
    renewToken = false
    token = fresh
    userId = subjectOf(fresh)
    const ws = new (options.WebSocket())(`${options.url}?token=${encodeURIComponent(fresh)}`)
    socket = ws
    let expired = false
    ws.onopen = () => {
      if (socket !== ws) return
      open = true
      everOpen = true
      failures = 0
      setState("open")
      for (const room of [...rooms.values()]) room.subscribe()
    }
    ws.onmessage = (frame) => {
      if (socket !== ws || typeof frame.data !== "string") return
      let message: ServerMessage
      try {
        message = JSON.parse(frame.data) as ServerMessage
      } catch {
        return
      }
      if (message.type === "token.expired") expired = true
      route(message)
    }
    ws.onclose = (closed) => {
      if (socket !== ws) return
      const wasOpen = open
      socket = undefined
      open = false
      forgetAnswers()
      for (const room of rooms.values()) room.disconnected()
      if (!wanted()) return setState("closed")
      setState(everOpen ? "reconnecting" : "connecting")
      if (wasOpen && (expired || closed.code === CloseCode.tokenExpired)) {
        // The token ran out under an open socket: a fresh one, and back at once.
        renewToken = true
        void connect()
        return
      }
      // Failed before opening: a browser is not told why, and an expired or refused token is
      // answered 401 before the upgrade, so the next attempt asks for a fresh token.
      if (!wasOpen) renewToken = true
      scheduleRetry()
    }
  }

  /** The last room left and no notification listener: the socket closes, and any attempt under way stops. */
  const closeIdle = () => {
    clearTimeout(retry)
    retry = undefined
    attempt++
    failures = 0
    everOpen = false
    const ws = socket
    socket = undefined
    open = false
    forgetAnswers()
    ws?.close(CloseCode.normal, "Nothing left to follow.")
    setState("closed")
  }

  /** Nothing wants the socket any more (no room, no notification listener, no leave pending): it closes. */
  const closeIfIdle = () => {
    if (!wanted() && leaving.size === 0 && state !== "closed") closeIdle()
  }

  /** Something wants the socket: opened if it is not. */
  const ensureOpen = () => {
    if (state !== "closed") return
    setState("connecting")
    void connect()
  }

  const send = (frame: Record<string, unknown>, answer?: (message: ServerMessage) => void, standingId?: string): boolean => {
    if (!open || socket === undefined) return false
    const id = standingId ?? nextId++
    if (answer !== undefined) answers.set(id, { answer, standing: standingId !== undefined })
    socket.send(JSON.stringify({ ...frame, id }))
    return true
  }

  const link: RoomLink = {
    userId: () => userId,
    send,
    forget: (driver) => {
      const key = keyOf(driver.room.organizationId, driver.room.documentId)
      if (rooms.get(key) === driver) rooms.delete(key)
      answers.delete(driver.presenceId)
      answers.delete(driver.broadcastId)
      return new Promise<void>((resolve) => {
        const settle = () => {
          leaving.delete(settle)
          resolve()
          closeIfIdle()
        }
        leaving.add(settle)
        // Only a room the page leaves is unsubscribed: a refused one has no subscription, a revoked one gets no more messages.
        const leftByPage = driver.room.state === "left"
        if (!leftByPage || !send({ type: "unsubscribe", organizationId: driver.room.organizationId, documentId: driver.room.documentId }, settle)) settle()
      })
    }
  }

  return {
    enter: (organizationId, documentId) => {
      const key = keyOf(organizationId, documentId)
      const existing = rooms.get(key)
      if (existing !== undefined) return existing.room
      const driver = createRoom(organizationId, documentId, ++roomsMade, link)
      rooms.set(key, driver)
      if (state === "closed") ensureOpen()
      else if (open) driver.subscribe()
      return driver.room
    },
    notifications: {
      subscribe: (listener) => {
        const unsubscribe = notifications.subscribe(listener)
        notificationListeners++
        ensureOpen()
        let subscribed = true
        return () => {
          if (!subscribed) return
          subscribed = false
          unsubscribe()
          notificationListeners--
          closeIfIdle()
        }
      }
    },
    realtime: {
      get state() {
        return state
      },
      subscribe: stateChanges.subscribe
    }
  }
}
