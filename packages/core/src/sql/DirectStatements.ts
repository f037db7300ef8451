import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type * as Statement from "@effect/sql/Statement"
import * as Effect from "effect/Effect"
import { TracingEnabled } from "../ports/TracingEnabled.js"
import { ordinaryCommit, replaceCommit } from "./SqlInternals.js"
import { type Compiled, makeStatementShapes } from "./StatementShapes.js"

/**
 * How a client runs a statement it can run directly. `ordinary(statement)` is
 * @effect/sql's own path; `compile(statement)` gives the text and parameters to
 * hand the driver (remembered by shape: StatementShapes.ts). Called when the
 * statement runs (from its `commit`), so it may do its work at once and return an `Exit`.
 */
export type DirectRun = (
  statement: Statement.Statement<unknown>,
  ordinary: (statement: Statement.Statement<unknown>) => Effect.Effect<ReadonlyArray<unknown>, SqlError>,
  compile: (statement: Statement.Statement<unknown>) => Compiled
) => Effect.Effect<ReadonlyArray<unknown>, SqlError>

/**
 * The client, with every statement written as a template (sql`...`, which is
 * every repository statement) run through `direct` instead of @effect/sql's
 * ordinary path: a span, a scope and a connection acquisition per statement,
 * which cost more than a primary-key read itself (docs/benchmarks.md). `direct`
 * takes the ordinary path whenever it must (inside a transaction). Repositories
 * do not change: they still see a `SqlClient`.
 */
export const withDirectStatements = (client: SqlClient.SqlClient, direct: DirectRun): SqlClient.SqlClient => {
  const compile = makeStatementShapes()
  // One method shared by every statement: the hot path allocates nothing for it.
  function commit(this: Statement.Statement<unknown>) {
    return direct(this, ordinaryCommit, compile)
  }
  // The client's two call forms (Statement.Constructor): sql("name") is an identifier; a template, a statement.
  function make(strings: TemplateStringsArray | string, ...args: Array<unknown>) {
    if (typeof strings === "string") return client(strings)
    const made = client(strings, ...args)
    replaceCommit(made, commit)
    return made
  }
  // The client's own members (transactions, helpers) on the new call: it is the client, statements aside.
  return Object.assign(make, client)
}

/**
 * Whether a client built now should run statements directly: as its options say, else unless
 * Atrium traces (`createAtrium({ tracing })`), where each statement keeps @effect/sql's span.
 */
export const directStatementsWanted = (option: boolean | undefined): Effect.Effect<boolean> =>
  option !== undefined ? Effect.succeed(option) : Effect.map(TracingEnabled, (tracing) => !tracing)
