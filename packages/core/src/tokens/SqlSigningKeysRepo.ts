import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { allRows, firstRow, ignoreRows } from "../sql/MapRows.js"
import { bool, flag, type FlagColumn, fromJson, type IntegerColumn, type JsonColumn, num, toJson } from "../sql/Rows.js"
import { type SigningKeyRow, SigningKeysRepo } from "./SigningKeysRepo.js"
import { SecretBox, type SecretBoxShape } from "../crypto/SecretBox.js"

/** One `signing_keys` row as the drivers return it (column types: sql/Rows.ts). */
interface SigningKeySqlRow {
  readonly kid: string
  readonly alg: string
  readonly private_jwk: JsonColumn
  readonly public_jwk: JsonColumn
  readonly created_at: IntegerColumn
  readonly active: FlagColumn
}

const toRow = (box: SecretBoxShape) => (r: SigningKeySqlRow): SigningKeyRow => ({
  kid: r.kid,
  alg: r.alg,
  privateJwk: fromJson(box.open(r.private_jwk as string), {}),
  publicJwk: fromJson(r.public_jwk, {}),
  createdAt: num(r.created_at),
  active: bool(r.active)
})

export const SqlSigningKeysRepo = Layer.effect(
  SigningKeysRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const box = yield* SecretBox
    return {
      // The partial unique index on `active` (migration 0007) turns a second active key into a
      // conflict, so concurrent first starts of several servers keep exactly one.
      insertIfNoneActive: (k) =>
        sql`INSERT INTO signing_keys ${
          sql.insert({
            kid: k.kid,
            alg: k.alg,
            private_jwk: box.seal(toJson(k.privateJwk)),
            public_jwk: toJson(k.publicJwk),
            created_at: k.createdAt,
            active: flag(k.active)
          })
        } ON CONFLICT DO NOTHING`.pipe(ignoreRows),
      active: sql`SELECT * FROM signing_keys WHERE active = 1`.pipe(
        firstRow(toRow(box))
      ),
      list: sql`SELECT * FROM signing_keys ORDER BY created_at, kid`.pipe(allRows(toRow(box)))
    }
  })
)
