import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type * as Runtime from "effect/Runtime"
import { invalidToken } from "../tokens/TokenVerification.js"
import { Access } from "./Access.js"
import type { ApiError } from "./ApiError.js"
import { AllowedOrigins, originAdmitted, originNotOfApiKey } from "./Cors.js"
import type { UserCaller } from "./Operation.js"
import { UserTokens } from "./UserTokens.js"

/** Where a user's token came from: a browser page's `Origin` and the `Host` it called, and the client's address. */
export interface TokenSource {
  readonly origin: string | undefined
  readonly host: string | undefined
  readonly ip: string | undefined
}

/**
 * The user a token stands for, as the client API and realtime both accept it: verified (kept until
 * it expires), its API key still there, and a browser's page at an origin that key's allowed
 * domains admit (Cors.ts). Refusals are the spec's ("Invalid token.", "Token expired.", the origin's).
 */
export const makeUserAuthentication = (runtime: Runtime.Runtime<Access | UserTokens | AllowedOrigins>) => {
  const access = Context.get(runtime.context, Access)
  const userTokens = Context.get(runtime.context, UserTokens)
  const origins = Context.get(runtime.context, AllowedOrigins)
  const keyGone = invalidToken()
  return (token: string, source: TokenSource): Effect.Effect<UserCaller, ApiError> =>
    Effect.flatMap(userTokens.verify(token), (verified) =>
      Effect.flatMap(access.apiKeyExists(verified.apiKey), (exists): Effect.Effect<UserCaller, ApiError> => {
        if (!exists) return Effect.fail(keyGone)
        const caller: UserCaller = {
          mode: "user",
          apiKey: verified.apiKey,
          userId: verified.userId,
          user: verified.user,
          tokenResources: verified.permissions.resources,
          expiresAt: verified.expiresAt * 1000,
          ip: source.ip ?? ""
        }
        const { origin } = source
        if (origin === undefined) return Effect.succeed(caller) // not from a browser page: nothing to admit
        return Effect.flatMap(
          originAdmitted(origins, verified.apiKey, origin, source.host),
          (admitted) => admitted ? Effect.succeed(caller) : Effect.fail(originNotOfApiKey(origin))
        )
      }))
}
