/** Listeners of one kind of news: `subscribe` gives back the function that stops listening. */
export interface Topic<T> {
  readonly subscribe: (listener: (value: T) => void) => () => void
}

/** A topic and its publish. */
export const createTopic = <T>(): Topic<T> & { readonly publish: (value: T) => void } => {
  const listeners = new Set<(value: T) => void>()
  return {
    subscribe: (listener) => {
      // Wrapped, so one function subscribed twice is called twice and each unsubscribe removes its own.
      const entry = (value: T) => listener(value)
      listeners.add(entry)
      return () => void listeners.delete(entry)
    },
    publish: (value) => {
      for (const listener of [...listeners]) {
        try {
          listener(value)
        } catch (error) {
          // A listener's throw reaches the page's error handlers, not the socket's message handler:
          // the other listeners, and the messages after this one, are still delivered.
          setTimeout(() => {
            throw error
          })
        }
      }
    }
  }
}
