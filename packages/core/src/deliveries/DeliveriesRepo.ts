import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

/** A delivery a worker has claimed, with what its attempt needs. */
export interface ClaimedDelivery {
  readonly apiKey: string
  readonly messageId: string
  readonly endpointId: string
  /** Attempts made before this one. */
  readonly attempts: number
  readonly maxAttempts: number
  readonly eventType: string
  readonly channels: ReadonlyArray<string>
  /** The message's organization (null for none), and whether it is disabled now: then the delivery is held, not attempted. */
  readonly organizationId: string | null
  readonly organizationDisabled: boolean
  /** The message's payload as stored: JSON text of an object. */
  readonly payloadJson: string
  readonly messageCreatedAt: number
  readonly url: string
  readonly rateLimit: number | null
  /** The endpoint's secret, and the previous one while its rotation grace period lasts. */
  readonly secrets: ReadonlyArray<string>
  /** Present: the key's basic webhook, sent unsigned in the v1 shape with its token (docs/webhooks.md, "Basic webhooks"). */
  readonly basic?: { readonly authToken: string }
}

/** What a claim took; `more`: more may be due than it took (it was full, or did not look at every key). */
export interface Claimed {
  readonly deliveries: ReadonlyArray<ClaimedDelivery>
  readonly more: boolean
}

/** What one claim may take of each API key: its share of a worker (docs/webhooks.md, "Who delivers"). */
export interface ClaimShare {
  /** Of a key not in `room`. */
  readonly most: number
  /** Keys that may take less: what is left of their share (0: nothing). */
  readonly room: ReadonlyMap<string, number>
}

/** One attempt as recorded: the answer (status code 0 when none came) or why none came. */
export interface AttemptRow {
  readonly apiKey: string
  readonly id: string
  readonly messageId: string
  readonly endpointId: string
  readonly url: string
  readonly attemptNumber: number
  readonly status: "success" | "failed"
  readonly responseStatusCode: number
  readonly responseBody: string
  readonly durationMs: number
  readonly error: string | null
  readonly createdAt: number
  readonly nextAttemptAt: number | null
}

/** What becomes of a delivery after an attempt. */
export type DeliveryNext =
  | { readonly status: "pending"; readonly at: number }
  | { readonly status: "success" | "failed" }

/** An attempt to record, under the claim it was made with, and what becomes of its delivery. */
export interface RecordedAttempt {
  readonly claim: string
  readonly attempt: AttemptRow
  readonly next: DeliveryNext
}

export interface AttemptFilters {
  readonly messageId?: string
  readonly endpointId?: string
  readonly status?: "success" | "failed"
}

/** A place in the newest-first order of attempts, (createdAt, id). */
export interface AttemptPosition {
  readonly createdAt: number
  readonly id: string
}

/**
 * Storage port: pending deliveries (the outbox's other half) and the attempts made. A claim
 * holds a delivery under a `claim` token until `leaseUntil`; every later write about it names
 * the token, so a worker whose claim ran out (and was taken over) changes nothing.
 */
export class DeliveriesRepo extends Context.Tag("@atrium/core/DeliveriesRepo")<DeliveriesRepo, {
  /**
   * Claims up to `limit` deliveries due at `now`, skipping those other servers are claiming. Keys
   * take turns (each claim starts after the last key the previous claim of this process took
   * from), each what is due of it, oldest first, up to its room in `perKey`.
   */
  readonly claim: (
    claim: string,
    now: number,
    leaseUntil: number,
    limit: number,
    perKey: ClaimShare
  ) => Effect.Effect<Claimed>
  /**
   * Records attempts and moves each delivery on. For each, whether its claim still held (the
   * attempt is recorded either way); a success is reported as held without being checked.
   */
  readonly recordAttempts: (attempts: ReadonlyArray<RecordedAttempt>) => Effect.Effect<ReadonlyArray<boolean>>
  /** Hands a claimed delivery back, due at `at`, without counting an attempt (rate limit). */
  readonly postpone: (claim: string, delivery: ClaimedDelivery, at: number) => Effect.Effect<void>
  /** Hands back every delivery still held by claims starting with `claimPrefix` (a worker stopping). */
  readonly releaseAll: (claimPrefix: string, now: number) => Effect.Effect<number>
  /** Cancels the endpoint's pending deliveries (it was disabled). */
  readonly cancelEndpoint: (apiKey: string, endpointId: string, now: number) => Effect.Effect<void>
  /** Removes the endpoint's deliveries and attempts (it was deleted). */
  readonly forgetEndpoint: (apiKey: string, endpointId: string) => Effect.Effect<void>
  /** Successes clear these endpoints' failing streaks. */
  readonly markSucceeded: (endpoints: ReadonlyArray<{ readonly apiKey: string; readonly endpointId: string }>) => Effect.Effect<void>
  /** A failure starts the endpoint's failing streak unless one is running; the streak's start. */
  readonly markFailed: (apiKey: string, endpointId: string, now: number) => Effect.Effect<number | null>
  /** One more attempt now, whatever the delivery's state (created if the message never fanned out to the endpoint). */
  readonly resend: (apiKey: string, messageId: string, endpointId: string, now: number) => Effect.Effect<void>
  /** Resends every delivery to the endpoint that failed at or after `since`, but a disabled organization's; how many. */
  readonly recover: (apiKey: string, endpointId: string, since: number, now: number) => Effect.Effect<number>
  /** Newest first, from just before `before` (or the newest); a disabled organization's messages' attempts are left out. */
  readonly listAttempts: (
    apiKey: string,
    filters: AttemptFilters,
    options: { readonly before?: AttemptPosition; readonly limit: number }
  ) => Effect.Effect<ReadonlyArray<AttemptRow>>
}>() {}
