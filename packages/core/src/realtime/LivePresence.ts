import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Runtime from "effect/Runtime"
import { clientEntry, seenSince } from "../presence/PresenceLife.js"
import { type PresenceKey, PresenceRepo, type PresenceRow } from "../presence/PresenceRepo.js"
import type { PresenceStatus } from "../presence/PresenceSchemas.js"
import { makeCoalescer } from "./Coalescer.js"
import { ChangeFeed, type FeedMessage, type PresenceUser } from "./ChangeFeed.js"
import { Followers } from "./Followers.js"
import type { DocumentRef } from "./RealtimeLogRepo.js"

/** Storage writes of one user's presence on one document: at most one a second (the issue: a 60 Hz cursor is not 60 writes a second). */
export const PRESENCE_WRITE_MILLIS = 1_000
/** Presence messages of one user on one document: at most 20 a second to the other servers and subscribers, the latest kept. */
export const PRESENCE_SEND_MILLIS = 50

/** What a user's connections set on a document. */
export interface PresenceState {
  readonly status: PresenceStatus
  /** A JSON object, or null. */
  readonly data: unknown
}

interface Held extends PresenceState {
  readonly ref: DocumentRef
  readonly user: PresenceUser
}

const keyOf = (ref: DocumentRef, userId: string) => JSON.stringify([ref.apiKey, ref.organizationId, ref.documentId, userId])

/**
 * The presence entries this server's connections hold (docs/realtime.md, "Presence"): entered at
 * subscribe, changed by `presence` frames, left on unsubscribe and close. Each change goes to
 * every server through the feed (coalesced to PRESENCE_SEND_MILLIS) and to storage (coalesced to
 * PRESENCE_WRITE_MILLIS), so `presence/get` on any server lists it; `maintain` renews what this
 * server holds and sweeps what no server renews any more. One user's writes run one after the
 * other, so a leave is never overtaken by a late write that would bring the entry back.
 */
