import { verifyToken } from "@atrium/core"
import { testAtrium } from "@atrium/core/testing"
import { toNodeListener } from "@atrium/node-http"
import { SqliteStorage } from "@atrium/sql-sqlite"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { expectInvalidArgument } from "../../../../test-support/expect.js"
import { forEachBackend, listen } from "../../../../test-support/backends.js"

const GENERATE = "/v2/auth/generate_token"
const JWKS = "/.well-known/jwks.json"

/** The request the hosted service documents (docs/compatibility.md, "Tokens"). */
const documentedRequest = {
  userId: "user123",
  userProperties: { isAdmin: false, name: "John Doe", email: "john@example.com" },
  permissions: {
    resources: [
      { type: "organization", id: "org_123", accessRole: "viewer" },
      { type: "document", id: "doc_456", organizationId: "org_123", accessRole: "editor", expiresAt: 1640995200 }
    ]
  }
}

const segment = (token: string, i: number) => JSON.parse(Buffer.from(token.split(".")[i]!, "base64url").toString("utf8"))

forEachBackend("auth/generate_token", (ctx) => {
  /** The JWKS exactly as a client gets it: over HTTP with the node-http backend (`fetch(baseUrl + path)`). */
  const fetchJwks = async () => {
    const answer = await ctx().client.raw({ method: "GET", path: JWKS })
    expect(answer.status).toBe(200)
    return answer.body
  }

  const generate = async (data: unknown, headers: Readonly<Record<string, string>>) => {
    const answer = await ctx().client.post(GENERATE, data, headers)
    expect(answer.status, answer.text).toBe(200)
    return answer.body.result.data.token as string
  }

  const expectInvalid = async (data: unknown, field: string) => {
    const { client, workspace } = ctx()
    const creds = await workspace()
    return expectInvalidArgument(await client.post(GENERATE, data, creds.headers), field)
  }

  describe("v1 auth/token/get (credentials in the body)", () => {
    const V1 = "/v1/auth/token/get"

    it("issues a token for the user's organization with no auth headers, verifiable with the JWKS", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const answer = await client.post(V1, {
        apiKey: creds.apiKey,
        authToken: creds.authToken,
        userId: "u1",
        userProperties: { organizationId: "org1", email: "u1@example.com", isAdmin: true }
      })
      expect(answer.status, answer.text).toBe(200)
      expect(answer.body.result).toEqual({ status: "success", message: "Token generated successfully.", data: { token: expect.any(String) } })
      const verified = await verifyToken(answer.body.result.data.token, { jwks: await fetchJwks(), issuer: "atrium", audience: creds.apiKey })
      expect(verified.user).toEqual({ userId: "u1", name: "u1", email: "u1@example.com", isAdmin: true })
      expect(verified.permissions.resources).toEqual([{ type: "organization", id: "org1", accessRole: "editor" }])
    })

    it("refuses credentials that do not match with the hosted answer, and malformed bodies naming the field", async () => {
      const { client, workspace } = ctx()
      const a = await workspace()
      const b = await workspace()
      const body = (apiKey: string, authToken: string) => ({ apiKey, authToken, userId: "u1", userProperties: { organizationId: "org1", email: "u1@example.com" } })
      for (const data of [body(a.apiKey, b.authToken), body("no-such-key", a.authToken), body(a.apiKey, "x")]) {
        const refused = await client.post(V1, data)
        expect(refused.status).toBe(400)
        expect(refused.body).toEqual({ error: { status: "INVALID_ARGUMENT", message: "Auth token not found." } })
      }
      await expectInvalidArgument(await client.post(V1, { ...body(a.apiKey, a.authToken), userProperties: { email: "u1@example.com" } }), "userProperties.organizationId")
      await expectInvalidArgument(await client.post(V1, { ...body(a.apiKey, a.authToken), userId: undefined }), "userId")
    })
  })

  describe("happy path", () => {
    it("answers the documented request with a token that verifies against the served JWKS, with every claim", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const before = Math.floor(Date.now() / 1000)
      const answer = await client.post(GENERATE, documentedRequest, creds.headers)
      const after = Math.floor(Date.now() / 1000)
      expect(answer.status).toBe(200)
      expect(answer.body).toEqual({
        result: { status: "success", message: "Token generated successfully.", data: { token: expect.any(String) } }
      })
      const token: string = answer.body.result.data.token

      const jwks = await fetchJwks()
      expect(jwks.keys.length).toBeGreaterThanOrEqual(1)
      for (const key of jwks.keys) {
        expect(key).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig", kid: expect.any(String) })
        expect(key.d).toBeUndefined()
      }
      const header = segment(token, 0)
      expect(header).toEqual({ alg: "ES256", kid: expect.any(String), typ: "JWT" })
      expect(jwks.keys.map((k: { kid: string }) => k.kid)).toContain(header.kid)

      const verified = await verifyToken(token, { jwks, issuer: "atrium", audience: creds.apiKey })
      expect(verified).toEqual({
        issuer: "atrium",
        userId: "user123",
        apiKey: creds.apiKey,
        jti: expect.any(String),
        issuedAt: expect.any(Number),
        expiresAt: verified.issuedAt + 172800,
        user: { userId: "user123", name: "John Doe", email: "john@example.com", isAdmin: false },
        permissions: {
          resources: [
            { type: "organization", id: "org_123", accessRole: "viewer" },
            // 1640995200 is below 10^12, so seconds: stored as ms (docs/decisions.md, "Product rulings").
            { type: "document", id: "doc_456", organizationId: "org_123", accessRole: "editor", expiresAt: 1640995200000 }
          ]
        }
      })
      expect(verified.jti.length).toBeGreaterThan(0)
      expect(verified.issuedAt).toBeGreaterThanOrEqual(before)
      expect(verified.issuedAt).toBeLessThanOrEqual(after)

      // The registered claim names themselves (docs/decisions.md, "Product rulings").
      const payload = segment(token, 1)
      expect(Object.keys(payload).sort()).toEqual(["aud", "exp", "iat", "iss", "jti", "permissions", "sub", "user"])
      expect(payload).toMatchObject({ iss: "atrium", sub: "user123", aud: creds.apiKey, jti: verified.jti })
      expect(payload.exp - payload.iat).toBe(172800)
    })

    it("defaults accessRole to editor and isAdmin to false, keeps isAdmin true and ms expiresAt as given", async () => {
      const { workspace } = ctx()
      const creds = await workspace()
      const jwks = await fetchJwks()
      const plain = await generate({
        userId: "u1",
        userProperties: { name: "Ann", email: "ann@example.com" },
        permissions: { resources: [{ type: "folder", id: "f1", organizationId: "o1", expiresAt: 1_900_000_000_123 }] }
      }, creds.headers)
      const a = await verifyToken(plain, { jwks })
      expect(a.user.isAdmin).toBe(false)
      expect(a.permissions.resources).toEqual([
        { type: "folder", id: "f1", organizationId: "o1", accessRole: "editor", expiresAt: 1_900_000_000_123 }
      ])

      const admin = await generate({
        userId: "u2",
        userProperties: { isAdmin: true, name: "Bob", email: "bob@example.com" },
        permissions: { resources: [] }
      }, creds.headers)
      const b = await verifyToken(admin, { jwks })
      expect(b.user).toEqual({ userId: "u2", name: "Bob", email: "bob@example.com", isAdmin: true })
      expect(b.permissions.resources).toEqual([])
    })

    it("signs every token with the same stored key, and each token gets its own jti", async () => {
      const { workspace } = ctx()
      const creds = await workspace()
      const first = await generate(documentedRequest, creds.headers)
      const second = await generate(documentedRequest, creds.headers)
      expect(segment(first, 0).kid).toBe(segment(second, 0).kid)
      expect(segment(first, 1).jti).not.toBe(segment(second, 1).jti)
      const jwks = await fetchJwks()
      expect(jwks.keys).toHaveLength(1)
      expect(await fetchJwks()).toEqual(jwks)
    })

    it("binds the token to the calling API key (aud)", async () => {
      const { workspace } = ctx()
      const a = await workspace()
      const b = await workspace()
      const token = await generate(documentedRequest, a.headers)
      const jwks = await fetchJwks()
      await expect(verifyToken(token, { jwks, audience: a.apiKey })).resolves.toMatchObject({ apiKey: a.apiKey })
      await expect(verifyToken(token, { jwks, audience: b.apiKey })).rejects.toThrow(/aud/)
    })
  })

  describe("errors and limits", () => {
    it("refuses organizationId inside userProperties, saying where it belongs", async () => {
      const error = await expectInvalid(
        { ...documentedRequest, userProperties: { ...documentedRequest.userProperties, organizationId: "org_123" } },
        "data.userProperties.organizationId"
      )
      expect(error.message).toContain("permissions.resources")
      expect(error.message).toContain("organization")
    })

    it("requires organizationId on document and folder resources", async () => {
      for (const type of ["document", "folder"]) {
        const error = await expectInvalid(
          { ...documentedRequest, permissions: { resources: [{ type: "organization", id: "o" }, { type, id: "x" }] } },
          "data.permissions.resources[1].organizationId"
        )
        expect(error.message).toContain(type)
      }
    })

    it("publishes both rules in the OpenAPI document, which the server keeps over HTTP", async () => {
      const document = (await ctx().client.raw({ method: "GET", path: "/openapi.json" })).body
      const data = document.paths[GENERATE].post.requestBody.content["application/json"].schema.properties.data
      // organizationId in userProperties: declared as a key no value fits.
      expect(data.properties.userProperties.properties.organizationId).toMatchObject({ not: {} })
      expect(data.properties.userProperties.additionalProperties).toBe(false)
      // One variant per type; document and folder require organizationId, organization does not.
      const variants: Array<{ properties: { type: { enum: Array<string> } }; required: Array<string> }> =
        data.properties.permissions.properties.resources.items.anyOf
      const requiredBy = Object.fromEntries(variants.flatMap((variant) => variant.properties.type.enum.map((type) => [type, variant.required])))
      expect(Object.keys(requiredBy).sort()).toEqual(["document", "folder", "organization"])
      expect(requiredBy["document"]).toContain("organizationId")
      expect(requiredBy["folder"]).toContain("organizationId")
      expect(requiredBy["organization"]).not.toContain("organizationId")
      // What the document refuses, the server refuses (the messages are checked above).
      await expectInvalid(
        { ...documentedRequest, userProperties: { ...documentedRequest.userProperties, organizationId: "org_123" } },
        "data.userProperties.organizationId"
      )
      await expectInvalid({ ...documentedRequest, permissions: { resources: [{ type: "folder", id: "f" }] } }, "data.permissions.resources[0].organizationId")
      // And what it allows, the server takes: an organization entry with or without organizationId.
      const { client, workspace } = ctx()
      const creds = await workspace()
      const resources = [{ type: "organization", id: "o" }, { type: "organization", id: "o2", organizationId: "o2" }]
      expect((await client.post(GENERATE, { ...documentedRequest, permissions: { resources } }, creds.headers)).status).toBe(200)
    })

    it("requires userId, userProperties (name, email) and permissions.resources", async () => {
      const { userId: _u, ...noUserId } = documentedRequest
      await expectInvalid(noUserId, "data.userId")
      const { userProperties: _p, ...noProperties } = documentedRequest
      await expectInvalid(noProperties, "data.userProperties")
      await expectInvalid({ ...documentedRequest, userProperties: { email: "a@b.co" } }, "data.userProperties.name")
      await expectInvalid({ ...documentedRequest, userProperties: { name: "A" } }, "data.userProperties.email")
      await expectInvalid({ ...documentedRequest, userProperties: { name: "A", email: "not-an-email" } }, "data.userProperties.email")
      const { permissions: _r, ...noPermissions } = documentedRequest
      await expectInvalid(noPermissions, "data.permissions")
      await expectInvalid({ ...documentedRequest, permissions: {} }, "data.permissions.resources")
      await expectInvalid({ ...documentedRequest, userId: "" }, "data.userId")
    })

    it("refuses unknown resource types, access roles and negative expiresAt", async () => {
      await expectInvalid({ ...documentedRequest, permissions: { resources: [{ type: "workspace", id: "w" }] } }, "data.permissions.resources[0].type")
      await expectInvalid(
        { ...documentedRequest, permissions: { resources: [{ type: "organization", id: "o", accessRole: "owner" }] } },
        "data.permissions.resources[0].accessRole"
      )
      await expectInvalid(
        { ...documentedRequest, permissions: { resources: [{ type: "organization", id: "o", expiresAt: -1 }] } },
        "data.permissions.resources[0].expiresAt"
      )
    })

    it("refuses an expiresAt that is not finite (1e309) or past the year 9999 (1e300), minding seconds below 10^12", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const headers = { "content-type": "application/json", ...creds.headers }
      const withExpiry = (expiresAt: string) =>
        `{"data":{"userId":"u","userProperties":{"name":"n","email":"n@example.com"},"permissions":{"resources":[{"type":"organization","id":"o","expiresAt":${expiresAt}}]}}}`
      const field = "data.permissions.resources[0].expiresAt"
      // JSON.parse reads 1e309 as Infinity, which the token then carried as null.
      const infinite = expectInvalidArgument(await client.raw({ path: GENERATE, headers, body: withExpiry("1e309") }), field)
      expect(infinite).toEqual({
        status: "INVALID_ARGUMENT",
        message: `Invalid ${field}: must be a finite number (at most 1.8e308 in size)`,
        details: { issues: [{ path: ["data", "permissions", "resources", 0, "expiresAt"], message: "must be a finite number (at most 1.8e308 in size)" }] }
      })
      const tooLate = "must be before the year 10000 (in seconds below 10^12, else in milliseconds)"
      // 1e300 ms; 999,999,999,999 s (year 33658); one millisecond past 9999.
      for (const expiresAt of ["1e300", "999999999999", "253402300800000"]) {
        const error = expectInvalidArgument(await client.raw({ path: GENERATE, headers, body: withExpiry(expiresAt) }), field)
        expect(error.message, expiresAt).toBe(`Invalid ${field}: ${tooLate}`)
      }
      // The last moment of 9999, in milliseconds and in seconds, is kept (as ms).
      const jwks = await fetchJwks()
      for (const [expiresAt, ms] of [["253402300799999", 253402300799999], ["253402300799", 253402300799000]] as const) {
        const answer = await client.raw({ path: GENERATE, headers, body: withExpiry(expiresAt) })
        expect(answer.status, answer.text).toBe(200)
        const claims = await verifyToken(answer.body.result.data.token, { jwks })
        expect(claims.permissions.resources[0]!.expiresAt).toBe(ms)
      }
    })

    it("accepts 100 resources and refuses 101", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const resources = (n: number) => Array.from({ length: n }, (_, i) => ({ type: "organization", id: `o${i}` }))
      const at = await client.post(GENERATE, { ...documentedRequest, permissions: { resources: resources(100) } }, creds.headers)
      expect(at.status).toBe(200)
      const token = at.body.result.data.token
      expect((await verifyToken(token, { jwks: await fetchJwks() })).permissions.resources).toHaveLength(100)
      await expectInvalid({ ...documentedRequest, permissions: { resources: resources(101) } }, "data.permissions.resources")
    })

    it("refuses an unwrapped body and invalid API-key credentials", async () => {
      const { client, workspace } = ctx()
      const creds = await workspace()
      const unwrapped = await client.raw({
        path: GENERATE,
        headers: { "content-type": "application/json", ...creds.headers },
        body: JSON.stringify(documentedRequest)
      })
      expect(unwrapped.status).toBe(400)
      expect(unwrapped.body.error.status).toBe("INVALID_ARGUMENT")
      const denied = await client.post(GENERATE, documentedRequest, { ...creds.headers, "x-service-auth-token": "wrong" })
      expect(denied.status).toBe(403)
      expect(denied.body).toEqual({ error: { status: "PERMISSION_DENIED", message: "Invalid API key." } })
    })
  })
})

