import type { PresenceRow } from "./PresenceRepo.js"

/**
 * How long an entry lives after its last sign of life, and how often a server renews the entries
 * its connections hold and sweeps the expired ones (docs/realtime.md, "Presence"). An entry's
 * holder renews it every PRESENCE_RENEW_MILLIS while connected; once it stops (the server died),
 * the entry expires PRESENCE_TTL_MILLIS after its last renewal and the next sweep, at most
 * PRESENCE_RENEW_MILLIS later, tells its subscribers: a dead server's users leave within 25 s, under
 * DECISIONS.md's 30 s with room for a slow sweep. Entries of the server API are not renewed: the host writes them again.
 */
export const PRESENCE_TTL_MILLIS = 20_000
export const PRESENCE_RENEW_MILLIS = 5_000

/** The oldest last sign of life an entry listed at `now` may have. */
export const seenSince = (now: number) => now - PRESENCE_TTL_MILLIS

/** The largest presence `data`, as JSON text in UTF-8 (spec client-api.md, "Realtime": 4 KB). */
export const MAX_PRESENCE_DATA_BYTES = 4096

/** One entry as the client API answers it (`presence/get`, and realtime's `subscribed` list). */
export const clientEntry = (row: PresenceRow) => ({
  userId: row.userId,
  name: row.name,
  email: row.email,
  status: row.status,
  data: row.data === null ? null : JSON.parse(row.data) as Record<string, unknown>,
  lastSeenAt: row.lastSeenAt
})
