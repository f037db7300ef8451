import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Random from "effect/Random"
import { AtriumConfig } from "../Config.js"
import { Events } from "../events/Events.js"
import { ATTEMPT_EXHAUSTED } from "./FanOut.js"
import { RateLimitsRepo } from "../protocol/RateLimitsRepo.js"
import { Ids, timeOrderedId } from "../ports/Ids.js"
import { Transactions } from "../ports/Transactions.js"
import { WebhookTransport } from "../ports/WebhookTransport.js"
import { WebhookEndpointsRepo } from "../webhooks/WebhookEndpointsRepo.js"
import { type AttemptRow, type ClaimedDelivery, type ClaimShare, DeliveriesRepo, type DeliveryNext } from "./DeliveriesRepo.js"
import { basicDeliveryBody } from "./BasicDeliveryBody.js"
import { deliveryBody } from "./DeliveryBody.js"
import { toAttemptRecord } from "./DeliverySchemas.js"
import { delayMillis, retryAfterMillis } from "./RetrySchedule.js"
import { basicHeaders, signedHeaders } from "./Signature.js"

/** An endpoint with nothing but failures for this long is disabled (docs/decisions.md, "Webhooks"). */
export const FAILING_ENDPOINT_DISABLE_MILLIS = 5 * 24 * 60 * 60 * 1000

/** One attempt made, not yet recorded. */
export interface AttemptOutcome {
  readonly claim: string
  readonly delivery: ClaimedDelivery
  readonly attempt: AttemptRow
  readonly next: DeliveryNext
  /** 410 Gone: the receiver asks for no more deliveries. */
  readonly gone: boolean
}

/**
 * How long a due delivery of a disabled organization is handed back before a claim looks at it
 * again (docs/decisions.md, "Webhook events and delivery"): it goes out within this long of the
 * organization being enabled, and a held backlog costs a claim of each delivery this often.
 */
export const DISABLED_ORGANIZATION_HOLD_MILLIS = 60_000

/** Tasks one `runDue` call makes at most, unless told otherwise. */
const DEFAULT_MAX_ATTEMPTS = 1000

/**
 * Delivery of pending webhook messages: claim what is due, attempt it (signed, timed out,
 * rate-limited per endpoint across servers), record the attempt and what comes next.
 * The worker (DeliveryWorker.ts) and `runDue` are two ways to drive the same steps.
 */
