import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

/** One event a domain records: its type (`<source>.<action>`), its data, its channels and its organization. */
export interface NewEvent {
  readonly type: string
  readonly data: Readonly<Record<string, unknown>>
  readonly channels: ReadonlyArray<string>
  /**
   * The organization whose data the event carries (events/Channels.ts, `aboutOrganization`); null
   * for none (the key's own settings, a host's message). The webhook outbox stores it beside the
   * message, so a disabled organization's messages are left out and held (docs/decisions.md, "Access").
   */
  readonly organizationId: string | null
  /**
   * The change asks for notifications (docs/notifications.md): a comment written through the
   * client API, or through the server API with `triggerNotification: true`. Only the
   * notifications' listener reads it; it is not part of what webhooks and realtime carry.
   */
  readonly notifies?: boolean
}

/** Events of one API key, as a change emitted them, with the time of the change. */
export interface EmittedEvents {
  readonly apiKey: string
  readonly at: number
  readonly events: ReadonlyArray<NewEvent>
}

/**
 * One concern that follows the domains' changes (docs/architecture.md, "Domain events"). The
 * webhook outbox is one; a host may add its own (`createAtrium({ listeners })`).
 */
export interface EventListener {
  /** For logs. */
  readonly name: string
  /**
   * Whether it follows this key's events now. Asked first: while no listener follows a key, its
   * events are not even built. `notifying`: the change asks for notifications (NewEvent.notifies)
   * or makes them (notifications/add, and the `notification.add` follow-ups of the notifications'
   * listener), which the notifications' and email's listeners follow whatever the key.
   */
  readonly follows: (apiKey: string, notifying: boolean) => Effect.Effect<boolean>
  /**
   * It reads only what the emitting domain put in the events (Atrium's notifications and email
   * listeners), none of the enrichers' additions: while only such listeners follow a change, the
   * enrichers are not run for it (events/EventEnricher.ts).
   */
  readonly plain?: boolean
  /**
   * Runs inside the change's transaction: what it writes commits with the change, or not at all.
   * A failure here is a defect of the change, which then rolls back. It may answer events of its
   * own writes (the notifications' listener: `notification.add` for each notification it made):
   * every listener that follows them is told them next, in the same transaction.
   */
  readonly inTransaction?: (emitted: EmittedEvents) => Effect.Effect<void | ReadonlyArray<NewEvent>>
  /** Told once the change's transaction has committed; never when it rolled back. */
  readonly afterCommit?: (emitted: EmittedEvents) => Effect.Effect<void>
}

/** Every listener `Events.emit` tells, in order: Atrium's own, then the host's. */
export class EventListeners extends Context.Tag("@atrium/core/EventListeners")<EventListeners, ReadonlyArray<EventListener>>() {}
