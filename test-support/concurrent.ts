/**
 * Real concurrent requests: `count` copies released together, and their answers counted by
 * status. The concurrency suites (packages/core/test/protocol/concurrency.test.ts,
 * packages/core/test/access/concurrency.test.ts) assert exact counts, so a lost race that
 * leaks as a 500 shows.
 */
import { backends, postgresOverHttp } from "./backends.js"

/** `count` copies of a request released together; the answers in order. */
export const together = <A>(count: number, request: (i: number) => Promise<A>) => Promise.all(Array.from({ length: count }, (_, i) => request(i)))

/** How many answers had each status. */
export const statuses = (answers: ReadonlyArray<{ readonly status: number }>) => {
  const counts: Record<number, number> = {}
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1
  return counts
}

/** The ids, starting at the i-th, in the i-th caller's order: rotated, or reversed for every other caller (callers naming the same things in other orders). */
export const inOrderOf = <A>(ids: ReadonlyArray<A>, i: number): ReadonlyArray<A> =>
  i % 2 === 1 ? [...ids].reverse() : [...ids.slice(i % ids.length), ...ids.slice(0, i % ids.length)]

/**
 * The storages concurrency is shown on, behind a real node:http server: SQLite, which runs one
 * write transaction at a time, and PostgreSQL, which runs them side by side.
 */
export const concurrentBackends = [...backends.filter((backend) => backend.name === "sqlite over node-http"), postgresOverHttp]