export class LivePresence extends Effect.Service<LivePresence>()("@atrium/core/LivePresence", {
  scoped: Effect.gen(function*() {
    const repo = yield* PresenceRepo
    const feed = yield* ChangeFeed
    const { serverId } = yield* Followers
    const runtime = yield* Effect.runtime<never>()
    const held = new Map<string, Held>()
    /** Per key, the last write queued: the next one runs after it. */
    const queues = new Map<string, Promise<unknown>>()

    const inTurn = <A>(key: string, effect: Effect.Effect<A>): Promise<A> => {
      const previous = queues.get(key) ?? Promise.resolve()
      const next = previous.then(() => Runtime.runPromise(runtime)(effect))
      const settled = next.then(() => undefined, () => undefined)
      queues.set(key, settled)
      void settled.then(() => {
        if (queues.get(key) === settled) queues.delete(key)
      })
      return next
    }

    const rowOf = (entry: Held, now: number): PresenceRow => ({
      ...entry.ref,
      userId: entry.user.userId,
      name: entry.user.name,
      email: entry.user.email,
      status: entry.status,
      data: entry.data === null ? null : JSON.stringify(entry.data),
      heldBy: serverId,
      updatedAt: now,
      lastSeenAt: now
    })

    const messageOf = (entry: Held, origin: string): FeedMessage => ({
      kind: "presence",
      ...entry.ref,
      user: entry.user,
      status: entry.status,
      data: entry.data,
      origin
    })

    const logged = (what: string) => <A>(effect: Effect.Effect<A>) =>
      Effect.catchAllCause(effect, (cause) => Effect.logError(`Realtime presence: ${what} failed.`, cause))

    const sends = makeCoalescer<FeedMessage>(PRESENCE_SEND_MILLIS, (_, message) => {
      Runtime.runFork(runtime)(feed.publish(message).pipe(logged("a presence message")))
    })
    // Written as held when its turn comes: not at all if it was let go of meanwhile.
    const writes = makeCoalescer<Held>(PRESENCE_WRITE_MILLIS, (key) => {
      void inTurn(
        key,
        Effect.suspend(() => {
          const entry = held.get(key)
          return entry === undefined ? Effect.void : Effect.flatMap(Clock.currentTimeMillis, (now) => repo.put(rowOf(entry, now)))
        }).pipe(logged("a presence write"))
      )
    })
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        sends.clear()
        writes.clear()
      })
    )

    const leaveMessage = (key: PresenceKey, origin: string | null): FeedMessage => ({ kind: "presence.leave", ...key, origin })

    return {
      /** Whether this server's connections let go of the entry a leave message is about (they know already). */
      isOwnLeave: (origin: string | null) => origin === serverId,
      /** Whether a connection here holds the user's entry on the document. */
      holds: (ref: DocumentRef, userId: string) => held.has(keyOf(ref, userId)),
      /** The user enters the document's list (written at once: the answer to its subscribe lists it), and every subscriber is told. */
      enter: (ref: DocumentRef, user: PresenceUser, state: PresenceState, origin: string): Effect.Effect<void> => {
        const key = keyOf(ref, user.userId)
        const entry: Held = { ref, user, ...state }
        held.set(key, entry)
        return Effect.promise(() =>
          inTurn(key, Effect.flatMap(Clock.currentTimeMillis, (now) => repo.put(rowOf(entry, now))))
        ).pipe(Effect.tap(() =>
          Effect.sync(() => {
            writes.touch(key)
            sends.offer(key, messageOf(entry, origin))
          })
        ))
      },
      /** The user, already on the list, changes its status or data: told and written, coalesced. */
      change: (ref: DocumentRef, user: PresenceUser, state: Partial<PresenceState>, origin: string): void => {
        const key = keyOf(ref, user.userId)
        const current = held.get(key)
        if (current === undefined) return
        const entry: Held = { ref, user, status: state.status ?? current.status, data: state.data === undefined ? current.data : state.data }
        held.set(key, entry)
        sends.offer(key, messageOf(entry, origin))
        writes.offer(key, entry)
      },
      /** The user's last connection here left the document: its entry goes, if this server still holds it, and every subscriber is told. */
      leave: (ref: DocumentRef, userId: string): Effect.Effect<void> =>
        Effect.suspend(() => {
          const key = keyOf(ref, userId)
          if (!held.delete(key)) return Effect.void
          sends.cancel(key)
          writes.cancel(key)
          const presenceKey: PresenceKey = { ...ref, userId }
          return Effect.promise(() =>
            inTurn(
              key,
              Effect.flatMap(repo.release(presenceKey, serverId), (released) => released ? feed.publish(leaveMessage(presenceKey, serverId)) : Effect.void)
            )
          ).pipe(logged("a presence leave"))
        }),
      /** The user's entry was removed elsewhere (presence/delete, an expiry): not held here any more, until its connection sets presence again. */
      removed: (ref: DocumentRef, userId: string): void => {
        const key = keyOf(ref, userId)
        if (!held.delete(key)) return
        sends.cancel(key)
        writes.cancel(key)
      },
      /**
       * The document's list now, as the client API answers it, with what this server's connections set
       * last over what storage has (written at most once a second): a newcomer on the same server sees
       * the cursor where it is. Another server's users are at most PRESENCE_WRITE_MILLIS behind.
       */
      list: (ref: DocumentRef) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.map(repo.list(ref.apiKey, ref.organizationId, ref.documentId, seenSince(now)), (rows) =>
            rows.map((row) => {
              const entry = clientEntry(row)
              const mine = held.get(keyOf(ref, row.userId))
              return mine === undefined ? entry : { ...entry, status: mine.status, data: mine.data as typeof entry.data }
            }))),
      /** Renews this server's entries, and removes the expired ones of every server, telling their subscribers (every PRESENCE_RENEW_MILLIS). */
      maintain: Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        yield* repo.renew(serverId, [...held.values()].map(({ ref, user }) => ({ ...ref, userId: user.userId })), now)
        for (const key of yield* repo.sweep(seenSince(now))) yield* feed.publish(leaveMessage(key, null))
      }).pipe(logged("presence upkeep"))
    }
  })
}) {}
