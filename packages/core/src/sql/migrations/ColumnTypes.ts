import type * as SqlClient from "@effect/sql/SqlClient"
import type * as Statement from "@effect/sql/Statement"

export interface ColumnTypes {
  /** Text compared by code point: SQLite's TEXT does; PostgreSQL's needs `COLLATE "C"`, whatever the database's default collation. */
  readonly text: Statement.Fragment
  /** Millisecond timestamps and any integer that can pass 2^31: SQLite's INTEGER holds 8 bytes; PostgreSQL's INTEGER holds 4. */
  readonly bigint: Statement.Fragment
  /** An 8-byte float: SQLite's REAL; PostgreSQL's REAL has only 4 bytes and would round it. */
  readonly double: Statement.Fragment
}

/**
 * The only places the two dialects' schemas differ. Every migration is written once with these,
 * so keyset pages come in the same order, and numbers round-trip alike, on SQLite and PostgreSQL.
 */
export const columnTypes = (sql: SqlClient.SqlClient): ColumnTypes =>
  sql.onDialectOrElse({
    pg: () => ({ text: sql.literal(`TEXT COLLATE "C"`), bigint: sql.literal("BIGINT"), double: sql.literal("DOUBLE PRECISION") }),
    orElse: () => ({ text: sql.literal("TEXT"), bigint: sql.literal("INTEGER"), double: sql.literal("REAL") })
  })
