/**
 * Puts `value` at `key` as the most recently used entry (a Map iterates in insertion order, so
 * re-inserting moves it last) and drops the least recently used one past `capacity`. The one
 * eviction rule of the per-server caches: access facts, verified tokens, provider answers.
 */
export const keepLatest = <K, V>(map: Map<K, V>, key: K, value: V, capacity: number): void => {
  map.delete(key)
  map.set(key, value)
  if (map.size > capacity) map.delete(map.keys().next().value!)
}
