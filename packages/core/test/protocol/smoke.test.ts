import { afterAll, describe, expect, it } from "vitest"
import { createTestWorkspace, directClient, MemoryStorage, testAtrium } from "../../src/testing/index.js"

describe("slice", () => {
  const atrium = testAtrium(MemoryStorage)
  const client = directClient(atrium)
  afterAll(() => atrium.dispose())

  it("creates a workspace and lists documents", async () => {
    const creds = await createTestWorkspace(client)
    const added = await client.post("/v1/organizations/documents/add", { organizationId: "org1", documents: [{ documentId: "d1", documentName: "One" }] }, creds.headers)
    expect(added.status).toBe(200)
    const got = await client.post("/v2/organizations/documents/get", { organizationId: "org1" }, creds.headers)
    expect(got.body).toEqual({ result: { status: "success", message: "Document(s) retrieved successfully.", data: [{ documentName: "One", disabled: false, accessType: "public", id: "d1" }] } })
  })
})
