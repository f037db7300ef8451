import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ServerSecretsRepo } from "./ServerSecretsRepo.js"
import { SecretBox } from "../crypto/SecretBox.js"

export const SqlServerSecretsRepo = Layer.effect(
  ServerSecretsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const box = yield* SecretBox
    return {
      getOrCreate: (name, candidate) =>
        sql`INSERT INTO server_secrets (name, value) VALUES (${name}, ${box.seal(candidate)}) ON CONFLICT (name) DO NOTHING`.pipe(
          Effect.zipRight(sql`SELECT value FROM server_secrets WHERE name = ${name}`),
          Effect.map((rows) => box.open(rows[0]!.value as string)),
          Effect.orDie
        )
    }
  })
)
