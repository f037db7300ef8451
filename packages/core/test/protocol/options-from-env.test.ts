/**
 * optionsFromEnv(): an embedded Atrium takes the server's ATRIUM_* variables (issue 27: it
 * ignored them all). The same reading as `atrium serve`'s (packages/server/test/env.test.ts
 * compares the two); here, that the options act, and that a bad value is named.
 */
import { createAtrium, optionsFromEnv } from "@atrium/core"
import { afterEach, describe, expect, it } from "vitest"
import { directClient, MemoryStorage } from "../../src/testing/index.js"

describe("optionsFromEnv", () => {
  const saved = { ...process.env }
  afterEach(() => {
    process.env = { ...saved }
  })

  it("gives an embedded Atrium the server's variables: the credential headers' prefix and the body limit act", async () => {
    const atrium = createAtrium({ storage: MemoryStorage, options: optionsFromEnv({ ATRIUM_HEADER_PREFIX: "x-velt", ATRIUM_MAX_BODY_BYTES: "2048" }) })
    try {
      const client = directClient(atrium)
      const created = await client.post("/v2/workspace/create", { ownerEmail: "env@example.com" })
      const [apiKey, { authToken }] = Object.entries(created.body.result.data.apiKeyList)[0] as [string, { authToken: string }]
      const listed = await client.post("/v2/organizations/documents/get", { organizationId: "o" }, { "x-velt-api-key": apiKey, "x-velt-auth-token": authToken })
      expect(listed.status).toBe(200)
      const withDefaultNames = await client.post("/v2/organizations/documents/get", { organizationId: "o" }, { "x-service-api-key": apiKey, "x-service-auth-token": authToken })
      expect(withDefaultNames.status).toBe(403)
      const large = await client.post("/v2/organizations/add", { organizations: [{ organizationId: "o", organizationName: "x".repeat(3000) }] }, {
        "x-velt-api-key": apiKey,
        "x-velt-auth-token": authToken
      })
      expect(large.status).toBe(400)
      expect(large.body.error.message).toBe("Request body is larger than 2048 bytes.")
    } finally {
      await atrium.dispose()
    }
  })

  it("reads this process's variables by default, an empty one counting as unset", () => {
    process.env["ATRIUM_ISSUER"] = "acme-collab"
    process.env["ATRIUM_CONSOLE_DOMAIN"] = ""
    expect(optionsFromEnv()).toMatchObject({ issuer: "acme-collab" })
    expect(optionsFromEnv()).not.toHaveProperty("consoleDomain")
  })

  it("refuses values it cannot use, naming every such variable in one error", () => {
    expect(() => optionsFromEnv({ ATRIUM_MAX_BODY_BYTES: "lots", ATRIUM_STRICT_STATUSES: "maybe", ATRIUM_ENCRYPTION_KEY: "short" })).toThrow(
      /ATRIUM_MAX_BODY_BYTES must be a non-negative integer, got "lots".*ATRIUM_STRICT_STATUSES must be 1, true, 0 or false, got "maybe".*ATRIUM_ENCRYPTION_KEY must be at least 32 characters/
    )
  })
})
