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
    readonly statement: Statement.Statement<any>,
    readonly f: (rows: ReadonlyArray<any>) => A
  ) {
    super()
  }

  commit(): Effect.Effect<A> {
    // A statement is an Effect whose evaluation is its own commit() (SqlInternals.ts).
    const rows = commitOf(this.statement)
    return Exit.isExit(rows) && Exit.isSuccess(rows)
      ? Exit.succeed(this.f(rows.value as ReadonlyArray<any>))
      : Effect.orDie(Effect.map(rows, this.f))
  }
}

/** Every SQL repository's way to run a statement: `sql\`...\`.pipe(mapRows((rows) => ...))`. */
export const mapRows = <A>(f: (rows: ReadonlyArray<any>) => A) => (statement: Statement.Statement<any>): Effect.Effect<A> =>
  new MappedRows(statement, f)

/** A statement run for its effect only; a storage failure is a defect. */
export const ignoreRows: (statement: Statement.Statement<any>) => Effect.Effect<void> = mapRows(() => undefined)
