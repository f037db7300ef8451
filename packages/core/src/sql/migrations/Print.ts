import type * as Reactivity from "@effect/experimental/Reactivity"
import type * as Connection from "@effect/sql/SqlConnection"
import * as SqlClient from "@effect/sql/SqlClient"
import type * as Statement from "@effect/sql/Statement"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { migrationRecord } from "./index.js"

/**
 * The SQL every migration runs, as the dialect of `compiler` writes it, without a database:
 * each migration runs against a client that records its statements and answers no rows.
 * What `atrium migrate --print` shows. Migrations are data definitions: a statement with
 * parameters would not print as runnable SQL, so it is refused rather than printed wrong.
 */
export const migrationScript = (compiler: Statement.Compiler): Effect.Effect<string, never, Reactivity.Reactivity> =>
  Effect.gen(function*() {
    const lines: Array<string> = []
    const record = (sql: string, params: ReadonlyArray<unknown> | undefined) =>
      Effect.suspend(() => {
        if (params !== undefined && params.length > 0) return Effect.dieMessage(`A migration statement has parameters: ${sql}`)
        lines.push(`${sql.trim()};`)
        return Effect.succeed([])
      })
    const connection: Connection.Connection = {
      execute: record,
      executeRaw: record,
      executeValues: record,
      executeUnprepared: record,
      executeStream: () => Stream.dieMessage("executeStream is not supported")
    }
    const client = yield* SqlClient.make({
      acquirer: Effect.succeed(connection),
      compiler,
      spanAttributes: []
    })
    for (const [name, migration] of Object.entries(migrationRecord)) {
      lines.push(`-- ${name}`)
      yield* Effect.orDie(Effect.provideService(migration, SqlClient.SqlClient, client))
      lines.push("")
    }
    return lines.join("\n")
  })
