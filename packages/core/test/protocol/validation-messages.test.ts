/**
 * What a refused body says (docs/decisions.md, "Product rulings": the message names the first
 * offending field): where a field allows one of several values, the message names every one of
 * them, not the first member of the union only (issue 27); one mistake is one issue.
 */
import { afterAll, describe, expect, it } from "vitest"
import { createTestWorkspace, directClient, MemoryStorage, testAtrium } from "../../src/testing/index.js"

describe("validation messages", () => {
  const atrium = testAtrium(MemoryStorage)
  const client = directClient(atrium)
  afterAll(() => atrium.dispose())

  it("names every allowed value of a field that takes one of several", async () => {
    const creds = await createTestWorkspace(client)
    const answer = await client.post("/v2/organizations/folders/add", {
      organizationId: "org",
      createOrganization: true,
      folders: [{ folderId: "f", accessType: "secret" }]
    }, creds.headers)
    expect(answer.status).toBe(400)
    expect(answer.body.error.status).toBe("INVALID_ARGUMENT")
    expect(answer.body.error.message).toBe(
      `Invalid data.folders[0].accessType: Expected "public" | "restricted" | "organizationPrivate", actual "secret"`
    )
    expect(answer.body.error.details.issues).toEqual([{
      path: ["data", "folders", 0, "accessType"],
      message: `Expected "public" | "restricted" | "organizationPrivate", actual "secret"`
    }])
  })

  it("says an unknown parameter once, however many shapes the field may take", async () => {
    const creds = await createTestWorkspace(client)
    const answer = await client.post("/v2/organizations/folders/add", {
      organizationId: "org",
      createOrganization: true,
      folders: [{ folderId: "f", colour: "red" }]
    }, creds.headers)
    expect(answer.status).toBe(400)
    expect(answer.body.error.details.issues).toEqual([{ path: ["data", "folders", 0, "colour"], message: "is not a known parameter" }])
  })
})
