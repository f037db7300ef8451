import * as Effect from "effect/Effect"
import { describe, expect, it } from "vitest"
import { forEachBackend } from "../../../../test-support/backends.js"
import { PUBLIC_CREATE_OFF, Workspaces } from "../../src/workspace/Workspaces.js"

forEachBackend("workspace", (ctx) => {
  describe("workspace/create (public)", () => {
    it("creates a workspace with one testing key, and shows its secrets once", async () => {
      const { client } = ctx()
      const answer = await client.post("/v2/workspace/create", { ownerEmail: "jane.doe@example.com", name: "Jane", workspaceName: "Jane's space", avatar: "https://example.com/a.png" })
      expect(answer.status).toBe(200)
      const { data, message, status } = answer.body.result
      expect({ status, message }).toEqual({ status: "success", message: "Workspace created successfully" })
      expect(data).toMatchObject({
        name: "Jane's space",
        owner: { email: "jane.doe@example.com", name: "Jane", avatar: "https://example.com/a.png" },
        authToken: expect.stringMatching(/^[A-Za-z0-9]{32}$/)
      })
      expect(data.id).toMatch(/^ws_/)
      const keys = Object.entries(data.apiKeyList) as Array<[string, any]>
      expect(keys).toHaveLength(1)
      expect(keys[0]![1]).toEqual({ id: keys[0]![0], apiKeyName: "Jane.doe Test API Key", type: "testing", authToken: expect.stringMatching(/^[A-Za-z0-9]{32}$/) })
      // workspace/get shows the same workspace without secrets.
      const got = await client.post("/v2/workspace/get", {}, { "x-service-workspace-id": data.id, "x-service-workspace-auth-token": data.authToken })
      expect(got.body.result.message).toBe("Workspace retrieved successfully.")
      expect(got.body.result.data).toEqual({ ...data, authToken: undefined, apiKeyList: { [keys[0]![0]]: { id: keys[0]![0], apiKeyName: "Jane.doe Test API Key", type: "testing" } } })
      expect(got.text).not.toContain(data.authToken)
    })

    it("defaults the names from the email", async () => {
      const { client } = ctx()
      const answer = await client.post("/v2/workspace/create", { ownerEmail: "solo@example.com" })
      expect(answer.body.result.data).toMatchObject({ name: "solo@example.com workspace", owner: { name: "solo@example.com", avatar: null } })
    })

    it("refuses a second workspace for one email, a disposable email, and bad fields", async () => {
      const { client } = ctx()
      await client.post("/v2/workspace/create", { ownerEmail: "twice@example.com" })
      const again = await client.post("/v2/workspace/create", { ownerEmail: "twice@example.com" })
      expect(again.status).toBe(409)
      expect(again.body.error).toEqual({ status: "ALREADY_EXISTS", message: "A workspace already exists for this email address" })
      const disposable = await client.post("/v2/workspace/create", { ownerEmail: "x@mailinator.com" })
      expect(disposable.body.error).toEqual({ status: "INVALID_ARGUMENT", message: "This email domain is not supported." })
      for (const [data, field] of [
        [{}, "data.ownerEmail"],
        [{ ownerEmail: "not-an-email" }, "data.ownerEmail"],
        [{ ownerEmail: "a@example.com", name: "" }, "data.name"],
        [{ ownerEmail: "a@example.com", name: "n".repeat(201) }, "data.name"],
        [{ ownerEmail: "a@example.com", workspaceName: "w".repeat(201) }, "data.workspaceName"],
        [{ ownerEmail: "a@example.com", avatar: "not a url" }, "data.avatar"]
      ] as const) {
        const answer = await client.post("/v2/workspace/create", data)
        expect(answer.status, JSON.stringify(data)).toBe(400)
        expect(answer.body.error.message).toContain(field)
      }
      expect((await client.post("/v2/workspace/create", { ownerEmail: "b@example.com", name: "n".repeat(200), workspaceName: "w".repeat(200) })).status).toBe(200)
    })
  })

  describe("one workspace per email", () => {
    it("refuses a second workspace for the email in another case, also when both are created at once", async () => {
      const { client } = ctx()
      const create = (ownerEmail: string) => client.post("/v2/workspace/create", { ownerEmail })
      expect((await create("Case.Owner@Example.com")).status).toBe(200)
      for (const email of ["case.owner@example.com", "CASE.OWNER@EXAMPLE.COM"]) {
        const again = await create(email)
        expect(again.status, email).toBe(409)
        expect(again.body.error).toEqual({ status: "ALREADY_EXISTS", message: "A workspace already exists for this email address" })
      }
      // Released together one wins, whatever the case. Through the operator's path, which has no
      // rate limit to space them out, PostgreSQL runs them side by side.
      const { atrium } = ctx()
      const racing = await Promise.all(Array.from({ length: 12 }, (_, i) =>
        atrium.runtime.runPromise(Effect.either(Workspaces.create({ ownerEmail: i % 2 === 0 ? "race@example.com" : "RACE@Example.com" }, undefined)))))
      expect(racing.map((result) => result._tag === "Right" ? "created" : result.left.status).sort())
        .toEqual(["ALREADY_EXISTS", ...Array(10).fill("ALREADY_EXISTS"), "created"])
      const overHttp = await Promise.all(Array.from({ length: 4 }, (_, i) => create(i % 2 === 0 ? "race2@example.com" : "RACE2@example.com")))
      expect(overHttp.map((answer) => answer.status).sort()).toEqual([200, 409, 409, 409])
      // Letters beyond A-Z are compared as they are (docs/decisions.md, "Workspaces, API keys, tokens").
      expect((await create("élan@example.com")).status).toBe(200)
      expect((await create("Élan@example.com")).status).toBe(200)
    })
  })

  describe("parameterless operations", () => {
    const parameterless = ["/v2/workspace/get", "/v2/workspace/domains/get", "/v2/workspace/notificationconfig/get", "/v2/workspace/emailconfig/get", "/v2/workspace/permissionproviderconfig/get", "/v2/workspace/advancedwebhookconfig/get", "/v2/workspace/apikeyconfig/get", "/v2/workspace/activityconfig/get", "/v2/workspace/webhookconfig/get"]
    // Not a workspace operation, but the other parameterless one: the OpenAPI check below sees every path.
    const parameterlessElsewhere = ["/v2/client/session/get"]

    it("refuse any key in data, as every operation refuses unknown keys", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      for (const path of parameterless) {
        const headers = path === "/v2/workspace/get" ? creds.workspaceHeaders : creds.headers
        expect((await client.post(path, {}, headers)).status, path).toBe(200)
        const answer = await client.post(path, { apiKey: creds.apiKey, extra: 1 }, headers)
        expect(answer.status, path).toBe(400)
        expect(answer.body.error).toEqual({
          status: "INVALID_ARGUMENT",
          message: "Invalid data.apiKey: is not a known parameter",
          details: { issues: [{ path: ["data", "apiKey"], message: "is not a known parameter" }, { path: ["data", "extra"], message: "is not a known parameter" }] }
        })
      }
    })

    it("are typed in the OpenAPI document as data with no properties, not as object-or-array", async () => {
      const document = (await ctx().client.raw({ method: "GET", path: "/openapi.json" })).body
      for (const path of [...parameterless, ...parameterlessElsewhere]) {
        const schema = document.paths[path].post.requestBody.content["application/json"].schema
        expect(schema.properties.data, path).toEqual({ type: "object", required: [], properties: {}, additionalProperties: false })
      }
      // Exactly these: no other operation's data is a bare object.
      const bare = Object.entries<any>(document.paths)
        .filter(([, item]) => Object.keys(item.post.requestBody.content["application/json"].schema.properties.data.properties ?? {}).length === 0)
        .map(([path]) => path)
      expect(bare.sort()).toEqual([...parameterless, ...parameterlessElsewhere].sort())
    })
  })

  describe("API keys", () => {
    // Issue 21 found apikey/create taking any ownerEmail; its schema had Email already, untested.
    it("refuses an ownerEmail that is not an email", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      for (const ownerEmail of ["not-an-email", "a b@example.com", "a@b", "", `${"a".repeat(320)}@example.com`]) {
        const answer = await client.post("/v2/workspace/apikey/create", { ownerEmail, type: "testing" }, creds.workspaceHeaders)
        expect(answer.status, ownerEmail).toBe(400)
        expect(answer.body.error.message).toMatch(/^Invalid data\.ownerEmail: must be (a valid email address|at most 320 characters)$/)
      }
    })

    it("creates keys, lists them a page at a time, and renames them", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const created = await client.post("/v2/workspace/apikey/create", { ownerEmail: "ops@example.com", type: "production", apiKeyName: "Prod" }, creds.workspaceHeaders)
      expect(created.body.result).toMatchObject({ status: "success", message: "API key created successfully.", data: { apiKey: expect.stringMatching(/^atr_/), authToken: expect.any(String) } })
      const prod = created.body.result.data
      // The new key works with its token.
      const asProd = { "x-service-api-key": prod.apiKey, "x-service-auth-token": prod.authToken }
      expect((await client.post("/v2/organizations/documents/get", { organizationId: "o" }, asProd)).status).toBe(200)
      const tokenless = await client.post("/v2/workspace/apikey/create", { ownerEmail: "ops@example.com", type: "testing", createAuthToken: false }, creds.workspaceHeaders)
      expect(tokenless.body.result.data).toEqual({ apiKey: expect.any(String) })

      const seen: Array<string> = []
      let pageToken: string | undefined
      let pages = 0
      do {
        const page = await client.post("/v2/workspace/apikeys/get", { pageSize: 2, ...(pageToken && { pageToken }) }, creds.workspaceHeaders)
        expect(page.body.result.message).toBe("API keys retrieved successfully.")
        seen.push(...page.body.result.data.map((k: { id: string }) => k.id))
        pageToken = page.body.result.nextPageToken
        pages++
      } while (pageToken && pages < 10)
      expect(pages).toBe(2)
      expect(seen.sort()).toEqual([creds.apiKey, prod.apiKey, tokenless.body.result.data.apiKey].sort())

      const renamed = await client.post("/v2/workspace/apikey/update", { apiKey: prod.apiKey, apiKeyName: "Production" }, creds.workspaceHeaders)
      expect(renamed.body).toEqual({ result: { status: "success", message: "API key updated successfully.", data: null } })
      const only = await client.post("/v2/workspace/apikeys/get", { apiKeys: [prod.apiKey] }, creds.workspaceHeaders)
      expect(only.body.result.data).toEqual([{ id: prod.apiKey, apiKeyName: "Production", type: "production" }])
    })

    it("answers NOT_FOUND for an unknown key or another workspace's key", async () => {
      const { client, workspace } = ctx()
      const mine = await workspace()
      const theirs = await workspace()
      for (const apiKey of ["atr_nope", theirs.apiKey]) {
        const answer = await client.post("/v2/workspace/apikey/update", { apiKey, apiKeyName: "x" }, mine.workspaceHeaders)
        expect(answer.status).toBe(404)
        expect(answer.body.error).toEqual({ status: "NOT_FOUND", message: "API key not found." })
        expect((await client.post("/v2/workspace/authtokens/get", { apiKey }, mine.workspaceHeaders)).body.error.status).toBe("NOT_FOUND")
        expect((await client.post("/v2/workspace/authtoken/reset", { apiKey }, mine.workspaceHeaders)).body.error.status).toBe("NOT_FOUND")
      }
      // Their key still works: nothing was reset.
      expect((await client.post("/v2/organizations/documents/get", { organizationId: "o" }, theirs.headers)).status).toBe(200)
      const listed = await client.post("/v2/workspace/apikeys/get", { apiKeys: [theirs.apiKey] }, mine.workspaceHeaders)
      expect(listed.body.result.data).toEqual([])
    })

    it("checks the limits of apikey/update, apikey/create and apikeys/get", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const bad = [
        ["/v2/workspace/apikey/update", { apiKey: creds.apiKey }, "data.apiKeyName"],
        ["/v2/workspace/apikey/update", { apiKey: creds.apiKey, apiKeyName: "" }, "data.apiKeyName"],
        ["/v2/workspace/apikey/update", { apiKey: creds.apiKey, apiKeyName: "n".repeat(201) }, "data.apiKeyName"],
        ["/v2/workspace/apikey/create", { ownerEmail: "o@example.com", type: "staging" }, "data.type"],
        ["/v2/workspace/apikey/create", { type: "testing" }, "data.ownerEmail"],
        ["/v2/workspace/apikeys/get", { pageSize: 101 }, "data.pageSize"],
        ["/v2/workspace/apikeys/get", { pageSize: 0 }, "data.pageSize"],
        ["/v2/workspace/apikeys/get", { pageToken: "garbage" }, "pageToken"]
      ] as const
      for (const [path, data, field] of bad) {
        const answer = await client.post(path, data, creds.workspaceHeaders)
        expect(answer.status, `${path} ${JSON.stringify(data)}`).toBe(400)
        expect(answer.body.error.message).toContain(field)
      }
      expect((await client.post("/v2/workspace/apikey/update", { apiKey: creds.apiKey, apiKeyName: "n".repeat(200) }, creds.workspaceHeaders)).status).toBe(200)
      expect((await client.post("/v2/workspace/apikeys/get", { pageSize: 100 }, creds.workspaceHeaders)).status).toBe(200)
    })
  })

  describe("auth tokens", () => {
    it("lists tokens masked, and a reset replaces them with a new one shown once", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const listed = await client.post("/v2/workspace/authtokens/get", { apiKey: creds.apiKey }, creds.workspaceHeaders)
      expect(listed.body.result.data).toEqual({
        apiKey: creds.apiKey,
        authTokens: [{ token: `…${creds.authToken.slice(-4)}`, name: "Default Auth Token", domains: [] }]
      })
      expect(listed.text).not.toContain(creds.authToken)
      const reset = await client.post("/v2/workspace/authtoken/reset", { apiKey: creds.apiKey }, creds.workspaceHeaders)
      const fresh = reset.body.result.data.newAuthToken
      expect(reset.body.result).toMatchObject({ message: "Auth token reset successfully.", data: { apiKey: creds.apiKey } })
      expect(fresh).toEqual({ token: expect.stringMatching(/^[A-Za-z0-9]{32}$/), name: "Default Auth Token", domains: [] })
      const after = await client.post("/v2/workspace/authtokens/get", { apiKey: creds.apiKey }, creds.workspaceHeaders)
      expect(after.body.result.data.authTokens).toEqual([{ token: `…${fresh.token.slice(-4)}`, name: "Default Auth Token", domains: [] }])
      expect((await client.post("/v2/organizations/documents/get", { organizationId: "o" }, creds.headers)).status).toBe(403)
    })
  })
})

forEachBackend("workspace/create turned off (publicWorkspaceCreate: false)", (ctx) => {
  it("refuses workspace/create over the API with PERMISSION_DENIED, while the operator's path still creates", async () => {
    const { atrium, client } = ctx()
    const refused = await client.post("/v2/workspace/create", { ownerEmail: "someone@example.com" })
    expect(refused.status).toBe(403)
    expect(refused.body).toEqual({ error: { status: "PERMISSION_DENIED", message: PUBLIC_CREATE_OFF } })
    // `atrium workspace create` calls the service with no client address.
    const created = await atrium.runtime.runPromise(Workspaces.create({ ownerEmail: "operator@example.com" }, undefined))
    expect(created.owner.email).toBe("operator@example.com")
    const listed = await client.post("/v2/workspace/get", {}, { "x-service-workspace-id": created.id, "x-service-workspace-auth-token": created.authToken! })
    expect(listed.status).toBe(200)
  })
}, { options: { publicWorkspaceCreate: false } })
