import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Runtime from "effect/Runtime"
import * as Schedule from "effect/Schedule"
import * as Scope from "effect/Scope"
import type { AccessReason } from "../access/AccessRule.js"
import { DocumentAccess, questionOf } from "../access/DocumentAccess.js"
import { seesThread } from "../comments/CommentVisibility.js"
import type { ApiError } from "../protocol/ApiError.js"
import { invalidArgument } from "../protocol/ApiError.js"
import type { UserCaller } from "../protocol/Operation.js"
import { LiveState } from "../livestate/LiveState.js"
import { LiveStateRepo } from "../livestate/LiveStateRepo.js"
import { Notifications } from "../notifications/Notifications.js"
import { PRESENCE_RENEW_MILLIS } from "../presence/PresenceLife.js"
import { ChangeFeed, type FeedMessage } from "./ChangeFeed.js"
import { FOLLOW_RENEW_MILLIS, Followers } from "./Followers.js"
import { LivePresence } from "./LivePresence.js"
import { type ClientFrame, decodeFrame, errorMessage, type FrameId, MAX_FRAME_BYTES } from "./RealtimeFrames.js"
import { type DocumentRef, type LoggedEvent, RealtimeLogRepo } from "./RealtimeLogRepo.js"

/** What a transport gives a connection: its socket, as the core needs it. */
export interface RealtimeSocket {
  readonly send: (text: string) => void
  readonly close: (code: number, reason: string) => void
  /** Bytes handed to `send` and not yet written to the network: a client that does not read grows it. */
  readonly bufferedAmount: () => number
}

/** What the core gives the transport for one accepted socket. */
export interface RealtimeConnection {
  /** A frame the client sent: text, or binary (refused). */
  readonly receive: (frame: string | { readonly binary: true }) => void
  /** The socket closed, for whatever reason: the user leaves. */
  readonly closed: () => void
}

/** Close codes (docs/realtime.md). */
export const CloseCodes = {
  /** The token expired (spec). */
  tokenExpired: 4001,
  /** A frame over MAX_FRAME_BYTES (RFC 6455: message too big). */
  tooBig: 1009,
  /** The client does not read what it is sent (RFC 6455: try again later). */
  tooSlow: 1013
} as const

/** What a connection may have queued and unsent before it is closed (a client that does not read). */
export const MAX_BUFFERED_BYTES = 1024 * 1024
/** How often every subscription's access is asked again, for what changes with no write: a grant or token entry expiring, a provider's answer. */
export const ACCESS_RECHECK_MILLIS = 60_000
/** Events read from the log at a time. */
const READ_CHUNK = 500
/** How long the log keeps events: a client that reconnects within it misses nothing. */
export const LOG_KEPT_MILLIS = 10 * 60_000

interface Subscription {
  readonly document: DocumentRef
  /** The last seq this connection has been sent (or was told it had). */
  seq: number
  /** Whether the user is on the document's presence list through this connection (not after presence/delete removed it, until it sets presence again). */
  present: boolean
}

interface Session {
  /** Names the connection in the presence it sets, so that it is not echoed back to it. */
  readonly origin: string
  readonly caller: UserCaller
  readonly socket: RealtimeSocket
  /** Keyed like the hub's documents. */
  readonly subscriptions: Map<string, Subscription>
  /** Organizations whose private threads this user may see, as asked (the access rule's answer for the call). */
  readonly memberships: Map<string, boolean>
  open: boolean
}

interface FollowedDocument {
  readonly ref: DocumentRef
  readonly sessions: Set<Session>
  /**
   * Sessions added since the reader last looked: the only ones that can be behind the document (the
   * reader moves the others along together), so a subscribe costs the reader them, not every session.
   */
  readonly joined: Set<Session>
  /** The highest seq read from the log and handed to its sessions. */
  lastRead: number
  reading: boolean
  readAgain: boolean
  /** Per liveStateDataId, the last version broadcast to its sessions: an older one read late is not sent after it. */
  readonly broadcastVersions: Map<string, number>
}

const keyOf = (d: DocumentRef) => JSON.stringify([d.apiKey, d.organizationId, d.documentId])

/** `{"type":"event", …}`: the change as the spec has it (`event`: type, timestamp, data), with its seq for resuming. */
const eventMessage = (ref: DocumentRef, event: LoggedEvent): string =>
  `{"type":"event","organizationId":${JSON.stringify(ref.organizationId)},"documentId":${JSON.stringify(ref.documentId)},"seq":${event.seq},"event":{"type":${
    JSON.stringify(event.type)
  },"timestamp":${event.at},"data":${event.payloadJson}}}`

