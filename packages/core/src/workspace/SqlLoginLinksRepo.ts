import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ignoreRows } from "../sql/MapRows.js"
import { LoginLinksRepo } from "./LoginLinksRepo.js"

export const SqlLoginLinksRepo = Layer.effect(
  LoginLinksRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      insert: (row) =>
        sql`INSERT INTO login_links ${
          sql.insert({ token_hash: row.tokenHash, email: row.email, created_at: row.createdAt, expires_at: row.expiresAt })
        }`.pipe(ignoreRows),
      deleteExpired: (now) => sql`DELETE FROM login_links WHERE expires_at <= ${now}`.pipe(ignoreRows)
    }
  })
)
