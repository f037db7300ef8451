import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

/** Where a document's events are logged: its key, organization and id. */
export interface DocumentRef {
  readonly apiKey: string
  readonly organizationId: string
  readonly documentId: string
}

/** An event as a realtime `event` message carries it (spec client-api.md, "Realtime"). */
export interface LoggedEvent {
  /** Its number in its document's log: 1, 2, … in commit order, no gaps. */
  readonly seq: number
  readonly type: string
  /** The event's data as JSON text, spliced into messages as it is. */
  readonly payloadJson: string
  /** When the change was made (ms). */
  readonly at: number
}

/** Storage port of the realtime log (docs/realtime.md; migration 0017_realtime_log). */
export class RealtimeLogRepo extends Context.Tag("@atrium/core/RealtimeLogRepo")<RealtimeLogRepo, {
  /**
   * Logs the document's events, numbered after its last; call it inside the change's transaction.
   * Concurrent writers of one document wait for each other here until commit. The last number taken.
   */
  readonly append: (
    document: DocumentRef,
    events: ReadonlyArray<{ readonly type: string; readonly data: unknown }>,
    at: number
  ) => Effect.Effect<number>
  /** The document's events numbered after `afterSeq`, at most `limit`, in order. */
  readonly since: (document: DocumentRef, afterSeq: number, limit: number) => Effect.Effect<ReadonlyArray<LoggedEvent>>
  /** The document's last number (0 before its first event). */
  readonly lastSeq: (document: DocumentRef) => Effect.Effect<number>
  /** Deletes the events logged before `at`; how many. Documents keep their numbers. */
  readonly pruneBefore: (at: number) => Effect.Effect<number>
  /**
   * This server follows these keys from `now` until `expiresAt` (renewed by calling it again). A
   * row joins the key's unbroken run of follows: it takes the run's start (`followedSince`) while
   * some row of the key is live at `now`, else starts a run at `now`.
   */
  readonly follow: (serverId: string, apiKeys: ReadonlyArray<string>, now: number, expiresAt: number) => Effect.Effect<void>
  /**
   * Since when the key's changes have been logged without a break: the start of the run of follows
   * live at `now`; undefined when none is.
   */
  readonly followedSince: (apiKey: string, now: number) => Effect.Effect<number | undefined>
  /** The keys some server follows at `now` (a read only: writers ask it inside their transactions). */
  readonly followedKeys: (now: number) => Effect.Effect<ReadonlyArray<string>>
  /** Deletes follows past their time (a server that stopped without saying so). */
  readonly forgetExpiredFollows: (now: number) => Effect.Effect<void>
}>() {}
