import * as Effect from "effect/Effect"
import { answer } from "../protocol/Envelope.js"
import { defineOperation } from "../protocol/Operation.js"
import { GenerateTokenInput, GenerateTokenResult } from "./TokenSchemas.js"
import { Tokens } from "./Tokens.js"

export const tokenOperations = [
  defineOperation({
    name: "auth.generate_token",
    paths: ["/v2/auth/generate_token"],
    auth: "apiKey",
    summary: "Issue a user access token (ES256 JWT, 48 hours) carrying the user and per-resource permissions.",
    input: GenerateTokenInput,
    output: GenerateTokenResult,
    service: Tokens,
    handler: (tokens, input, caller) =>
      Effect.map(tokens.generate(caller.apiKey, input), answer("Token generated successfully."))
  })
] as const
