import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { AtriumConfig } from "../Config.js"
import { Ids } from "../ports/Ids.js"
import { invalidArgument } from "../protocol/ApiError.js"
import { Access } from "../protocol/Access.js"
import {
  generateSigningKey,
  jwks,
  normalizeExpiresAt,
  type SigningKey,
  signUserToken,
  TOKEN_ALGORITHM,
  type TokenResource
} from "./Jwt.js"
import { type SigningKeyRow, SigningKeysRepo } from "./SigningKeysRepo.js"
import { makeTokenVerification } from "./TokenVerification.js"
import type { GenerateTokenInput, GetTokenV1Input, TokenResourceInput } from "./TokenSchemas.js"

const toSigningKey = (row: SigningKeyRow): SigningKey => ({
  kid: row.kid,
  privateJwk: row.privateJwk,
  publicJwk: row.publicJwk,
  createdAt: row.createdAt
})

/** docs/decisions.md, "Product rulings": `accessRole` defaults to editor; `expiresAt` is stored in ms (whole ms). */
const toResource = (resource: typeof TokenResourceInput.Type): TokenResource => ({
  type: resource.type,
  id: resource.id,
  ...(resource.organizationId !== undefined && { organizationId: resource.organizationId }),
  accessRole: resource.accessRole ?? "editor",
  ...(resource.expiresAt !== undefined && { expiresAt: normalizeExpiresAt(resource.expiresAt) })
})

/** User access tokens (ES256 JWTs) and the public keys that verify them. */
export class Tokens extends Effect.Service<Tokens>()("@atrium/core/Tokens", {
  accessors: true,
  effect: Effect.gen(function*() {
    const repo = yield* SigningKeysRepo
    const ids = yield* Ids
    const config = yield* AtriumConfig
    const access = yield* Access
    // The active key never changes while a server runs, so it is read from storage once.
    let cached: SigningKey | undefined

    /**
     * The key new tokens are signed with, made at first use. Servers sharing a database may
     * each make one at the same moment: only the first stored stays, and all read it back.
     */
    const activeKey: Effect.Effect<SigningKey> = Effect.suspend(() =>
      cached !== undefined ? Effect.succeed(cached) : Effect.gen(function*() {
        let row = yield* repo.active
        if (row === undefined) {
          const kid = yield* ids.make("key")
          const now = yield* Clock.currentTimeMillis
          const key = yield* Effect.promise(() => generateSigningKey(kid, now))
          yield* repo.insertIfNoneActive({
            kid,
            alg: TOKEN_ALGORITHM,
            privateJwk: key.privateJwk,
            publicJwk: key.publicJwk,
            createdAt: now,
            active: true
          })
          row = yield* repo.active
          if (row === undefined) return yield* Effect.dieMessage("No active signing key after storing one.")
        }
        cached = toSigningKey(row)
        return cached
      })
    )

    const publicKeys = Effect.zipRight(activeKey, repo.list).pipe(Effect.map((rows) => jwks(rows.map(toSigningKey))))
    const verification = makeTokenVerification({ issuer: config.issuer, loadKeys: publicKeys })

    /** Spec: POST /v2/auth/generate_token. Claims per docs/decisions.md, "Product rulings"; `aud` is the calling API key. */
    const generate = (apiKey: string, input: typeof GenerateTokenInput.Type) =>
      Effect.gen(function*() {
        const key = yield* activeKey
        const now = yield* Clock.currentTimeMillis
        const jti = yield* ids.make()
        const { email, isAdmin, name } = input.userProperties
        const token = yield* Effect.promise(() =>
          signUserToken(key, {
            issuer: config.issuer,
            userId: input.userId,
            audience: apiKey,
            issuedAtSeconds: Math.floor(now / 1000),
            ...(input.expiresInSeconds !== undefined && { lifetimeSeconds: input.expiresInSeconds }),
            jti,
            user: { userId: input.userId, name, email, isAdmin: isAdmin ?? false },
            permissions: { resources: input.permissions.resources.map(toResource) }
          })
        )
        return { token }
      })

    return {
      generate,

      /**
       * v1 auth/token/get (compatibility facts §1.1): the key's credentials come in the body, checked as the
       * headers' are; credentials that do not match are the hosted answer, INVALID_ARGUMENT "Auth token not
       * found.", whichever of the two is wrong. The token grants the user's organization (generate_token's
       * `organization` resource) and carries `name` (the user id when omitted).
       */
      generateV1: (input: typeof GetTokenV1Input.Type, ip: string) =>
        Effect.gen(function*() {
          yield* Effect.catchTag(access.apiKeyCaller(input.apiKey, input.authToken, ip), "ApiError", () => invalidArgument("Auth token not found."))
          const { email, isAdmin, name, organizationId } = input.userProperties
          return yield* generate(input.apiKey, {
            userId: input.userId,
            userProperties: { name: name ?? input.userId, email, ...(isAdmin !== undefined && { isAdmin }) },
            permissions: { resources: [{ type: "organization", id: organizationId }] }
          })
        }),

      /** `GET /.well-known/jwks.json`: the public half of every stored key (made at first use, like for signing). */
      jwks: publicKeys,

      /**
       * A user's token, as the client API takes it: its payload, or UNAUTHENTICATED ("Invalid
       * token.", or "Token expired." with `details.reason: "token_expired"`). Each token is
       * verified once and kept until it expires (TokenVerification.ts).
       */
      verify: verification.verify
    }
  })
}) {}
