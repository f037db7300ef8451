import type * as SqlClient from "@effect/sql/SqlClient"

/**
 * `LIMIT <n>` written into the statement text instead of bound as a parameter.
 * SQLite plans a statement with a bound LIMIT again on every run: measured, a
 * one-row page cost 16 µs with `LIMIT ?` and 6 µs with a literal, more than the
 * rest of the query (docs/benchmarks.md). `n` is always a count the repository
 * computed, never text from a request; anything but a non-negative integer is a bug.
 */
export const limitRows = (sql: SqlClient.SqlClient, n: number) => {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`LIMIT must be a non-negative integer, got ${n}`)
  return sql.literal(`LIMIT ${n}`)
}
