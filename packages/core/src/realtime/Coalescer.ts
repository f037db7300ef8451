/**
 * Latest wins, at most once per interval and key: the first value of a key goes at once, the ones
 * offered within `intervalMillis` of it wait, and only the last of them goes when the interval
 * ends. A cursor moved 60 times a second becomes one storage write a second (realtime presence,
 * docs/realtime.md), or 20 feed messages, and the final position is never lost.
 */
export interface Coalescer<V> {
  readonly offer: (key: string, value: V) => void
  /** `key` was just written by other means: what is offered next waits a full interval. */
  readonly touch: (key: string) => void
  /** Drops what waits for `key`, and forgets it. */
  readonly cancel: (key: string) => void
  /** Drops everything (the owner stops). */
  readonly clear: () => void
}

interface Entry<V> {
  last: number
  pending: { readonly value: V } | undefined
  timer: ReturnType<typeof setTimeout> | undefined
}

export const makeCoalescer = <V>(intervalMillis: number, flush: (key: string, value: V) => void): Coalescer<V> => {
  const entries = new Map<string, Entry<V>>()

  const fire = (key: string, entry: Entry<V>) => {
    entry.timer = undefined
    const pending = entry.pending
    if (pending === undefined) return
    entry.pending = undefined
    entry.last = Date.now()
    flush(key, pending.value)
  }

  return {
    offer: (key, value) => {
      const now = Date.now()
      const entry = entries.get(key)
      if (entry === undefined || (entry.timer === undefined && now - entry.last >= intervalMillis)) {
        entries.set(key, { last: now, pending: undefined, timer: undefined })
        flush(key, value)
        return
      }
      entry.pending = { value }
      entry.timer ??= setTimeout(() => fire(key, entry), Math.max(0, intervalMillis - (now - entry.last)))
    },
    touch: (key) => {
      const entry = entries.get(key)
      if (entry === undefined) entries.set(key, { last: Date.now(), pending: undefined, timer: undefined })
      else entry.last = Date.now()
    },
    cancel: (key) => {
      const entry = entries.get(key)
      if (entry?.timer !== undefined) clearTimeout(entry.timer)
      entries.delete(key)
    },
    clear: () => {
      for (const entry of entries.values()) if (entry.timer !== undefined) clearTimeout(entry.timer)
      entries.clear()
    }
  }
}