export class Deliveries extends Effect.Service<Deliveries>()("@atrium/core/Deliveries", {
  accessors: true,
  effect: Effect.gen(function*() {
    const repo = yield* DeliveriesRepo
    const endpoints = yield* WebhookEndpointsRepo
    const events = yield* Events
    const transport = yield* WebhookTransport
    const rateLimits = yield* RateLimitsRepo
    const ids = yield* Ids
    const { withTransaction } = yield* Transactions
    const { concurrency, concurrencyPerKey, leaseMillis, retrySchedule, timeoutMillis } = (yield* AtriumConfig).webhooks

    /** Claims up to `limit` due deliveries under the claim token `claim`; by default at most a key's share of them. */
    const claim = (claim: string, limit: number, perKey: ClaimShare = { most: concurrencyPerKey, room: new Map() }) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => repo.claim(claim, now, now + leaseMillis, limit, perKey))

    /** Whether the endpoint's `rateLimit` lets one more attempt start this second; if not, the delivery waits for the next. */
    const admitted = (claim: string, d: ClaimedDelivery, now: number) =>
      Effect.gen(function*() {
        if (d.rateLimit === null) return true
        const windowStart = Math.floor(now / 1000) * 1000
        const hits = yield* rateLimits.hit(`webhook:${d.apiKey}:${d.endpointId}`, windowStart)
        if (hits <= d.rateLimit) return true
        // Spread over the next window's first tenth, so the waiting ones do not all knock at once.
        yield* repo.postpone(claim, d, windowStart + 1000 + Math.floor((yield* Random.next) * 100))
        return false
      })

    const nextAfterFailure = (d: ClaimedDelivery, now: number, status: number, retryAfter: string | undefined) =>
      Effect.gen(function*() {
        if (d.attempts + 1 >= d.maxAttempts) return { status: "failed" } as const
        const scheduled = now + delayMillis(retrySchedule, d.attempts + 1, yield* Random.next)
        // Only these two answers ask the sender to wait; a Retry-After never brings the attempt forward.
        const asked = status === 429 || status === 503 ? retryAfterMillis(retryAfter, now) : undefined
        return { status: "pending", at: asked === undefined ? scheduled : Math.max(scheduled, now + asked) } as const
      })

    /**
     * One attempt of a claimed delivery; undefined when it was sent back to wait: its organization
     * is disabled (held, no attempt counted), or the rate limit said no.
     */
    const attempt = (claim: string, d: ClaimedDelivery): Effect.Effect<AttemptOutcome | undefined> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        d.organizationDisabled
          ? Effect.as(repo.postpone(claim, d, now + DISABLED_ORGANIZATION_HOLD_MILLIS), undefined)
          // Most endpoints have no rate limit: their attempts skip the check's steps altogether.
          : d.rateLimit === null
          ? send(claim, d, now)
          : Effect.flatMap(admitted(claim, d, now), (ok) => ok ? send(claim, d, now) : Effect.succeed(undefined)))

    const send = (claim: string, d: ClaimedDelivery, now: number) =>
      Effect.gen(function*() {
        // A basic webhook is sent unsigned, in the v1 shape, with its token (docs/webhooks.md, "Basic webhooks").
        const body = d.basic === undefined ? deliveryBody(d) : basicDeliveryBody(d)
        const headers = d.basic === undefined ? signedHeaders(d.secrets, d.messageId, Math.floor(now / 1000), body) : basicHeaders(d.basic.authToken)
        const started = performance.now()
        const answer = yield* Effect.either(transport.post({ url: d.url, headers, body, timeoutMillis }))
        const durationMs = Math.round(performance.now() - started)
        const status = answer._tag === "Right" ? answer.right.status : 0
        const succeeded = status >= 200 && status < 300
        const gone = status === 410
        const next: DeliveryNext = succeeded
          ? { status: "success" }
          : gone
          ? { status: "failed" }
          : yield* nextAfterFailure(d, now, status, answer._tag === "Right" ? answer.right.retryAfter : undefined)
        const outcome: AttemptOutcome = {
          claim,
          delivery: d,
          gone,
          next,
          attempt: {
            apiKey: d.apiKey,
            id: yield* timeOrderedId(ids, "atmpt", now),
            messageId: d.messageId,
            endpointId: d.endpointId,
            url: d.url,
            attemptNumber: d.attempts + 1,
            status: succeeded ? "success" : "failed",
            responseStatusCode: status,
            responseBody: answer._tag === "Right" ? answer.right.body : "",
            durationMs,
            error: answer._tag === "Left" ? `${answer.left.reason}: ${answer.left.message}` : null,
            createdAt: now,
            nextAttemptAt: next.status === "pending" ? next.at : null
          }
        }
        yield* logAttempt(outcome)
        return outcome
      })

    /** One line per attempt: delivered (info) or failed, with what comes next (warning). */
    const logAttempt = ({ attempt: a, next }: AttemptOutcome) => {
      const answer = a.error ?? `HTTP ${a.responseStatusCode}`
      const then = next.status === "pending" ? `; next attempt at ${new Date(next.at).toISOString()}` : next.status === "failed" ? "; no more attempts" : ""
      const line = a.status === "success"
        ? Effect.logInfo(`Webhook ${a.messageId} delivered to ${a.endpointId} (attempt ${a.attemptNumber}, ${answer}, ${a.durationMs} ms).`)
        : Effect.logWarning(`Webhook ${a.messageId} to ${a.endpointId} failed (attempt ${a.attemptNumber}, ${answer}, ${a.durationMs} ms)${then}.`)
      return Effect.annotateLogs(line, { messageId: a.messageId, endpointId: a.endpointId, attempt: a.attemptNumber, status: a.responseStatusCode })
    }

    /** Disables the endpoint and cancels what it still had pending. */
    const disableEndpoint = (apiKey: string, endpointId: string, now: number, why: string) =>
      Effect.all([
        endpoints.disable(apiKey, endpointId, now),
        repo.cancelEndpoint(apiKey, endpointId, now),
        Effect.logWarning(`Webhook endpoint ${endpointId} disabled: ${why}.`)
      ], { discard: true })

    /** Endpoint health after a batch: each endpoint judged by its latest attempt in it; a 410 disables at once. */
    const judgeEndpoints = (outcomes: ReadonlyArray<AttemptOutcome>) =>
      Effect.gen(function*() {
        const latest = new Map<string, AttemptOutcome>()
        for (const o of outcomes) latest.set(`${o.delivery.apiKey}\n${o.delivery.endpointId}`, o)
        const gone = outcomes.filter((o) => o.gone)
        for (const o of gone) yield* disableEndpoint(o.delivery.apiKey, o.delivery.endpointId, o.attempt.createdAt, "it answered 410 Gone")
        const judged = [...latest.values()].filter((o) => !gone.some((g) => g.delivery.endpointId === o.delivery.endpointId && g.delivery.apiKey === o.delivery.apiKey))
        yield* repo.markSucceeded(judged.filter((o) => o.attempt.status === "success").map((o) => o.delivery))
        for (const o of judged.filter((o) => o.attempt.status === "failed")) {
          const { apiKey, endpointId } = o.delivery
          const now = o.attempt.createdAt
          const failingSince = yield* repo.markFailed(apiKey, endpointId, now)
          if (failingSince !== null && now - failingSince >= FAILING_ENDPOINT_DISABLE_MILLIS) {
            yield* disableEndpoint(apiKey, endpointId, now, "five days without a successful delivery")
          }
        }
      })

    /** `message.attempt.exhausted` for a delivery whose last attempt failed (never for one of those itself: it would feed itself). */
    const exhausted = (o: AttemptOutcome) =>
      o.delivery.eventType === ATTEMPT_EXHAUSTED ? Effect.void : events.emit(o.delivery.apiKey, [{
        type: ATTEMPT_EXHAUSTED,
        channels: o.delivery.channels,
        // Its message's: closed with it while that organization is disabled.
        organizationId: o.delivery.organizationId,
        data: {
          messageId: o.delivery.messageId,
          endpointId: o.delivery.endpointId,
          eventType: o.delivery.eventType,
          lastAttempt: toAttemptRecord(o.attempt)
        }
      }])

    /** Records attempts in one transaction: a few statements and one commit for a batch, whatever its size. */
    const record = (outcomes: ReadonlyArray<AttemptOutcome>) =>
      outcomes.length === 0 ? Effect.void : withTransaction(Effect.gen(function*() {
        const held = yield* repo.recordAttempts(outcomes)
        yield* judgeEndpoints(outcomes)
        yield* Effect.forEach(outcomes, (o, i) => held[i] && o.next.status === "failed" ? exhausted(o) : Effect.void, { discard: true })
      }))

    return {
      claim,
      attempt,
      record,
      /**
       * Makes every attempt due now, batch by batch, until none is due or `maxAttempts` were
       * made (pull-based: serverless hosts, cron, tests). The number of attempts made. A batch
       * holds at most a key's share of each key, so another key's delivery is in the first one.
       */
      runDue: (options: { readonly owner?: string; readonly maxAttempts?: number } = {}) =>
        Effect.gen(function*() {
          const owner = options.owner ?? (yield* ids.make("run"))
          const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS
          let made = 0
          for (let batch = 1; made < maxAttempts; batch++) {
            const token = `${owner}.${batch}`
            const claimed = (yield* claim(token, Math.min(concurrency, maxAttempts - made))).deliveries
            if (claimed.length === 0) break
            const outcomes = yield* Effect.forEach(claimed, (d) => attempt(token, d), { concurrency: "unbounded" })
            const attempted = outcomes.filter((o): o is AttemptOutcome => o !== undefined)
            yield* record(attempted)
            made += attempted.length
            // Everything claimed was sent back by rate limits: nothing more is due this second. Held
            // deliveries (a disabled organization's) are out of the way now: what was due behind them still is.
            if (attempted.length === 0 && !claimed.some((d) => d.organizationDisabled)) break
          }
          return made
        }),
      /** Hands back every delivery the worker `owner` still holds (it is stopping). */
      releaseAll: (owner: string) => Effect.flatMap(Clock.currentTimeMillis, (now) => repo.releaseAll(`${owner}.`, now))
    }
  })
}) {}
