import type { ClaimShare } from "./DeliveriesRepo.js"

/** A key a claim found with due deliveries, and how many (counted up to a share). */
export interface DueKey {
  readonly apiKey: string
  readonly due: number
}

/**
 * What one claim takes of each key: the keys in turn, each what is due of it up to its room
 * (`room`, else `most`), until `limit` in all. Keys without room are not asked for.
 */
export const takesOf = (keys: ReadonlyArray<DueKey>, share: ClaimShare, limit: number) => {
  const takes: Array<DueKey> = []
  let total = 0
  for (const { apiKey, due } of keys) {
    const take = Math.min(due, share.room.get(apiKey) ?? share.most, limit - total)
    if (take <= 0) continue
    takes.push({ apiKey, due: take })
    total += take
    if (total === limit) break
  }
  return { takes, full: total === limit }
}

/** The keys with no room left: a claim does not look at their due deliveries. */
export const withoutRoom = (share: ClaimShare) => [...share.room].filter(([, room]) => room <= 0).map(([apiKey]) => apiKey)