/** `revoked`'s `reason`: why the user may no longer read the document. */
const revokedReason = (reason: AccessReason) =>
  reason === "organization disabled" ? "organization_disabled"
  : reason === "permission provider" || reason === "permission provider failed" ? "permission_provider"
  : "access_removed"

/** A restricted or organization-private thread an event is about, as the visibility rule reads it. */
type Thread = NonNullable<ReturnType<typeof threadOf>>

/** The thread an event is about, as its payload carries it (comment events), for the visibility rule; none when it is public. */
const threadOf = (event: LoggedEvent) => {
  if (!event.payloadJson.includes("\"visibilityConfig\"")) return undefined
  const data = JSON.parse(event.payloadJson) as { commentAnnotation?: { from?: { userId?: string }; visibilityConfig?: { type: string } } }
  const thread = data.commentAnnotation
  if (thread?.visibilityConfig === undefined || thread.visibilityConfig.type === "public") return undefined
  return { createdBy: thread.from?.userId ?? "", record: { visibilityConfig: thread.visibilityConfig as never } }
}

/**
 * Realtime on one server (docs/realtime.md): its connections, what each subscribes to, and the
 * fan-out of each followed document's log to them, read once per document however many listen.
 * Transport-free: a transport (node-http's `attachRealtime`) hands it sockets.
 */
