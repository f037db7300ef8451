import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { defineDomain } from "../Domain.js"
import { UserTokens } from "../protocol/UserTokens.js"
import { clientSessionOperations } from "./clientOperations.js"
import { tokenOperations } from "./operations.js"
import { SqlSigningKeysRepo } from "./SqlSigningKeysRepo.js"
import { Tokens } from "./Tokens.js"

/** User access tokens (JWT) and the keys that sign them. */
export const tokensDomain = defineDomain({
  name: "tokens",
  operations: [...tokenOperations, ...clientSessionOperations],
  // Shared: the client API's dispatcher (UserTokens) and the access domain verify users' tokens through it.
  shared: [Layer.effect(UserTokens, Effect.map(Tokens, (tokens) => ({ verify: tokens.verify }))).pipe(Layer.provideMerge(Tokens.Default))],
  services: [],
  repositories: [SqlSigningKeysRepo],
  otherTables: [{ name: "signing_keys", why: "the server's keys that sign users' tokens" }],
  tags: [
    { name: "auth", description: "User access tokens (JWT) with per-resource permissions." },
    { name: "client", description: "The client API: a product's users call these from their browsers with the token generate_token issued (Authorization: Bearer), as themselves, limited to what the access rule lets them see." }
  ]
})
