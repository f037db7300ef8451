import * as Effect from "effect/Effect"
import { answer } from "../protocol/Envelope.js"
import { defineOperation } from "../protocol/Operation.js"
import { GenerateTokenInput, GenerateTokenResult, GetTokenV1Input } from "./TokenSchemas.js"
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
  }),
  defineOperation({
    name: "auth.token.get.v1",
    paths: ["/v1/auth/token/get"],
    auth: "public",
    summary: "Issue a user access token (the legacy call): the API key and its auth token in the body, no auth headers; the token grants the user's organization.",
    input: GetTokenV1Input,
    output: GenerateTokenResult,
    errors: ["INVALID_ARGUMENT"],
    service: Tokens,
    handler: (tokens, input, caller) => Effect.map(tokens.generateV1(input, caller.ip), answer("Token generated successfully."))
  })
] as const
