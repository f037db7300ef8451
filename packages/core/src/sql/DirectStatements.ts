import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type * as Statement from "@effect/sql/Statement"
import * as Effect from "effect/Effect"

/** How a client runs a statement it can run directly; `ordinary` is @effect/sql's own path. */
export type DirectRun = (
  statement: Statement.Statement<any>,
  ordinary: () => Effect.Effect<ReadonlyArray<any>, SqlError>
) => Effect.Effect<ReadonlyArray<any>, SqlError>

/**
 * The client, with every statement written as a template (sql`...`, which is
 * every repository statement) run through `direct` instead of @effect/sql's
 * ordinary path: a span, a scope and a connection acquisition per statement,
 * which cost more than a primary-key read itself (docs/benchmarks.md). `direct`
 * takes the ordinary path whenever it must (inside a transaction). Repositories
 * do not change: they still see a `SqlClient`.
 */
export const withDirectStatements = (client: SqlClient.SqlClient, direct: DirectRun): SqlClient.SqlClient => {
  const make = (strings: unknown, ...args: Array<unknown>): unknown => {
    const made = (client as any)(strings, ...args)
    if (!(Array.isArray(strings) && "raw" in strings)) return made // sql("name") and other helpers
    const ordinary = made.commit
    made.commit = () => Effect.suspend(() => direct(made, () => ordinary.call(made)))
    return made
  }
  return Object.assign(make, client) as unknown as SqlClient.SqlClient
}