describe("auth/generate_token with two servers on one SQLite database", () => {
  it("keeps the first stored key: tokens of either server verify with the other's JWKS", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atrium-tokens-"))
    const filename = join(dir, "atrium.db")
    const first = testAtrium(SqliteStorage.layer({ filename }))
    await first.ready()
    const second = testAtrium(SqliteStorage.layer({ filename }))
    const servers = [createServer(toNodeListener(first)), createServer(toNodeListener(second))]
    try {
      const [urlA, urlB] = await Promise.all(servers.map(listen))
      const post = (url: string, path: string, data: unknown, headers: Record<string, string> = {}) =>
        fetch(url + path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ data }) })
          .then((r) => r.json() as Promise<any>)
      const created = (await post(urlA!, "/v2/workspace/create", { ownerEmail: "two-servers@example.com" })).result.data
      const [apiKey, entry] = Object.entries(created.apiKeyList)[0] as [string, { authToken: string }]
      const headers = { "x-service-api-key": apiKey, "x-service-auth-token": entry.authToken }

      // Both servers make their first key at the same moment.
      const [a, b] = await Promise.all([urlA!, urlB!].map((url) => post(url, GENERATE, documentedRequest, headers)))
      const [jwksA, jwksB] = await Promise.all([urlA!, urlB!].map((url) => fetch(url + JWKS).then((r) => r.json() as Promise<any>)))
      expect(jwksA.keys).toHaveLength(1)
      expect(jwksB).toEqual(jwksA)
      await expect(verifyToken(a.result.data.token, { jwks: jwksB, audience: apiKey })).resolves.toMatchObject({ userId: "user123" })
      await expect(verifyToken(b.result.data.token, { jwks: jwksA, audience: apiKey })).resolves.toMatchObject({ userId: "user123" })
    } finally {
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))))
      await first.dispose()
      await second.dispose()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
