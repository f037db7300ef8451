import * as Effect from "effect/Effect"
import type { VerifiedToken } from "../tokens/Jwt.js"
import type { TokenRefusal } from "../tokens/TokenVerification.js"
import { Tokens } from "../tokens/Tokens.js"
import { DocumentAccess, type ResourceAccess } from "./DocumentAccess.js"
import type { PermissionSource } from "./PermissionProvider.js"

/** A user's token and the document it is shown for. */
export interface TokenQuestion {
  /** The token `generate_token` issued (the `Authorization: Bearer` value, without the scheme). */
  readonly token: string
  readonly organizationId: string
  readonly documentId: string
  readonly source?: PermissionSource
}

export interface TokenAnswer {
  /** Who the token says the user is, and for which API key. */
  readonly token: VerifiedToken
  readonly access: ResourceAccess
}

/**
 * For a host that guards its own routes with Atrium's tokens: the token verified (once, then
 * kept until it expires) and the access rule asked for its user and the document, in one call,
 * the way the client API does it (docs/access.md, "What hosts call").
 */
export class TokenAccess extends Effect.Service<TokenAccess>()("@atrium/core/TokenAccess", {
  accessors: true,
  effect: Effect.gen(function*() {
    const tokens = yield* Tokens
    const access = yield* DocumentAccess
    return {
      /** UNAUTHENTICATED for a token this Atrium did not issue, or one that expired; else the decision (which may be no access). */
      check: (question: TokenQuestion): Effect.Effect<TokenAnswer, TokenRefusal> =>
        Effect.flatMap(tokens.verify(question.token), (token) =>
          Effect.map(
            access.check({
              apiKey: token.apiKey,
              userId: token.userId,
              organizationId: question.organizationId,
              documentId: question.documentId,
              tokenResources: token.permissions.resources,
              ...(question.source !== undefined && { source: question.source })
            }),
            (decision) => ({ token, access: decision })
          ))
    }
  })
}) {}
