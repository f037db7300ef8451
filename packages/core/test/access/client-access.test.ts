/**
 * The client API's authentication and its first operations (spec client-api.md, "Conventions" and
 * "Access"; issue 24): a user calls with the token generate_token issued, as that user, inside the
 * token's API key; session/get and access/get answer by the token and the one access rule. Over
 * every storage, in process and over HTTP.
 */
import * as Effect from "effect/Effect"
import { expect, it } from "vitest"
import { forEachBackend, type Started } from "../../../../test-support/backends.js"
import { runSql } from "../sql/runSql.js"
import type { TestCredentials } from "../../src/testing/index.js"

forEachBackend("client API: tokens and access", (ctx: () => Started) => {
  const ok = async (creds: TestCredentials, path: string, data: unknown) => {
    const answer = await ctx().client.post(path, data, creds.headers)
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
    return answer.body.result
  }
  const tokenFor = async (creds: TestCredentials, userId: string, resources: ReadonlyArray<unknown> = [], more: Record<string, unknown> = {}) =>
    (await ok(creds, "/v2/auth/generate_token", {
      userId,
      userProperties: { name: `User ${userId}`, email: `${userId}@example.com`, isAdmin: userId === "root" },
      permissions: { resources },
      ...more
    })).data.token as string
  const asUser = (token: string, path: string, data: unknown, headers: Record<string, string> = {}) =>
    ctx().client.post(path, data, { authorization: `Bearer ${token}`, ...headers })

  const workspace = async () => {
    const creds = await ctx().workspace()
    await ok(creds, "/v2/organizations/folders/add", { organizationId: "org", createOrganization: true, folders: [{ folderId: "closed", accessType: "restricted" }] })
    await ok(creds, "/v1/organizations/documents/add", { organizationId: "org", folderId: "closed", documents: [{ documentId: "secret" }] })
    await ok(creds, "/v1/organizations/documents/add", { organizationId: "org", documents: [{ documentId: "open" }] })
    return creds
  }

  it("session/get: the token's user and its expiry in ms", async () => {
    const creds = await workspace()
    const token = await tokenFor(creds, "root", [], { expiresInSeconds: 3600 })
    const answer = await asUser(token, "/v2/client/session/get", {})
    expect(answer.status).toBe(200)
    const claims = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString())
    expect(answer.body).toEqual({
      result: {
        status: "success",
        message: "Session retrieved successfully.",
        data: { user: { userId: "root", name: "User root", email: "root@example.com", isAdmin: true }, expiresAt: claims.exp * 1000 }
      }
    })
  })

  it("access/get: the rule's role per document, the token's entries and stored grants counted", async () => {
    const creds = await workspace()
    const ann = await tokenFor(creds, "ann", [{ type: "document", id: "secret", organizationId: "org", accessRole: "viewer" }])
    const bob = await tokenFor(creds, "bob")
    const get = async (token: string) => (await asUser(token, "/v2/client/access/get", { organizationId: "org", documentIds: ["secret", "open", "new"] })).body
    expect(await get(ann)).toEqual({
      result: { status: "success", message: "Access retrieved successfully.", data: { secret: { accessRole: "viewer" }, open: { accessRole: "editor" }, new: { accessRole: "editor" } } }
    })
    expect((await get(bob)).result.data.secret).toEqual({ accessRole: null })
    await ok(creds, "/v2/auth/permissions/add", { user: { userId: "bob" }, permissions: { resources: [{ type: "folder", id: "closed", organizationId: "org", accessRole: "editor" }] } })
    expect((await get(bob)).result.data.secret).toEqual({ accessRole: "editor" })
    await ok(creds, "/v2/auth/permissions/remove", { userId: "bob", permissions: { resources: [{ type: "folder", id: "closed", organizationId: "org" }] } })
    expect((await get(bob)).result.data.secret).toEqual({ accessRole: null })
  })

  it("access/get's input: 1 to 30 documents, no actor fields", async () => {
    const creds = await workspace()
    const token = await tokenFor(creds, "ann")
    const refused = async (data: unknown) => {
      const answer = await asUser(token, "/v2/client/access/get", data)
      expect(answer.status).toBe(400)
      return answer.body.error.message as string
    }
    expect(await refused({ organizationId: "org", documentIds: [] })).toContain("documentIds")
    expect(await refused({ organizationId: "org", documentIds: Array.from({ length: 31 }, (_, i) => `d${i}`) })).toContain("documentIds")
    expect(await refused({ organizationId: "org", documentIds: ["open"], userId: "bob" })).toContain("userId")
    expect(await refused({})).toContain("organizationId")
  })

  it("no token, not a bearer, a broken token, a deleted key's token: 401 'Invalid token.'", async () => {
    const creds = await workspace()
    const token = await tokenFor(creds, "ann")
    const invalid = { status: "UNAUTHENTICATED", message: "Invalid token." }
    const none = await ctx().client.post("/v2/client/session/get", {}, {})
    expect(none.status).toBe(401)
    expect(none.body.error).toEqual({ ...invalid, details: { reason: "no_bearer_token" } })
    for (const authorization of [`Basic ${token}`, "Bearer", "Bearer "]) {
      const answer = await ctx().client.post("/v2/client/session/get", {}, { authorization })
      expect([answer.status, answer.body.error.message]).toEqual([401, "Invalid token."])
    }
    const [head, body] = token.split(".")
    for (const bad of [`${head}.${body}.AAAA`, "x.y.z", token.slice(0, -2)]) {
      const answer = await asUser(bad, "/v2/client/session/get", {})
      expect([answer.status, answer.body.error]).toEqual([401, invalid])
    }
    // The scheme is case-insensitive (RFC 9110).
    expect((await ctx().client.post("/v2/client/session/get", {}, { authorization: `bearer ${token}` })).status).toBe(200)
  })

  it("client paths refuse API keys; server paths refuse users' tokens; each says what to send", async () => {
    const creds = await workspace()
    const token = await tokenFor(creds, "ann")
    const withKey = await ctx().client.post("/v2/client/session/get", {}, { ...creds.headers, authorization: `Bearer ${token}` })
    expect(withKey.status).toBe(401)
    expect(withKey.body.error.message).toBe(`API keys are not accepted on client paths: send the user's token as "Authorization: Bearer <token>".`)
    const onServer = await asUser(token, "/v2/organizations/documents/get", { organizationId: "org" })
    expect(onServer.status).toBe(403)
    expect(onServer.body.error.message).toMatch(/^A user's token is not accepted on server paths: send the API key headers/)
  })

  it("a disabled organization refuses its users (the rule's first step, and the dispatcher's gate)", async () => {
    const creds = await workspace()
    const token = await tokenFor(creds, "ann")
    await ok(creds, "/v2/organizations/access/disablestate/update", { organizationIds: ["org"], disabled: true })
    const answer = await asUser(token, "/v2/client/access/get", { organizationId: "org", documentIds: ["open"] })
    expect([answer.status, answer.body.error.message]).toEqual([403, "Organization org is disabled."])
  })

  it("a token whose API key is gone is 'Invalid token.'", async () => {
    const creds = await workspace()
    const token = await tokenFor(creds, "ann")
    // No operation deletes a key; storage can lose one all the same (a restore, a hand-written statement).
    await runSql(ctx().atrium, (sql) => sql`DELETE FROM api_keys WHERE api_key = ${creds.apiKey}`)
    const answer = await asUser(token, "/v2/client/session/get", {})
    expect([answer.status, answer.body.error]).toEqual([401, { status: "UNAUTHENTICATED", message: "Invalid token." }])
  })

  it("a token acts inside its own key only", async () => {
    const creds = await workspace()
    const other = await workspace()
    await ok(creds, "/v2/auth/permissions/add", { user: { userId: "ann" }, permissions: { resources: [{ type: "document", id: "secret", organizationId: "org" }] } })
    const answer = await asUser(await tokenFor(other, "ann"), "/v2/client/access/get", { organizationId: "org", documentIds: ["secret"] })
    expect(answer.body.result.data.secret).toEqual({ accessRole: null })
  })
})
