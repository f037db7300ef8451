/** Longest a `Retry-After` may push an attempt back: a day, so a hostile answer cannot park a delivery for good. */
export const MAX_RETRY_AFTER_MILLIS = 24 * 60 * 60 * 1000

/** Jitter added to each delay: up to 10 % of it, never less than the schedule says (docs/decisions.md, "Webhooks"). */
export const JITTER = 0.1

/**
 * Parses `ATRIUM_WEBHOOK_RETRY_SCHEDULE`: comma-separated delays in seconds before each attempt,
 * the first counted from the message's creation. Its length is the number of attempts.
 */
export const parseRetrySchedule = (text: string): ReadonlyArray<number> | string => {
  const parts = text.split(",").map((part) => part.trim())
  const delays = parts.map(Number)
  if (parts.length === 0 || parts.some((part) => part === "") || delays.some((d) => !Number.isFinite(d) || d < 0)) {
    return `must be comma-separated non-negative numbers of seconds, e.g. 0,5,300 (got "${text}")`
  }
  if (delays.length > 100) return `must list at most 100 attempts (got ${delays.length})`
  return delays
}

/** The delay before attempt `attemptIndex` (0-based), with jitter from `random` in [0, 1). */
export const delayMillis = (schedule: ReadonlyArray<number>, attemptIndex: number, random: number): number => {
  const seconds = schedule[attemptIndex] ?? 0
  return Math.round(seconds * 1000 * (1 + JITTER * random))
}

/**
 * A `Retry-After` header as milliseconds from `now`: seconds, or an HTTP date. Undefined when
 * absent or unreadable; at most a day.
 */
export const retryAfterMillis = (header: string | undefined, now: number): number | undefined => {
  if (header === undefined || header.trim() === "") return undefined
  const text = header.trim()
  const millis = /^\d+$/.test(text) ? Number(text) * 1000 : Date.parse(text) - now
  return Number.isFinite(millis) ? Math.min(Math.max(millis, 0), MAX_RETRY_AFTER_MILLIS) : undefined
}
