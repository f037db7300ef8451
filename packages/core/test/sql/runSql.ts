/**
 * A statement of the test's own on an Atrium's database (SQLite, PostgreSQL or the in-memory
 * storage): what a hand-written statement, a restore or another tool would do behind its back.
 */
import type { AtriumHandler } from "../../src/Atrium.js"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"

type SqlRuntime = { runPromise: <A>(effect: Effect.Effect<A, unknown, SqlClient.SqlClient>) => Promise<A> }

export const runSql = <A>(atrium: AtriumHandler, statement: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>): Promise<A> =>
  // Every SQL storage provides the client in the runtime; AtriumServices does not name it (hosts need not).
  (atrium.runtime as unknown as SqlRuntime).runPromise(Effect.flatMap(SqlClient.SqlClient, statement))
