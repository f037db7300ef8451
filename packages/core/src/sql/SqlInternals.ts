/**
 * Everything the direct-statement path (DirectStatements.ts, StatementShapes.ts, MapRows.ts)
 * reads from @effect/sql beyond its documented API, in one place. Checked against the version
 * below by test/sql/sql-internals.test.ts, which fails naming the assumption an upgrade broke;
 * core's peer range on @effect/sql stays within the minor version checked here.
 *
 * The assumptions:
 * - a statement written as a template keeps its parts as `segments` (Literal, Parameter,
 *   ArrayHelper, Identifier, ...), the same list `compile()` turns into SQL;
 * - a statement is an Effect whose evaluation is its own `commit()` (effect's `Effectable`
 *   protocol), and @effect/sql's way to run it is the `commit` of its class's prototype; so
 *   a `commit` set on the instance replaces how that one statement runs.
 */
import type { SqlError } from "@effect/sql/SqlError"
import type * as Statement from "@effect/sql/Statement"
import type * as Effect from "effect/Effect"

/** The @effect/sql version these assumptions were checked against. */
export const CHECKED_SQL_VERSION = "0.52.1"

type Rows = ReadonlyArray<unknown>
type Commit = (this: Statement.Statement<unknown>) => Effect.Effect<Rows, SqlError>

/** What a statement has beyond its type (the assumptions above). */
interface Internals {
  commit: Commit
}

const internalsOf = (statement: Statement.Statement<unknown>): Statement.Statement<unknown> & Internals =>
  statement as Statement.Statement<unknown> & Internals

/** The parts of a statement written as a template, in order. */
export const segmentsOf = (statement: Statement.Statement<unknown>): ReadonlyArray<Statement.Segment> => statement.segments

/** Runs the statement the way it will run when evaluated: its `commit()` (its own, or its class's). */
export const commitOf = (statement: Statement.Statement<unknown>): Effect.Effect<Rows, SqlError> =>
  internalsOf(statement).commit()

/** Runs the statement on @effect/sql's own path (span, scope, connection acquisition), whatever replaced its `commit`. */
export const ordinaryCommit = (statement: Statement.Statement<unknown>): Effect.Effect<Rows, SqlError> =>
  (Object.getPrototypeOf(statement) as Internals).commit.call(statement)

/** Makes `commit` how this one statement runs when evaluated. */
export const replaceCommit = (statement: Statement.Statement<unknown>, commit: Commit): void => {
  internalsOf(statement).commit = commit
}
