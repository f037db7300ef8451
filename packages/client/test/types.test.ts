/**
 * The client's types, checked by the compiler (`pnpm typecheck`, part of `pnpm test`): a wrong
 * input, an unknown method or a status the operation cannot answer is a compile error. The calls
 * sit in a function that never runs, so only their types are under test here; client.test.ts
 * makes them for real.
 */
import { describe, expectTypeOf, it } from "vitest"
import {
  type AtriumError,
  type CallStatus,
  createAtriumClient,
  type Document,
  type ErrorOf,
  type OrganizationsDocumentsGetResult,
  type Outcome,
  type WorkspaceDomainsAddV1Input
} from "../src/index.js"

const compileOnly = async () => {
  const client = createAtriumClient({ baseUrl: "http://localhost:8080", apiKey: "k", authToken: "t" })

  const outcome = await client.organizationsDocumentsGet({ organizationId: "acme", pageSize: 10 })
  if (outcome.error) {
    expectTypeOf(outcome.error.status).toEqualTypeOf<"INVALID_ARGUMENT" | "PERMISSION_DENIED" | "INTERNAL" | CallStatus>()
    expectTypeOf(outcome.result).toEqualTypeOf<undefined>()
    // @ts-expect-error documents/get never answers ALREADY_EXISTS, so this comparison cannot be true
    if (outcome.error.status === "ALREADY_EXISTS") return
  } else {
    expectTypeOf(outcome.result.data).toEqualTypeOf<ReadonlyArray<Document>>()
    expectTypeOf(outcome.result.pageToken).toEqualTypeOf<string | undefined>()
  }

  // @ts-expect-error organizationId is required
  await client.organizationsDocumentsGet({})
  // @ts-expect-error pageSize is a number
  await client.organizationsDocumentsGet({ organizationId: "acme", pageSize: "10" })
  // @ts-expect-error no such operation
  await client.organizationsDocumentsList({ organizationId: "acme" })

  // An operation whose input has no required key can be called without one.
  await client.workspaceGet()
  // The V1 path takes the same input as the newer one.
  const v1: WorkspaceDomainsAddV1Input = { domains: ["app.acme.example"] }
  await client.workspaceDomainsAddV1(v1)

  // Grouped by resource: the same methods, the same types.
  expectTypeOf(client.organizations.documents.get).toEqualTypeOf(client.organizationsDocumentsGet)
  expectTypeOf(client.v1.workspace.domains.add).toEqualTypeOf(client.workspaceDomainsAddV1)
  // A method whose path another extends carries that one too.
  expectTypeOf(client.users.data.delete.status).toEqualTypeOf(client.usersDataDeleteStatus)
  await client.users.data.delete({ userIds: ["u1"] })
  // @ts-expect-error no such resource
  await client.organizations.documents.list({ organizationId: "acme" })
  // @ts-expect-error organizationId is required
  await client.organizations.documents.get({})
}

describe("@atrium/client types", () => {
  it("name each outcome's result and error by operation", () => {
    expectTypeOf(compileOnly).toBeFunction()
    expectTypeOf<Outcome<"organizationsDocumentsGet">["result"]>().toEqualTypeOf<OrganizationsDocumentsGetResult | undefined>()
    expectTypeOf<ErrorOf<"workspaceCreate">>().toMatchTypeOf<AtriumError>()
    expectTypeOf<ErrorOf<"workspaceCreate">["status"]>().toEqualTypeOf<
      "INVALID_ARGUMENT" | "INTERNAL" | "ALREADY_EXISTS" | "RESOURCE_EXHAUSTED" | "PERMISSION_DENIED" | CallStatus
    >()
  })
})
