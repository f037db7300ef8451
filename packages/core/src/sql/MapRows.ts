import type * as Statement from "@effect/sql/Statement"
import * as Effect from "effect/Effect"
import * as Effectable from "effect/Effectable"
import * as Exit from "effect/Exit"
import { commitOf } from "./SqlInternals.js"

/**
 * A statement whose rows are turned into a result, a storage failure being a
 * defect (logged, answered INTERNAL). Equal to `Effect.orDie(Effect.map(statement, f))`;
 * when the statement runs at once (a direct statement on SQLite answers with an
 * `Exit`), the result is computed in that same step, where the two combinators
 * would have cost the fiber several more steps (docs/benchmarks.md).
 */
class MappedRows<A> extends Effectable.Class<A> {
  constructor(
    readonly statement: Statement.Statement<unknown>,
    readonly f: (rows: ReadonlyArray<unknown>) => A
  ) {
    super()
  }

  commit(): Effect.Effect<A> {
    // A statement is an Effect whose evaluation is its own commit() (SqlInternals.ts).
    const rows = commitOf(this.statement)
    return Exit.isExit(rows) && Exit.isSuccess(rows)
      ? Exit.succeed(this.f(rows.value as ReadonlyArray<unknown>))
      : Effect.orDie(Effect.map(rows, this.f))
  }
}

/**
 * Every SQL repository's way to run a statement: `sql\`...\`.pipe(mapRows((rows: ReadonlyArray<Row>) => ...))`.
 * `Row` declares the columns the statement selects, as the drivers return them (Rows.ts); the
 * driver's rows are taken to be those, so the SELECT and its row type are written side by side.
 */
export const mapRows = <Row, A>(f: (rows: ReadonlyArray<Row>) => A) => (statement: Statement.Statement<unknown>): Effect.Effect<A> =>
  new MappedRows(statement, f as (rows: ReadonlyArray<unknown>) => A)

/** Every row through `toRow`. */
export const allRows = <Row, A>(toRow: (row: Row) => A) => mapRows((rows: ReadonlyArray<Row>) => rows.map((row) => toRow(row)))

/** The first row through `toRow`, or undefined when there is none. */
export const firstRow = <Row, A>(toRow: (row: Row) => A) =>
  mapRows((rows: ReadonlyArray<Row>) => rows[0] === undefined ? undefined : toRow(rows[0]))

/** A statement run for its effect only; a storage failure is a defect. */
export const ignoreRows: (statement: Statement.Statement<unknown>) => Effect.Effect<void> = mapRows(() => undefined)
