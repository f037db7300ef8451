/**
 * `rows` in slices of at most `size`, for multi-row statements: SQLite takes at most 32,766
 * parameters in one statement and PostgreSQL 65,535, and a call's rows can outnumber them.
 */
export const chunksOf = <A>(rows: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> =>
  Array.from({ length: Math.ceil(rows.length / size) }, (_, i) => rows.slice(i * size, (i + 1) * size))
