/**
 * A small time-bounded cache of what one API key owns (its tokens, its organizations, the origins
 * its domains admit), keyed by the API key, then by the token, organization id or origin: a lookup
 * hashes the two strings it is given instead of a string made from them, and forgetting a key is
 * one delete. Hot requests would otherwise read the same facts from storage on every call; writes
 * made through this process drop their entries at once, other servers see them within
 * `cacheTtlMillis` (docs/decisions.md).
 */
export const keyedTtlCache = <V>(maxEntries = 10_000) => {
  const byApiKey = new Map<string, Map<string, { readonly value: V; readonly until: number }>>()
  let size = 0
  return {
    get: (apiKey: string, key: string, now: number): V | undefined => {
      const entry = byApiKey.get(apiKey)?.get(key)
      return entry !== undefined && entry.until > now ? entry.value : undefined
    },
    set: (apiKey: string, key: string, value: V, until: number) => {
      if (size >= maxEntries) {
        byApiKey.clear()
        size = 0
      }
      let entries = byApiKey.get(apiKey)
      if (entries === undefined) byApiKey.set(apiKey, entries = new Map())
      if (!entries.has(key)) size++
      entries.set(key, { value, until })
    },
    delete: (apiKey: string, key: string) => {
      if (byApiKey.get(apiKey)?.delete(key) === true) size--
    },
    deleteApiKey: (apiKey: string) => {
      size -= byApiKey.get(apiKey)?.size ?? 0
      byApiKey.delete(apiKey)
    }
  }
}
