import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { answer, SuccessResult } from "../protocol/Envelope.js"
import { defineOperation } from "../protocol/Operation.js"
import { NoParameters } from "../schema/Common.js"
import { Tokens } from "./Tokens.js"

export const SessionResult = SuccessResult(Schema.Struct({
  user: Schema.Struct({ userId: Schema.String, name: Schema.String, email: Schema.String, isAdmin: Schema.Boolean }),
  /** When the token expires, epoch ms. */
  expiresAt: Schema.Number
}))

/** The client API's session: who the token says the user is, and until when. */
export const clientSessionOperations = [
  defineOperation({
    name: "client.session.get",
    paths: ["/v2/client/session/get"],
    auth: "user",
    summary: "The acting user (from the token) and when the token expires (ms).",
    input: NoParameters,
    output: SessionResult,
    service: Tokens,
    handler: (_tokens, _input, caller) => Effect.succeed(answer("Session retrieved successfully.")({ user: caller.user, expiresAt: caller.expiresAt }))
  })
] as const
