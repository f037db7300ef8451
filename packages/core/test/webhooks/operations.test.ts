import type { TestCredentials } from "@atrium/core/testing"
import { describe, expect, it } from "vitest"
import { forEachBackend } from "../../../../test-support/backends.js"

const CONFIG_GET = "/v2/workspace/advancedwebhookconfig/get"
const CONFIG_UPDATE = "/v2/workspace/advancedwebhookconfig/update"
const CREATE = "/v2/workspace/advancedwebhook/endpoints/create"
const LIST = "/v2/workspace/advancedwebhook/endpoints/get"
const UPDATE = "/v2/workspace/advancedwebhook/endpoints/update"
const DELETE = "/v2/workspace/advancedwebhook/endpoints/delete"
const SECRET = "/v2/workspace/advancedwebhook/endpoints/secret/get"

const NOT_CONFIGURED =
  "Advanced webhooks are not configured for this workspace. Enable them first via POST /v2/workspace/advancedwebhookconfig/update with { \"isEnabled\": true }."
const DISABLED =
  "Advanced webhooks are disabled for this workspace. Enable them via POST /v2/workspace/advancedwebhookconfig/update with { \"isEnabled\": true }."
/** Every endpoint operation, for an endpoint the key does not have (issue 22). */
const unknownEndpoint = (endpointId: string) => `Webhook endpoint ${endpointId} not found.`
const BAD_URL = "url must be a valid http(s) URL."

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const ENDPOINT_ID = /^ep_[0-9A-Za-z]+$/

