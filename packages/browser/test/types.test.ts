/**
 * The SDK's types, checked by the compiler (`pnpm typecheck`, part of `pnpm test`): a wrong input,
 * an operation outside the client API or a status the operation cannot answer is a compile error.
 * The calls sit in a function that never runs; client.test.ts makes them for real.
 */
import { describe, expectTypeOf, it } from "vitest"
import {
  type AccessGetResult,
  type AtriumError,
  type CallStatus,
  createClient,
  type ErrorOf,
  type Outcome,
  type SessionGetResult
} from "../src/index.js"

const compileOnly = async () => {
  const atrium = createClient({ baseUrl: "https://collab.example", getToken: async () => "token" })
  createClient({ baseUrl: new URL("https://collab.example"), getToken: () => "token" })
  // @ts-expect-error getToken is required: the SDK has no other way to a token
  createClient({ baseUrl: "https://collab.example" })

  const outcome = await atrium.accessGet({ organizationId: "acme", documentIds: ["spec-42"] })
  if (outcome.error) {
    expectTypeOf(outcome.error.status).toEqualTypeOf<"INVALID_ARGUMENT" | "UNAUTHENTICATED" | "PERMISSION_DENIED" | "INTERNAL" | CallStatus>()
    // @ts-expect-error access/get never answers ALREADY_EXISTS, so this comparison cannot be true
    if (outcome.error.status === "ALREADY_EXISTS") return
  } else {
    expectTypeOf(outcome.result.data["spec-42"]!.accessRole).toEqualTypeOf<"editor" | "viewer" | null>()
  }

  // session/get takes no input.
  await atrium.sessionGet()
  // @ts-expect-error documentIds is required
  await atrium.accessGet({ organizationId: "acme" })
  // @ts-expect-error documentId is a string
  await atrium.presenceGet({ organizationId: "acme", documentId: 42 })
  // @ts-expect-error the server API is not the SDK's: API keys stay on the host's backend
  await atrium.organizationsGet({})
}

describe("@atrium/browser types", () => {
  it("name each outcome's result and error by operation", () => {
    expectTypeOf(compileOnly).toBeFunction()
    expectTypeOf<Outcome<"sessionGet">["result"]>().toEqualTypeOf<SessionGetResult | undefined>()
    expectTypeOf<Outcome<"accessGet">["result"]>().toEqualTypeOf<AccessGetResult | undefined>()
    expectTypeOf<ErrorOf<"presenceGet">>().toMatchTypeOf<AtriumError>()
  })
})
