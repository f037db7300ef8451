import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { TokenRefusal } from "../tokens/TokenVerification.js"
import type { VerifiedToken } from "../tokens/Jwt.js"

/**
 * The request path's view of users' tokens (the client API's authentication): verify one, or be
 * refused as the spec words it. Provided by the tokens domain (Tokens.verify), which keeps each
 * verified token until it expires.
 */
export class UserTokens extends Context.Tag("@atrium/core/UserTokens")<UserTokens, {
  readonly verify: (token: string) => Effect.Effect<VerifiedToken, TokenRefusal>
}>() {}