export class RealtimeHub extends Effect.Service<RealtimeHub>()("@atrium/core/RealtimeHub", {
  scoped: Effect.gen(function*() {
    const log = yield* RealtimeLogRepo
    const feed = yield* ChangeFeed
    const followers = yield* Followers
    const access = yield* DocumentAccess
    const presence = yield* LivePresence
    const notifications = yield* Notifications
    const liveState = yield* LiveState
    const liveStates = yield* LiveStateRepo
    const runtime = yield* Effect.runtime<never>()
    const runFork = Runtime.runFork(runtime)
    const documents = new Map<string, FollowedDocument>()
    const sessions = new Set<Session>()
    let connectionCount = 0

    // Started with the first connection: an Atrium that serves no realtime listens to nothing.
    const hubScope = yield* Scope.make()
    yield* Effect.addFinalizer(() => Effect.zipRight(followers.stop, Scope.close(hubScope, Exit.void)).pipe(Effect.ignore))
    let started = false
    const start = Effect.suspend(() => {
      if (started) return Effect.void
      started = true
      return Effect.gen(function*() {
        yield* feed.listen({ message: (message) => onFeed(message), gap: () => documents.forEach((doc) => pump(doc)) })
        // Keep this server's follows alive, forget dead servers', and drop the log's old events.
        yield* Effect.forkIn(
          Effect.repeat(
            Effect.zipRight(followers.renew, Effect.flatMap(Clock.currentTimeMillis, (now) => log.pruneBefore(now - LOG_KEPT_MILLIS))).pipe(Effect.ignore),
            Schedule.spaced(FOLLOW_RENEW_MILLIS)
          ),
          hubScope
        )
        // Renew the presence this server's connections hold, and sweep what no server renews any more.
        yield* Effect.forkIn(Effect.repeat(presence.maintain, Schedule.spaced(PRESENCE_RENEW_MILLIS)), hubScope)
        yield* Effect.forkIn(
          Effect.repeat(Effect.suspend(() => recheck(undefined, () => true)), Schedule.spaced(ACCESS_RECHECK_MILLIS)).pipe(Effect.delay(ACCESS_RECHECK_MILLIS)),
          hubScope
        )
      }).pipe(Scope.extend(hubScope))
    })

    const send = (session: Session, text: string) => {
      if (!session.open) return
      session.socket.send(text)
      if (session.socket.bufferedAmount() > MAX_BUFFERED_BYTES) {
        drop(session)
        session.socket.close(CloseCodes.tooSlow, "Messages are not being read: too far behind.")
      }
    }

    /**
     * Whether the session's user may see the event about `thread` (its `threadOf`, read once per event
     * however many receive it: comment visibility; the document was checked at subscribe).
     */
    const sees = (session: Session, thread: Thread): Effect.Effect<boolean> => {
      const { userId } = session.caller
      const organization = thread.record.visibilityConfig as { type: string; organizationId?: string }
      const org = organization.type === "organizationPrivate" ? organization.organizationId : undefined
      if (org === undefined || session.memberships.has(org)) return Effect.succeed(seesThread(thread, userId, (o) => session.memberships.get(o) === true))
      return Effect.map(
        access.checkOrganization({ apiKey: session.caller.apiKey, userId, organizationId: org, tokenResources: session.caller.tokenResources }),
        (decision) => {
          session.memberships.set(org, decision.accessRole !== null)
          return seesThread(thread, userId, (o) => session.memberships.get(o) === true)
        }
      )
    }

    /**
     * Hands the document's new events to its sessions, one read at a time per document (again if
     * told meanwhile). The only place a document's events are sent: a session behind the others
     * (it resumes from `afterSeq`, or joined while the others were read on) is served from the log
     * first, so each gets every event once and in order.
     */
    const pump = (doc: FollowedDocument): void => {
      if (doc.reading) {
        doc.readAgain = true
        return
      }
      doc.reading = true
      const key = keyOf(doc.ref)
      runFork(Effect.gen(function*() {
        for (;;) {
          doc.readAgain = false
          for (const session of [...doc.joined]) {
            doc.joined.delete(session)
            const subscription = session.subscriptions.get(key)
            if (subscription !== undefined && subscription.seq < doc.lastRead) yield* catchUp(session, doc, subscription)
          }
          const events = yield* log.since(doc.ref, doc.lastRead, READ_CHUNK)
          for (const event of events) {
            // Built once per event, not per subscriber: a thousand subscribers parsed a comment's payload a thousand times (docs/benchmarks.md, "Realtime").
            const text = eventMessage(doc.ref, event)
            const thread = threadOf(event)
            for (const session of [...doc.sessions]) {
              const subscription = session.subscriptions.get(key)
              if (subscription === undefined || event.seq <= subscription.seq) continue
              subscription.seq = event.seq
              if (thread === undefined || (yield* sees(session, thread))) send(session, text)
            }
            doc.lastRead = event.seq
          }
          if (events.length < READ_CHUNK && !doc.readAgain) return
        }
      }).pipe(
        Effect.catchAllCause((cause) => Effect.logError("Realtime: a document's events could not be read.", cause)),
        Effect.ensuring(Effect.sync(() => {
          doc.reading = false
        }))
      ))
    }

    /** What a session behind the document missed, from the log, up to where the document is; a `resync` when the log no longer has it all. */
    const catchUp = (session: Session, doc: FollowedDocument, subscription: Subscription) =>
      Effect.gen(function*() {
        while (subscription.seq < doc.lastRead && session.open) {
          const events = (yield* log.since(doc.ref, subscription.seq, READ_CHUNK)).filter((event) => event.seq <= doc.lastRead)
          if (events.length === 0 || events[0]!.seq !== subscription.seq + 1) {
            subscription.seq = doc.lastRead
            send(session, JSON.stringify({ type: "resync", organizationId: doc.ref.organizationId, documentId: doc.ref.documentId, seq: doc.lastRead }))
            return
          }
          for (const event of events) {
            subscription.seq = event.seq
            const thread = threadOf(event)
            if (thread === undefined || (yield* sees(session, thread))) send(session, eventMessage(doc.ref, event))
          }
        }
      })

    /**
     * A broadcast's live state, read from storage at the version the feed named, to the document's
     * subscribers here but the connection that sent it. Skipped when a later write overtook it
     * (that one's message sends the later data), or when a later version was sent already: a
     * subscriber gets a live state's versions in order, the last always.
     */
    const sendBroadcast = (doc: FollowedDocument, message: Extract<FeedMessage, { kind: "broadcast" }>) =>
      Effect.map(liveStates.find(message), (row) => {
        if (row === undefined || row.version !== message.version) return
        if ((doc.broadcastVersions.get(message.liveStateDataId) ?? 0) >= row.version) return
        doc.broadcastVersions.set(message.liveStateDataId, row.version)
        const text = `{"type":"broadcast","organizationId":${JSON.stringify(message.organizationId)},"documentId":${JSON.stringify(message.documentId)},"liveStateDataId":${
          JSON.stringify(message.liveStateDataId)
        },"data":${row.data}${message.userId === null ? "" : `,"userId":${JSON.stringify(message.userId)}`}}`
        for (const session of doc.sessions) if (session.origin !== message.origin) send(session, text)
      }).pipe(Effect.catchAllCause((cause) => Effect.logError("Realtime: a broadcast could not be read.", cause)))

    /**
     * Asks again whether the users of the key's sessions (every key's, when undefined) may read the
     * documents they follow that `matches` selects: each one no longer readable is told `revoked` and
     * unsubscribed (its presence leaves). Private threads' membership is asked again too.
     */
    const recheck = (apiKey: string | undefined, matches: (ref: DocumentRef) => boolean): Effect.Effect<void> =>
      Effect.forEach([...sessions], (session) =>
        Effect.gen(function*() {
          if (apiKey !== undefined && session.caller.apiKey !== apiKey) return
          session.memberships.clear()
          for (const [key, { document }] of [...session.subscriptions]) {
            if (!matches(document)) continue
            const decision = yield* access.check(questionOf(session.caller, document.organizationId, document.documentId))
            if (decision.accessRole !== null || !session.subscriptions.has(key)) continue
            send(session, JSON.stringify({ type: "revoked", organizationId: document.organizationId, documentId: document.documentId, reason: revokedReason(decision.reason) }))
            yield* leave(session, key)
          }
        }), { discard: true }).pipe(Effect.catchAllCause((cause) => Effect.logError("Realtime: access could not be asked again.", cause)))

    /**
     * A notification made on any server, pushed to each connection here of a user whose "for you"
     * view shows it (the views' rule: access, the thread's visibility, the inbox preference).
     */
    const pushNotification = (message: Extract<FeedMessage, { kind: "notification" }>): Effect.Effect<void> =>
      Effect.gen(function*() {
        const { apiKey, notificationId, organizationId } = message
        const ofKey = [...sessions].filter((session) => session.caller.apiKey === apiKey)
        if (ofKey.length === 0) return
        const addressed = yield* notifications.addressees(apiKey, organizationId, notificationId)
        if (addressed === undefined) return
        for (const session of ofKey) {
          if (!addressed.toAll && !addressed.userIds.has(session.caller.userId)) continue
          const shown = yield* notifications.forYou(session.caller, organizationId, notificationId)
          if (shown !== undefined) send(session, JSON.stringify({ type: "notification", notification: shown }))
        }
      }).pipe(Effect.catchAllCause((cause) => Effect.logError("Realtime: a notification could not be pushed.", cause)))

    const onFeed = (message: FeedMessage) => {
      switch (message.kind) {
        case "notification":
          runFork(pushNotification(message))
          return
        case "follow":
          runFork(followers.followedElsewhere(message.apiKey))
          return
        case "access":
          runFork(recheck(message.apiKey, (ref) => message.organizationId === null || ref.organizationId === message.organizationId))
          return
        case "change": {
          const doc = documents.get(keyOf(message))
          if (doc !== undefined && message.seq > doc.lastRead) pump(doc)
          return
        }
        case "presence": {
          const doc = documents.get(keyOf(message))
          if (doc === undefined) return
          const text = JSON.stringify({
            type: "presence",
            organizationId: message.organizationId,
            documentId: message.documentId,
            userId: message.user.userId,
            user: message.user,
            status: message.status,
            data: message.data
          })
          for (const session of doc.sessions) if (session.origin !== message.origin) send(session, text)
          return
        }
        case "broadcast": {
          const doc = documents.get(keyOf(message))
          if (doc !== undefined) runFork(sendBroadcast(doc, message))
          return
        }
        case "presence.leave": {
          const key = keyOf(message)
          const doc = documents.get(key)
          if (doc === undefined) return
          // Removed while connected here (presence/delete, an expiry): no longer present, until the connection sets presence again.
          if (!presence.isOwnLeave(message.origin)) {
            for (const session of doc.sessions) {
              const subscription = session.caller.userId === message.userId ? session.subscriptions.get(key) : undefined
              if (subscription !== undefined) subscription.present = false
            }
            presence.removed(doc.ref, message.userId)
          }
          const text = JSON.stringify({ type: "presence.leave", organizationId: message.organizationId, documentId: message.documentId, userId: message.userId })
          for (const session of doc.sessions) send(session, text)
          return
        }
      }
    }

    /** The user's other connections here on the document, still present there. */
    const othersPresent = (session: Session, key: string) => {
      const doc = documents.get(key)
      if (doc === undefined) return false
      for (const other of doc.sessions) {
        if (other !== session && other.caller.userId === session.caller.userId && other.subscriptions.get(key)?.present === true) return true
      }
      return false
    }

    const userOf = (caller: UserCaller) => ({ userId: caller.userId, name: caller.user.name, email: caller.user.email })

    /** A presence frame: the user enters the list (again, after presence/delete removed it) or changes what it shows there. */
    const setPresence = (session: Session, frame: Extract<ClientFrame, { type: "presence" }>): Effect.Effect<void, ApiError> =>
      Effect.suspend(() => {
        const ref: DocumentRef = { apiKey: session.caller.apiKey, organizationId: frame.organizationId, documentId: frame.documentId }
        const key = keyOf(ref)
        const subscription = session.subscriptions.get(key)
        if (subscription === undefined) {
          return Effect.fail(invalidArgument(`presence: subscribe to document ${frame.documentId} of organization ${frame.organizationId} first.`))
        }
        const state = { ...(frame.status !== undefined && { status: frame.status }), ...(frame.data !== undefined && { data: frame.data }) }
        if (presence.holds(ref, session.caller.userId)) {
          subscription.present = true
          presence.change(ref, userOf(session.caller), state, session.origin)
          return Effect.void
        }
        subscription.present = true
        return presence.enter(ref, userOf(session.caller), { status: state.status ?? "online", data: state.data ?? null }, session.origin)
      })

    /** A broadcast frame: an editor of a document it subscribes to sends data to the document's other subscribers, on every server. */
    const broadcast = (session: Session, frame: Extract<ClientFrame, { type: "broadcast" }>): Effect.Effect<void, ApiError> =>
      Effect.suspend(() => {
        const { caller } = session
        const ref: DocumentRef = { apiKey: caller.apiKey, organizationId: frame.organizationId, documentId: frame.documentId }
        if (!session.subscriptions.has(keyOf(ref))) {
          return Effect.fail(invalidArgument(`broadcast: subscribe to document ${frame.documentId} of organization ${frame.organizationId} first.`))
        }
        return Effect.zipRight(
          access.require(questionOf(caller, frame.organizationId, frame.documentId), "editor"),
          liveState.broadcast({ ...ref, liveStateDataId: frame.liveStateDataId }, { data: frame.data, merge: frame.merge, userId: caller.userId, origin: session.origin })
        )
      })

    const subscribe = (session: Session, frame: Extract<ClientFrame, { type: "subscribe" }>): Effect.Effect<void, ApiError> =>
      Effect.gen(function*() {
        const { caller } = session
        const ref: DocumentRef = { apiKey: caller.apiKey, organizationId: frame.organizationId, documentId: frame.documentId }
        yield* access.require(questionOf(caller, frame.organizationId, frame.documentId), "viewer")
        const key = keyOf(ref)
        /** `seq`: the document's last event; `since`: since when its key's changes have been logged unbroken (what a resume says back). */
        const subscribedWith = (present: ReadonlyArray<unknown>, seq: number, since: number | undefined) =>
          JSON.stringify({
            type: "subscribed",
            ...(frame.id !== undefined && { id: frame.id }),
            organizationId: frame.organizationId,
            documentId: frame.documentId,
            seq,
            ...(since !== undefined && { since }),
            presence: present
          })
        const existing = session.subscriptions.get(key)
        if (existing !== undefined) {
          return send(session, subscribedWith(yield* presence.list(ref), existing.seq, yield* followers.since(caller.apiKey)))
        }
        // Followed before the log's last number is read: every change committed after it is logged.
        yield* followers.add(caller.apiKey)
        const last = yield* log.lastSeq(ref)
        const since = yield* followers.since(caller.apiKey)
        if (!session.open) return yield* followers.remove(caller.apiKey)
        // A resume from a run of follows that has ended since: changes made while nobody followed
        // the key were never logged, so the log cannot say what was missed.
        const broken = frame.afterSeq !== undefined && frame.since !== undefined && since !== undefined && since > frame.since
        const resumeFrom = frame.afterSeq !== undefined && frame.afterSeq < last && !broken ? frame.afterSeq : last
        const subscription: Subscription = { document: ref, seq: resumeFrom, present: true }
        session.subscriptions.set(key, subscription)
        // On the list before it is read, so the answer lists the user (spec); a second connection of the user shares its entry.
        if (!presence.holds(ref, caller.userId)) yield* presence.enter(ref, userOf(caller), { status: "online", data: null }, session.origin)
        const subscribed = subscribedWith(yield* presence.list(ref), last, since)
        if (!session.open) return
        send(session, subscribed)
        if (broken) send(session, JSON.stringify({ type: "resync", organizationId: ref.organizationId, documentId: ref.documentId, seq: last }))
        if (!session.open) return
        // Only now among the document's sessions, so no event precedes the answer; the pump serves what it is behind.
        const doc = documents.get(key) ??
          { ref, sessions: new Set<Session>(), joined: new Set<Session>(), lastRead: last, reading: false, readAgain: false, broadcastVersions: new Map() }
        documents.set(key, doc)
        doc.sessions.add(session)
        doc.joined.add(session)
        pump(doc)
      })

    /** The session stops following the document; the user leaves its presence unless another connection here still holds it. */
    const leave = (session: Session, key: string) => {
      const subscription = session.subscriptions.get(key)
      if (subscription === undefined) return Effect.void
      const leavesPresence = subscription.present && !othersPresent(session, key)
      session.subscriptions.delete(key)
      const doc = documents.get(key)
      doc?.sessions.delete(session)
      doc?.joined.delete(session)
      if (doc !== undefined && doc.sessions.size === 0) documents.delete(key)
      return Effect.zipRight(
        leavesPresence ? presence.leave(subscription.document, session.caller.userId) : Effect.void,
        followers.remove(subscription.document.apiKey)
      )
    }

    const drop = (session: Session) => {
      if (!session.open) return
      session.open = false
      sessions.delete(session)
      runFork(Effect.zipRight(
        Effect.forEach([...session.subscriptions.keys()], (key) => leave(session, key), { discard: true }),
        followers.remove(session.caller.apiKey)
      ))
    }

    const handle = (session: Session, frame: ClientFrame): Effect.Effect<void, ApiError> => {
      switch (frame.type) {
        case "subscribe":
          return subscribe(session, frame)
        case "unsubscribe":
          return Effect.zipRight(
            leave(session, keyOf({ apiKey: session.caller.apiKey, organizationId: frame.organizationId, documentId: frame.documentId })),
            Effect.sync(() =>
              send(session, JSON.stringify({ type: "unsubscribed", ...(frame.id !== undefined && { id: frame.id }), organizationId: frame.organizationId, documentId: frame.documentId }))
            )
          )
        case "presence":
          return setPresence(session, frame)
        case "broadcast":
          return broadcast(session, frame)
      }
    }

    return {
      /** A socket of an authenticated user: the connection the transport feeds. */
      connect: (caller: UserCaller, socket: RealtimeSocket): RealtimeConnection => {
        const session: Session = { origin: `${followers.serverId}/${++connectionCount}`, caller, socket, subscriptions: new Map(), memberships: new Map(), open: true }
        sessions.add(session)
        runFork(start)
        // Frames of one connection are handled in order: a subscribe's answer precedes the next frame's.
        // The first waits for the connection to follow its key (not only its subscriptions do):
        // notifications reach a page that subscribes to nothing, from its first answer on.
        let queue: Promise<unknown> = Runtime.runPromise(runtime)(followers.add(caller.apiKey)).catch(() => undefined)
        const expiry = setTimeout(() => {
          send(session, "{\"type\":\"token.expired\"}")
          drop(session)
          socket.close(CloseCodes.tokenExpired, "Token expired.")
        }, Math.max(0, Math.min(caller.expiresAt - Date.now(), 2 ** 31 - 1)))
        return {
          receive: (frame) => {
            if (!session.open) return
            if (typeof frame !== "string") {
              send(session, errorMessage(undefined, invalidArgument("Frames must be JSON text, not binary.")))
              return
            }
            const decoded = decodeFrame(frame)
            if (Either.isLeft(decoded)) {
              send(session, errorMessage(decoded.left.id, decoded.left.error))
              return
            }
            const id: FrameId = decoded.right.id
            queue = queue.then(() =>
              Runtime.runPromise(runtime)(handle(session, decoded.right).pipe(
                Effect.catchAll((error) => Effect.sync(() => send(session, errorMessage(id, error)))),
                Effect.catchAllCause((cause) => Effect.logError("Realtime: a frame could not be handled.", cause))
              ))
            )
          },
          closed: () => {
            clearTimeout(expiry)
            drop(session)
          }
        }
      },
      /** Connections open on this server now. */
      connections: () => sessions.size,
      maxFrameBytes: MAX_FRAME_BYTES
    }
  })
}) {}
