import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { answer, SuccessResult } from "../protocol/Envelope.js"
import { defineOperation } from "../protocol/Operation.js"
import { Tokens } from "./Tokens.js"

/** client session/get: nothing to ask (spec client-api.md, "Operations"). */
export const SessionInput = Schema.Struct({})

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
    input: SessionInput,
    output: SessionResult,
    service: Tokens,
    handler: (_tokens, _input, caller) => Effect.succeed(answer("Session retrieved successfully.")({ user: caller.user, expiresAt: caller.expiresAt }))
  })
] as const