forEachBackend("advanced webhooks", (ctx) => {
  const post = (path: string, data: unknown, creds: TestCredentials) => ctx().client.post(path, data, creds.headers)

  /** A new workspace with advanced webhooks enabled. */
  const enabledWorkspace = async () => {
    const creds = await ctx().workspace()
    const enabled = await post(CONFIG_UPDATE, { isEnabled: true }, creds)
    expect(enabled.status).toBe(200)
    return creds
  }

  const create = async (creds: TestCredentials, data: Record<string, unknown> = {}) => {
    const answer = await post(CREATE, { url: "https://example.com/hooks", ...data }, creds)
    expect(answer.status).toBe(200)
    return answer.body.result.data as { id: string; createdAt: string; updatedAt: string; [key: string]: unknown }
  }

  const expectError = (answer: { status: number; body: any }, httpStatus: number, status: string, message: string) => {
    expect(answer.status).toBe(httpStatus)
    expect(answer.body.error.status).toBe(status)
    expect(answer.body.error.message).toBe(message)
  }

  describe("advancedwebhookconfig", () => {
    it("answers the defaults before any configuration", async () => {
      const creds = await ctx().workspace()
      const got = await post(CONFIG_GET, {}, creds)
      expect(got.status).toBe(200)
      expect(got.body).toEqual({
        result: {
          status: "success",
          message: "Advanced webhook configuration retrieved successfully.",
          data: { isEnabled: false, encryptData: false, encodeData: false, publicKey: "", enableDataProtection: false }
        }
      })
    })

    it("refuses an empty update", async () => {
      const creds = await ctx().workspace()
      expectError(
        await post(CONFIG_UPDATE, {}, creds),
        400,
        "INVALID_ARGUMENT",
        "At least one of isEnabled, encryptData, encodeData, publicKey or enableDataProtection must be provided."
      )
    })

    it("requires the first configuration to enable, and writes nothing otherwise", async () => {
      const creds = await ctx().workspace()
      expectError(await post(CONFIG_UPDATE, { encryptData: true }, creds), 400, "FAILED_PRECONDITION", NOT_CONFIGURED)
      expectError(await post(CONFIG_UPDATE, { isEnabled: false, encodeData: true }, creds), 400, "FAILED_PRECONDITION", NOT_CONFIGURED)
      const got = await post(CONFIG_GET, {}, creds)
      expect(got.body.result.data).toEqual({ isEnabled: false, encryptData: false, encodeData: false, publicKey: "", enableDataProtection: false })
    })

    it("enables with other fields, then updates partially and echoes the full configuration", async () => {
      const creds = await ctx().workspace()
      const first = await post(CONFIG_UPDATE, { isEnabled: true, encodeData: true }, creds)
      expect(first.body).toEqual({
        result: {
          status: "success",
          message: "Advanced webhook configuration updated successfully.",
          data: { isEnabled: true, encryptData: false, encodeData: true, publicKey: "", enableDataProtection: false }
        }
      })
      const second = await post(CONFIG_UPDATE, { publicKey: "MIIBIjANBgkq", enableDataProtection: true }, creds)
      const expected = { isEnabled: true, encryptData: false, encodeData: true, publicKey: "MIIBIjANBgkq", enableDataProtection: true }
      expect(second.body.result.data).toEqual(expected)
      const disabled = await post(CONFIG_UPDATE, { isEnabled: false }, creds)
      expect(disabled.body.result.data).toEqual({ ...expected, isEnabled: false })
      expect((await post(CONFIG_GET, {}, creds)).body.result.data).toEqual({ ...expected, isEnabled: false })
    })

    it("refuses a wrongly typed field, naming it", async () => {
      const creds = await ctx().workspace()
      const answer = await post(CONFIG_UPDATE, { isEnabled: "yes" }, creds)
      expect(answer.status).toBe(400)
      expect(answer.body.error.status).toBe("INVALID_ARGUMENT")
      expect(answer.body.error.message).toContain("data.isEnabled")
    })

    it("keeps each API key's configuration apart", async () => {
      const a = await enabledWorkspace()
      const b = await ctx().workspace()
      expect((await post(CONFIG_GET, {}, a)).body.result.data.isEnabled).toBe(true)
      expect((await post(CONFIG_GET, {}, b)).body.result.data.isEnabled).toBe(false)
      expectError(await post(LIST, {}, b), 400, "FAILED_PRECONDITION", NOT_CONFIGURED)
    })
  })

  describe("the enabled precondition", () => {
    const calls = [
      [CREATE, { url: "https://example.com/hooks" }],
      [LIST, {}],
      [UPDATE, { endpointId: "ep_x", description: "d" }],
      [DELETE, { endpointId: "ep_x" }],
      [SECRET, { endpointId: "ep_x" }]
    ] as const

    it("refuses every endpoint operation before any configuration", async () => {
      const creds = await ctx().workspace()
      for (const [path, data] of calls) {
        expectError(await post(path, data, creds), 400, "FAILED_PRECONDITION", NOT_CONFIGURED)
      }
    })

    it("refuses every endpoint operation while disabled, and keeps the endpoints for re-enabling", async () => {
      const creds = await enabledWorkspace()
      const endpoint = await create(creds)
      expect((await post(CONFIG_UPDATE, { isEnabled: false }, creds)).status).toBe(200)
      for (const [path, data] of calls) {
        expectError(await post(path, data, creds), 400, "FAILED_PRECONDITION", DISABLED)
      }
      expectError(await post(SECRET, { endpointId: endpoint.id }, creds), 400, "FAILED_PRECONDITION", DISABLED)
      expect((await post(CONFIG_UPDATE, { isEnabled: true }, creds)).status).toBe(200)
      const listed = await post(LIST, {}, creds)
      expect(listed.body.result.data.endpoints.map((e: { id: string }) => e.id)).toEqual([endpoint.id])
    })
  })

  describe("endpoints/create", () => {
    it("creates from a minimal body, with explicit nulls and ISO timestamps", async () => {
      const creds = await enabledWorkspace()
      const answer = await post(CREATE, { url: "https://example.com/webhooks/atrium" }, creds)
      expect(answer.status).toBe(200)
      expect(answer.body.result.status).toBe("success")
      expect(answer.body.result.message).toBe("Advanced webhook endpoint created successfully.")
      const record = answer.body.result.data
      expect(record).toEqual({
        id: expect.stringMatching(ENDPOINT_ID),
        url: "https://example.com/webhooks/atrium",
        description: null,
        filterTypes: null,
        channels: null,
        disabled: false,
        rateLimit: null,
        uid: null,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO)
      })
      expect(record.updatedAt).toBe(record.createdAt)
      expect(answer.text).not.toContain("whsec_")
    })

    it("echoes every field given, but never metadata", async () => {
      const creds = await enabledWorkspace()
      const record = await create(creds, {
        url: "http://hooks.example.com:8080/in?x=1",
        description: "Primary endpoint",
        filterTypes: ["comment.add", "comment.update"],
        channels: ["project-1"],
        disabled: true,
        rateLimit: 10,
        uid: "my-endpoint",
        metadata: { team: "core" }
      })
      expect(record).toEqual({
        id: expect.stringMatching(ENDPOINT_ID),
        url: "http://hooks.example.com:8080/in?x=1",
        description: "Primary endpoint",
        filterTypes: ["comment.add", "comment.update"],
        channels: ["project-1"],
        disabled: true,
        rateLimit: 10,
        uid: "my-endpoint",
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO)
      })
    })

    it("treats explicit nulls as unset", async () => {
      const creds = await enabledWorkspace()
      const record = await create(creds, { description: null, filterTypes: null, channels: null, rateLimit: null, uid: null })
      expect(record).toMatchObject({ description: null, filterTypes: null, channels: null, rateLimit: null, uid: null })
    })

    it("refuses a url that is not http(s) with the exact message", async () => {
      const creds = await enabledWorkspace()
      for (const url of ["ftp://example.com/hooks", "not a url", "https://", "example.com/hooks", "https://exa mple.com", ""]) {
        expectError(await post(CREATE, { url }, creds), 400, "INVALID_ARGUMENT", BAD_URL)
      }
      expect((await post(LIST, {}, creds)).body.result.data.endpoints).toEqual([])
    })

    it("refuses empty filterTypes and channels, naming the field", async () => {
      const creds = await enabledWorkspace()
      for (const field of ["filterTypes", "channels"]) {
        const answer = await post(CREATE, { url: "https://example.com/hooks", [field]: [] }, creds)
        expect(answer.status).toBe(400)
        expect(answer.body.error.status).toBe("INVALID_ARGUMENT")
        expect(answer.body.error.message).toContain(`data.${field}`)
      }
    })

    it("accepts only a positive integer rateLimit", async () => {
      const creds = await enabledWorkspace()
      for (const rateLimit of [0, -1, 1.5, "5"]) {
        const answer = await post(CREATE, { url: "https://example.com/hooks", rateLimit }, creds)
        expect(answer.status).toBe(400)
        expect(answer.body.error.status).toBe("INVALID_ARGUMENT")
        expect(answer.body.error.message).toContain("data.rateLimit")
      }
      expect((await create(creds, { rateLimit: 1 })).rateLimit).toBe(1)
    })

    it("refuses a caller-supplied secret and non-string metadata values", async () => {
      const creds = await enabledWorkspace()
      const withSecret = await post(CREATE, { url: "https://example.com/hooks", secret: "whsec_AAAA" }, creds)
      expect(withSecret.status).toBe(400)
      expect(withSecret.body.error.message).toContain("data.secret")
      const badMetadata = await post(CREATE, { url: "https://example.com/hooks", metadata: { n: 1 } }, creds)
      expect(badMetadata.status).toBe(400)
      expect(badMetadata.body.error.message).toContain("data.metadata.n")
    })

    it("refuses a uid the API key already uses, and writes nothing", async () => {
      const a = await enabledWorkspace()
      const b = await enabledWorkspace()
      await create(a, { uid: "primary" })
      expectError(
        await post(CREATE, { url: "https://example.com/other", uid: "primary" }, a),
        409,
        "ALREADY_EXISTS",
        "An advanced webhook endpoint with uid \"primary\" already exists."
      )
      expect((await post(LIST, {}, a)).body.result.data.endpoints).toHaveLength(1)
      expect((await create(b, { uid: "primary" })).uid).toBe("primary")
    })
  })

  describe("endpoints/secret/get", () => {
    it("returns a stable whsec_ secret of 24 to 32 random bytes, different per endpoint", async () => {
      const creds = await enabledWorkspace()
      const one = await create(creds)
      const two = await create(creds)
      const answer = await post(SECRET, { endpointId: one.id }, creds)
      expect(answer.status).toBe(200)
      expect(answer.body.result.message).toBe("Advanced webhook endpoint secret retrieved successfully.")
      const { endpointId, secret } = answer.body.result.data
      expect(endpointId).toBe(one.id)
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/)
      const bytes = Buffer.from(secret.slice("whsec_".length), "base64").length
      expect(bytes).toBeGreaterThanOrEqual(24)
      expect(bytes).toBeLessThanOrEqual(32)
      expect((await post(SECRET, { endpointId: one.id }, creds)).body.result.data.secret).toBe(secret)
      expect((await post(SECRET, { endpointId: two.id }, creds)).body.result.data.secret).not.toBe(secret)
    })

    it("answers NOT_FOUND for an unknown endpoint", async () => {
      const creds = await enabledWorkspace()
      expectError(await post(SECRET, { endpointId: "ep_unknown" }, creds), 404, "NOT_FOUND", unknownEndpoint("ep_unknown"))
    })
  })

  describe("endpoints/get", () => {
    it("refuses limit 0 and 251, accepts 1 and 250", async () => {
      const creds = await enabledWorkspace()
      for (const limit of [0, 251, 2.5]) {
        const answer = await post(LIST, { limit }, creds)
        expect(answer.status).toBe(400)
        expect(answer.body.error.status).toBe("INVALID_ARGUMENT")
        expect(answer.body.error.message).toContain("data.limit")
      }
      for (const limit of [1, 250]) expect((await post(LIST, { limit }, creds)).status).toBe(200)
    })

    it("answers one empty, done page when there are no endpoints", async () => {
      const creds = await enabledWorkspace()
      expect((await post(LIST, {}, creds)).body).toEqual({
        result: {
          status: "success",
          message: "Advanced webhook endpoints retrieved successfully.",
          data: { endpoints: [], iterator: null, prevIterator: null, done: true }
        }
      })
    })

    it("pages forward with iterator across three pages and back with prevIterator", async () => {
      const creds = await enabledWorkspace()
      const ids: Array<string> = []
      for (let i = 0; i < 7; i++) ids.push((await create(creds, { description: `e${i}` })).id)
      const page = async (iterator?: string) => {
        const answer = await post(LIST, { limit: 3, ...(iterator !== undefined && { iterator }) }, creds)
        expect(answer.status).toBe(200)
        const data = answer.body.result.data
        return { ...data, ids: data.endpoints.map((e: { id: string }) => e.id) }
      }

      const first = await page()
      expect(first.ids).toEqual(ids.slice(0, 3))
      expect(first.done).toBe(false)
      expect(first.prevIterator).toBeNull()
      expect(typeof first.iterator).toBe("string")

      const second = await page(first.iterator)
      expect(second.ids).toEqual(ids.slice(3, 6))
      expect(second.done).toBe(false)
      expect(typeof second.prevIterator).toBe("string")

      const third = await page(second.iterator)
      expect(third.ids).toEqual(ids.slice(6))
      expect(third.done).toBe(true)
      expect(third.iterator).toBeNull()
      expect(typeof third.prevIterator).toBe("string")

      const backToSecond = await page(third.prevIterator)
      expect(backToSecond.ids).toEqual(ids.slice(3, 6))
      expect(backToSecond.done).toBe(false)
      const backToFirst = await page(backToSecond.prevIterator)
      expect(backToFirst.ids).toEqual(ids.slice(0, 3))
      expect(backToFirst.prevIterator).toBeNull()
      expect(backToFirst.done).toBe(false)
      expect((await page(backToFirst.iterator)).ids).toEqual(ids.slice(3, 6))
    })

    it("returns the full first page when going back reaches the start", async () => {
      const creds = await enabledWorkspace()
      const ids: Array<string> = []
      for (let i = 0; i < 5; i++) ids.push((await create(creds)).id)
      const first = (await post(LIST, { limit: 1 }, creds)).body.result.data
      const second = (await post(LIST, { limit: 1, iterator: first.iterator }, creds)).body.result.data
      // Same cursor, a larger page: only one endpoint lies before it, so the first 3 are answered.
      const back = (await post(LIST, { limit: 3, iterator: second.prevIterator }, creds)).body.result.data
      expect(back.endpoints.map((e: { id: string }) => e.id)).toEqual(ids.slice(0, 3))
      expect(back.prevIterator).toBeNull()
      expect(back.done).toBe(false)
    })

    it("refuses a tampered iterator and another API key's iterator", async () => {
      const a = await enabledWorkspace()
      const b = await enabledWorkspace()
      for (let i = 0; i < 2; i++) {
        await create(a)
        await create(b)
      }
      const iterator: string = (await post(LIST, { limit: 1 }, a)).body.result.data.iterator
      const tampered = iterator.slice(0, -2) + (iterator.endsWith("AA") ? "BA" : "AA")
      const message = "Invalid iterator: it is malformed, expired, or was made for another query."
      expectError(await post(LIST, { limit: 1, iterator: tampered }, a), 400, "INVALID_ARGUMENT", message)
      expectError(await post(LIST, { limit: 1, iterator: "garbage" }, a), 400, "INVALID_ARGUMENT", message)
      expectError(await post(LIST, { limit: 1, iterator }, b), 400, "INVALID_ARGUMENT", message)
    })
  })

  describe("endpoints/update", () => {
    it("changes only the fields given and returns the full record", async () => {
      const creds = await enabledWorkspace()
      const created = await create(creds, { description: "before", filterTypes: ["comment.add"], channels: ["c1"], rateLimit: 5, uid: "u1" })
      const answer = await post(UPDATE, { endpointId: created.id, description: "after", disabled: true }, creds)
      expect(answer.status).toBe(200)
      expect(answer.body.result.message).toBe("Advanced webhook endpoint updated successfully.")
      expect(answer.body.result.data).toEqual({
        ...created,
        description: "after",
        disabled: true,
        updatedAt: expect.stringMatching(ISO)
      })
      expect(answer.body.result.data.createdAt).toBe(created.createdAt)
      const listed = (await post(LIST, {}, creds)).body.result.data.endpoints
      expect(listed).toEqual([answer.body.result.data])
    })

    it("clears description, filterTypes, channels and rateLimit with null", async () => {
      const creds = await enabledWorkspace()
      const created = await create(creds, { description: "d", filterTypes: ["comment.add"], channels: ["c1"], rateLimit: 5 })
      const answer = await post(UPDATE, { endpointId: created.id, description: null, filterTypes: null, channels: null, rateLimit: null }, creds)
      expect(answer.body.result.data).toMatchObject({ description: null, filterTypes: null, channels: null, rateLimit: null, url: created.url })
    })

    it("refuses an update with only the endpointId, a bad url, an empty filter list, and uid", async () => {
      const creds = await enabledWorkspace()
      const created = await create(creds)
      expectError(
        await post(UPDATE, { endpointId: created.id }, creds),
        400,
        "INVALID_ARGUMENT",
        "At least one endpoint field besides endpointId must be provided."
      )
      expectError(await post(UPDATE, { endpointId: created.id, url: "ftp://example.com" }, creds), 400, "INVALID_ARGUMENT", BAD_URL)
      const emptyFilter = await post(UPDATE, { endpointId: created.id, filterTypes: [] }, creds)
      expect(emptyFilter.status).toBe(400)
      expect(emptyFilter.body.error.message).toContain("data.filterTypes")
      const uid = await post(UPDATE, { endpointId: created.id, uid: "new" }, creds)
      expect(uid.status).toBe(400)
      expect(uid.body.error.message).toContain("data.uid")
      const unchanged = (await post(LIST, {}, creds)).body.result.data.endpoints
      expect(unchanged).toEqual([created])
    })

    it("answers NOT_FOUND for an unknown endpoint", async () => {
      const creds = await enabledWorkspace()
      expectError(await post(UPDATE, { endpointId: "ep_unknown", disabled: true }, creds), 404, "NOT_FOUND", unknownEndpoint("ep_unknown"))
    })
  })

  describe("endpoints/delete", () => {
    it("deletes the endpoint and its secret", async () => {
      const creds = await enabledWorkspace()
      const kept = await create(creds)
      const gone = await create(creds)
      const answer = await post(DELETE, { endpointId: gone.id }, creds)
      expect(answer.body).toEqual({
        result: {
          status: "success",
          message: "Advanced webhook endpoint deleted successfully.",
          data: { endpointId: gone.id, deleted: true }
        }
      })
      expectError(await post(SECRET, { endpointId: gone.id }, creds), 404, "NOT_FOUND", unknownEndpoint(gone.id))
      expectError(await post(DELETE, { endpointId: gone.id }, creds), 404, "NOT_FOUND", unknownEndpoint(gone.id))
      expectError(await post(UPDATE, { endpointId: gone.id, disabled: true }, creds), 404, "NOT_FOUND", unknownEndpoint(gone.id))
      const listed = (await post(LIST, {}, creds)).body.result.data.endpoints
      expect(listed.map((e: { id: string }) => e.id)).toEqual([kept.id])
    })

    it("answers NOT_FOUND for an unknown endpoint", async () => {
      const creds = await enabledWorkspace()
      expectError(await post(DELETE, { endpointId: "ep_unknown" }, creds), 404, "NOT_FOUND", unknownEndpoint("ep_unknown"))
    })
  })

  describe("isolation", () => {
    it("never lets another API key list, read the secret of, update or delete an endpoint", async () => {
      const owner = await enabledWorkspace()
      const other = await enabledWorkspace()
      const endpoint = await create(owner)
      expect((await post(LIST, {}, other)).body.result.data.endpoints).toEqual([])
      expectError(await post(SECRET, { endpointId: endpoint.id }, other), 404, "NOT_FOUND", unknownEndpoint(endpoint.id))
      expectError(await post(UPDATE, { endpointId: endpoint.id, disabled: true }, other), 404, "NOT_FOUND", unknownEndpoint(endpoint.id))
      expectError(await post(DELETE, { endpointId: endpoint.id }, other), 404, "NOT_FOUND", unknownEndpoint(endpoint.id))
      const stillThere = (await post(LIST, {}, owner)).body.result.data.endpoints
      expect(stillThere).toEqual([endpoint])
    })

    it("refuses a wrong API key", async () => {
      const creds = await enabledWorkspace()
      const answer = await ctx().client.post(LIST, {}, { ...creds.headers, "x-service-auth-token": "wrong" })
      expectError(answer, 403, "PERMISSION_DENIED", "Invalid API key.")
    })
  })
})
