import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { JWK } from "jose"

/**
 * A token signing key. Keys are server-wide, not per API key: every server on one
 * database signs with the same active key and publishes every stored key in the JWKS.
 */
export interface SigningKeyRow {
  readonly kid: string
  readonly alg: string
  /** Never leaves the server. */
  readonly privateJwk: JWK
  readonly publicJwk: JWK
  readonly createdAt: number
  /** At most one key is active: the one new tokens are signed with. */
  readonly active: boolean
}

/** Storage port: token signing keys. */
export class SigningKeysRepo extends Context.Tag("@atrium/core/SigningKeysRepo")<SigningKeysRepo, {
  /** Stores `row` as the active key unless a key is active already (the first writer wins). */
  readonly insertIfNoneActive: (row: SigningKeyRow) => Effect.Effect<void>
  readonly active: Effect.Effect<SigningKeyRow | undefined>
  /** Every stored key, oldest first (the JWKS keeps rotated-out keys so their tokens still verify). */
  readonly list: Effect.Effect<ReadonlyArray<SigningKeyRow>>
}>() {}
