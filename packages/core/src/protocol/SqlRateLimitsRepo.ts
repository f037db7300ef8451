import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { mapRows } from "../sql/MapRows.js"
import { type IntegerColumn, num } from "../sql/Rows.js"
import { RateLimitsRepo } from "./RateLimitsRepo.js"

export const SqlRateLimitsRepo = Layer.effect(
  RateLimitsRepo,
  Effect.map(SqlClient.SqlClient, (sql) => ({
    hit: (key, windowStart) =>
      sql`INSERT INTO rate_limits (key, window_start, hits) VALUES (${key}, ${windowStart}, 1)
        ON CONFLICT (key) DO UPDATE SET
          hits = CASE WHEN rate_limits.window_start = excluded.window_start THEN rate_limits.hits + 1 ELSE 1 END,
          window_start = excluded.window_start
        RETURNING hits`.pipe(mapRows((rows: ReadonlyArray<{ readonly hits: IntegerColumn }>) => num(rows[0]!.hits)))
  }))
)
