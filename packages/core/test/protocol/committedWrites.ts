import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import type { AtriumHandler } from "../../src/Atrium.js"

type SqlRuntime = { runPromise: <A>(effect: Effect.Effect<A, unknown, SqlClient.SqlClient>) => Promise<A> }

/**
 * Counts every row written and kept, in the Atrium's own database: a trigger on each table adds
 * one to `fuzz_changes` per row inserted, updated or deleted, and a rolled-back write takes its
 * counts back with it. Rate-limit counters are left out (a refused public call may count).
 * Answers a function that reads the count. Once per Atrium: it adds the table and the triggers.
 */
export const countCommittedWrites = async (atrium: AtriumHandler): Promise<() => Promise<number>> => {
  const runtime = atrium.runtime as unknown as SqlRuntime
  await runtime.runPromise(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const pg = sql.onDialectOrElse({ pg: () => true, orElse: () => false })
    const tables = pg
      ? yield* sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`
      : yield* sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
    yield* sql.unsafe("CREATE TABLE fuzz_changes (n BIGINT NOT NULL)")
    yield* sql.unsafe("INSERT INTO fuzz_changes (n) VALUES (0)")
    if (pg) {
      yield* sql.unsafe("CREATE FUNCTION fuzz_count() RETURNS trigger AS $$ BEGIN UPDATE fuzz_changes SET n = n + 1; RETURN NULL; END $$ LANGUAGE plpgsql")
    }
    for (const { name } of tables.filter((t) => t.name !== "rate_limits")) {
      if (pg) yield* sql.unsafe(`CREATE TRIGGER fuzz_${name} AFTER INSERT OR UPDATE OR DELETE ON "${name}" FOR EACH ROW EXECUTE FUNCTION fuzz_count()`)
      else {
        for (const event of ["INSERT", "UPDATE", "DELETE"]) {
          yield* sql.unsafe(`CREATE TRIGGER fuzz_${name}_${event} AFTER ${event} ON "${name}" BEGIN UPDATE fuzz_changes SET n = n + 1; END`)
        }
      }
    }
  }))
  return () => runtime.runPromise(Effect.map(SqlClient.SqlClient.pipe(Effect.flatMap((sql) => sql<{ n: number | string }>`SELECT n FROM fuzz_changes`)), (rows) => Number(rows[0]!.n)))
}
