import type { AtriumError } from "./AtriumError.js"
import type { CallOutcome } from "./Call.js"

/**
 * Calls answered 429 (RESOURCE_EXHAUSTED: a rate limit) or 503 (UNAVAILABLE: storage not open
 * yet, the server shutting down) were not carried out, so the client may send them again: after
 * the server's `Retry-After`, or a short backoff when it gives none. A wait longer than
 * `maxDelayMillis` is the caller's to decide: the error is returned at once, with its
 * `retryAfterSeconds`. A call that got no answer at all is not sent again: it may have been carried
 * out.
 */
export interface RetryOptions {
  /** Tries after the first (default 2). */
  readonly retries?: number | undefined
  /** The longest wait before a try (default 5000 ms). */
  readonly maxDelayMillis?: number | undefined
  /** The first backoff when the server gives no Retry-After, doubled each try (default 250 ms). */
  readonly backoffMillis?: number | undefined
}

export const defaultRetries: { readonly [K in keyof RetryOptions]-?: number } = { retries: 2, maxDelayMillis: 5000, backoffMillis: 250 }

type Policy = typeof defaultRetries

/** The wait before try `attempt` (1 = the first retry) after `error`, or undefined when it is not to be retried. */
export const retryDelay = (error: AtriumError, attempt: number, policy: Policy): number | undefined => {
  if (attempt > policy.retries || (error.httpStatus !== 429 && error.httpStatus !== 503)) return undefined
  const delay = error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : policy.backoffMillis * 2 ** (attempt - 1)
  return delay > policy.maxDelayMillis ? undefined : delay
}

/** `call` tried again as the policy says; `false` tries once. Waiting ends early, as CANCELLED, when `signal` aborts. */
export const withRetries = async <O extends CallOutcome<unknown, AtriumError>>(
  call: () => Promise<O>,
  retry: RetryOptions | false | undefined,
  signal: AbortSignal | undefined
): Promise<O> => {
  const policy: Policy = retry === false ? { ...defaultRetries, retries: 0 } : { ...defaultRetries, ...definedOnly<number>({ ...retry }) }
  for (let attempt = 1; ; attempt++) {
    const outcome = await call()
    const delay = outcome.error === undefined ? undefined : retryDelay(outcome.error, attempt, policy)
    if (delay === undefined) return outcome
    if (!(await sleep(delay, signal))) return call() // aborted: the next call answers CANCELLED at once
  }
}

/** Resolves true after `millis`, or false as soon as `signal` aborts. */
const sleep = (millis: number, signal: AbortSignal | undefined) =>
  new Promise<boolean>((resolve) => {
    if (signal?.aborted) return resolve(false)
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", aborted)
      resolve(true)
    }, millis)
    const aborted = () => {
      clearTimeout(timer)
      resolve(false)
    }
    signal?.addEventListener("abort", aborted, { once: true })
  })

/** The entries whose value is set: an option given as `undefined` keeps its default. */
export const definedOnly = <V>(value: Readonly<Record<string, V | undefined>>): Record<string, V> =>
  Object.fromEntries(Object.entries(value).filter((entry): entry is [string, V] => entry[1] !== undefined))
