import { type AtriumHandler, Mailer } from "@atrium/core"
import { CapturedMail } from "@atrium/core/testing"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import { describe, expect, it } from "vitest"
import { forEachBackend } from "../../../../test-support/backends.js"

const NOT_AUTHENTICATED = { error: { status: "PERMISSION_DENIED", message: "Invalid API key." } }

const DEFAULT_NOTIFICATION_CONFIG = {
  useNotificationService: false,
  notificationServiceConfig: {
    triggers: { comment: {}, huddle: {} },
    delayConfig: { isEnabled: false, delaySeconds: 10 },
    batchConfig: {
      document: { isEnabled: false, batchWindowSeconds: 10, maxActivities: 2 },
      user: { isEnabled: false, batchWindowSeconds: 10, maxActivities: 2 }
    }
  }
}

const SEEDED_TRIGGERS = {
  comment: { add: true, reply: true, mention: true, reaction: false, statusChange: true },
  huddle: { create: true, join: true }
}

const domainList = (n: number) => Array.from({ length: n }, (_, i) => `d${i}.example.com`)

forEachBackend("workspace settings", (ctx) => {
  const post = (path: string, data: unknown, headers: Record<string, string>) => ctx().client.post(path, data, headers)

  it("refuses every settings operation without valid API-key credentials", async () => {
    const { client, workspace } = ctx()
    const creds = await workspace()
    const calls: Array<[string, unknown]> = [
      ["/v2/workspace/domains/add", { domains: ["a.com"] }],
      ["/v1/workspace/domains/add", { domains: ["a.com"] }],
      ["/v2/workspace/domains/get", {}],
      ["/v2/workspace/domains/delete", { domains: ["a.com"] }],
      ["/v1/workspace/domains/delete", { domains: ["a.com"] }],
      ["/v2/workspace/permissionproviderconfig/get", {}],
      ["/v2/workspace/permissionproviderconfig/update", { usePermissionProvider: true }],
      ["/v2/workspace/notificationconfig/get", {}],
      ["/v2/workspace/notificationconfig/update", { useNotificationService: true }]
    ]
    for (const [path, data] of calls) {
      const none = await client.post(path, data)
      expect(none.status, path).toBe(403)
      expect(none.body, path).toEqual(NOT_AUTHENTICATED)
      const wrong = await client.post(path, data, { ...creds.headers, "x-service-auth-token": "wrong" })
      expect(wrong.status, path).toBe(403)
      expect(wrong.body, path).toEqual(NOT_AUTHENTICATED)
    }
    // Nothing was written by the refused calls.
    expect((await post("/v2/workspace/domains/get", {}, creds.headers)).body.result.data).toEqual({ allowedDomains: [] })
  })

  describe("allowed domains", () => {
    it("adds normalized domains and lists them", async () => {
      const creds = await ctx().workspace()
      const empty = await post("/v2/workspace/domains/get", {}, creds.headers)
      expect(empty.body).toEqual({ result: { status: "success", message: "Allowed domains retrieved successfully.", data: { allowedDomains: [] } } })

      const added = await post("/v2/workspace/domains/add", { domains: ["https://www.google.com/path?q=1", "https://*.firebase.com", "GOOGLE.com"] }, creds.headers)
      expect(added.status).toBe(200)
      expect(added.body).toEqual({
        result: { status: "success", message: "Domain(s) added successfully to allowed domains.", data: { domainsAdded: ["google.com", "*.firebase.com"] } }
      })
      const v1 = await post("/v1/workspace/domains/add", { domains: ["localhost:3000"] }, creds.headers)
      expect(v1.status).toBe(200)
      expect(v1.body.result.data).toEqual({ domainsAdded: ["localhost:3000"] })

      const got = await post("/v2/workspace/domains/get", {}, creds.headers)
      expect([...got.body.result.data.allowedDomains].sort()).toEqual(["*.firebase.com", "google.com", "localhost:3000"])
      expect(got.body.result.data.allowedDomains.at(-1)).toBe("localhost:3000") // added last, listed last
    })

    it("answers INTERNAL with both lists when some already exist, and still adds the new ones", async () => {
      const creds = await ctx().workspace()
      await post("/v2/workspace/domains/add", { domains: ["google.com"] }, creds.headers)
      const partial = await post("/v2/workspace/domains/add", { domains: ["https://www.google.com", "new.com"] }, creds.headers)
      expect(partial.status).toBe(500)
      expect(partial.body).toEqual({
        error: {
          status: "INTERNAL",
          message: "Domain(s) added successfully to allowed domains. Skipped existing domains.",
          details: { domainsAdded: ["new.com"], skippedDomains: ["google.com"] }
        }
      })
      const got = await post("/v2/workspace/domains/get", {}, creds.headers)
      expect([...got.body.result.data.allowedDomains].sort()).toEqual(["google.com", "new.com"])
    })

    it("refuses an invalid entry, naming it, and adds nothing", async () => {
      const creds = await ctx().workspace()
      const bad = await post("/v2/workspace/domains/add", { domains: ["good.com", "not a domain"] }, creds.headers)
      expect(bad.status).toBe(400)
      expect(bad.body.error.status).toBe("INVALID_ARGUMENT")
      expect(bad.body.error.message).toContain("data.domains[1]")
      expect(bad.body.error.message).toContain("not a domain")
      expect((await post("/v2/workspace/domains/get", {}, creds.headers)).body.result.data.allowedDomains).toEqual([])

      const badDelete = await post("/v2/workspace/domains/delete", { domains: ["http://"] }, creds.headers)
      expect(badDelete.status).toBe(400)
      expect(badDelete.body.error.message).toContain("data.domains[0]")
    })

    it("takes 1 to 100 domains per add", async () => {
      const creds = await ctx().workspace()
      const over = await post("/v2/workspace/domains/add", { domains: domainList(101) }, creds.headers)
      expect(over.status).toBe(400)
      expect(over.body.error.status).toBe("INVALID_ARGUMENT")
      expect(over.body.error.message).toContain("data.domains")
      expect(over.body.error.message).toContain("at most 100")
      const none = await post("/v2/workspace/domains/add", { domains: [] }, creds.headers)
      expect(none.status).toBe(400)
      expect(none.body.error.message).toContain("data.domains")
      const missing = await post("/v2/workspace/domains/add", {}, creds.headers)
      expect(missing.status).toBe(400)
      expect(missing.body.error.message).toContain("data.domains")
      const at = await post("/v2/workspace/domains/add", { domains: domainList(100) }, creds.headers)
      expect(at.status).toBe(200)
      expect(at.body.result.data.domainsAdded).toHaveLength(100)
    })

    it("removes domains given as URLs or bare domains, answering the normalized forms", async () => {
      const creds = await ctx().workspace()
      await post("/v2/workspace/domains/add", { domains: ["google.com", "*.firebase.com", "keep.com"] }, creds.headers)
      const removed = await post("/v2/workspace/domains/delete", { domains: ["https://www.google.com", "https://*.firebase.com"] }, creds.headers)
      expect(removed.status).toBe(200)
      expect(removed.body).toEqual({
        result: {
          status: "success",
          message: "Domain(s) removed successfully from allowed domains.",
          data: { domainsRemoved: ["google.com", "*.firebase.com"] }
        }
      })
      expect((await post("/v2/workspace/domains/get", {}, creds.headers)).body.result.data.allowedDomains).toEqual(["keep.com"])
    })

    for (const path of ["/v2/workspace/domains/delete", "/v1/workspace/domains/delete"]) {
      it(`${path}: answers INTERNAL (HTTP 500) with both lists when some are not allowed, and still removes the others`, async () => {
        const creds = await ctx().workspace()
        await post("/v2/workspace/domains/add", { domains: ["velt.dev", "other.dev"] }, creds.headers)
        const partial = await post(path, { domains: ["velt.dev", "https://www.google.com"] }, creds.headers)
        expect(partial.status).toBe(500)
        expect(partial.body).toEqual({
          error: {
            status: "INTERNAL",
            message: "Domain(s) removed successfully from allowed domains. Skipped non-existing domains.",
            details: { domainsRemoved: ["velt.dev"], skippedDomains: ["google.com"] }
          }
        })
        expect((await post("/v2/workspace/domains/get", {}, creds.headers)).body.result.data.allowedDomains).toEqual(["other.dev"])
      })
    }

    it("v1 delete answers the same success shape", async () => {
      const creds = await ctx().workspace()
      await post("/v2/workspace/domains/add", { domains: ["a.com"] }, creds.headers)
      const removed = await post("/v1/workspace/domains/delete", { domains: ["a.com"] }, creds.headers)
      expect(removed.status).toBe(200)
      expect(removed.body.result).toEqual({
        status: "success",
        message: "Domain(s) removed successfully from allowed domains.",
        data: { domainsRemoved: ["a.com"] }
      })
    })

    it("takes at most 100 domains per delete", async () => {
      const creds = await ctx().workspace()
      await post("/v2/workspace/domains/add", { domains: domainList(100) }, creds.headers)
      const over = await post("/v2/workspace/domains/delete", { domains: domainList(101) }, creds.headers)
      expect(over.status).toBe(400)
      expect(over.body.error.status).toBe("INVALID_ARGUMENT")
      expect(over.body.error.message).toContain("data.domains")
      expect(over.body.error.message).toContain("at most 100")
      expect((await post("/v2/workspace/domains/get", {}, creds.headers)).body.result.data.allowedDomains).toHaveLength(100)
      const at = await post("/v2/workspace/domains/delete", { domains: domainList(100) }, creds.headers)
      expect(at.status).toBe(200)
      expect(at.body.result.data.domainsRemoved).toEqual(domainList(100))
      expect((await post("/v2/workspace/domains/get", {}, creds.headers)).body.result.data.allowedDomains).toEqual([])
    })

    it("keeps each API key's domains apart", async () => {
      const a = await ctx().workspace()
      const b = await ctx().workspace()
      await post("/v2/workspace/domains/add", { domains: ["a-only.com"] }, a.headers)
      expect((await post("/v2/workspace/domains/get", {}, b.headers)).body.result.data.allowedDomains).toEqual([])
      const foreign = await post("/v2/workspace/domains/delete", { domains: ["a-only.com"] }, b.headers)
      expect(foreign.status).toBe(500)
      expect(foreign.body.error.details).toEqual({ domainsRemoved: [], skippedDomains: ["a-only.com"] })
      // b may allow the same domain independently.
      expect((await post("/v2/workspace/domains/add", { domains: ["a-only.com"] }, b.headers)).status).toBe(200)
      expect((await post("/v2/workspace/domains/get", {}, a.headers)).body.result.data.allowedDomains).toEqual(["a-only.com"])
    })
  })

  describe("permission provider settings", () => {
    const GET = "/v2/workspace/permissionproviderconfig/get"
    const UPDATE = "/v2/workspace/permissionproviderconfig/update"

    it("reads the defaults until set", async () => {
      const creds = await ctx().workspace()
      const got = await post(GET, {}, creds.headers)
      expect(got.status).toBe(200)
      expect(got.body).toEqual({
        result: {
          status: "success",
          message: "Permission provider configuration retrieved successfully.",
          data: { usePermissionProvider: false, permissionProviderConfig: { permissionProviderUrl: "", authToken: "" } }
        }
      })
    })

    it("enables over the seeded defaults and answers the stored settings", async () => {
      const creds = await ctx().workspace()
      const updated = await post(UPDATE, { usePermissionProvider: true }, creds.headers)
      expect(updated.status).toBe(200)
      const stored = { usePermissionProvider: true, permissionProviderConfig: { permissionProviderUrl: "", authToken: "" } }
      expect(updated.body).toEqual({
        result: { status: "success", message: "Permission provider configuration updated successfully.", data: stored }
      })
      expect((await post(GET, {}, creds.headers)).body.result.data).toEqual(stored)
    })

    it("merges partial updates and masks the auth token", async () => {
      const creds = await ctx().workspace()
      const token = "provider-secret-token-1234"
      const set = await post(UPDATE, { permissionProviderConfig: { permissionProviderUrl: "https://perm.example.com/check", authToken: token } }, creds.headers)
      expect(set.body.result.data).toEqual({
        usePermissionProvider: false,
        permissionProviderConfig: { permissionProviderUrl: "https://perm.example.com/check", authToken: "…1234" }
      })
      expect(set.text).not.toContain(token)

      const urlOnly = await post(UPDATE, { permissionProviderConfig: { permissionProviderUrl: "http://other.example.com" } }, creds.headers)
      expect(urlOnly.body.result.data.permissionProviderConfig).toEqual({ permissionProviderUrl: "http://other.example.com", authToken: "…1234" })

      await post(UPDATE, { usePermissionProvider: true }, creds.headers)
      const got = await post(GET, {}, creds.headers)
      expect(got.body.result.data).toEqual({
        usePermissionProvider: true,
        permissionProviderConfig: { permissionProviderUrl: "http://other.example.com", authToken: "…1234" }
      })
      expect(got.text).not.toContain(token)
    })

    it("shows only … for a short token, and keeps the stored token when its mask is sent back", async () => {
      const creds = await ctx().workspace()
      await post(UPDATE, { permissionProviderConfig: { authToken: "short" } }, creds.headers)
      expect((await post(GET, {}, creds.headers)).body.result.data.permissionProviderConfig.authToken).toBe("…")

      await post(UPDATE, { permissionProviderConfig: { authToken: "a-long-provider-token-wxyz" } }, creds.headers)
      const got = (await post(GET, {}, creds.headers)).body.result.data
      // A get → edit → update round trip: the mask "…wxyz" must not replace the token.
      const roundTrip = await post(UPDATE, { ...got, usePermissionProvider: true }, creds.headers)
      expect(roundTrip.body.result.data.permissionProviderConfig.authToken).toBe("…wxyz")
      // Had "…wxyz" (5 characters) been stored, its own mask would be "…".
      expect((await post(GET, {}, creds.headers)).body.result.data.permissionProviderConfig.authToken).toBe("…wxyz")

      const cleared = await post(UPDATE, { permissionProviderConfig: { authToken: "" } }, creds.headers)
      expect(cleared.body.result.data.permissionProviderConfig.authToken).toBe("")
    })

    it("refuses an invalid URL, accepts an empty one", async () => {
      const creds = await ctx().workspace()
      // One rule with webhook endpoint URLs: the scheme with its //, a host, no whitespace.
      for (const permissionProviderUrl of ["not a url", "ftp://example.com/x", "example.com", "http:example.com", " https://x.example.com", "https://x.example.com/a b", "https://"]) {
        const bad = await post(UPDATE, { permissionProviderConfig: { permissionProviderUrl } }, creds.headers)
        expect(bad.status, permissionProviderUrl).toBe(400)
        expect(bad.body.error.status).toBe("INVALID_ARGUMENT")
        expect(bad.body.error.message).toContain("Please enter a valid URL")
        expect(bad.body.error.message).toContain("data.permissionProviderConfig.permissionProviderUrl")
      }
      expect((await post(GET, {}, creds.headers)).body.result.data.permissionProviderConfig.permissionProviderUrl).toBe("")
      await post(UPDATE, { permissionProviderConfig: { permissionProviderUrl: "https://x.example.com" } }, creds.headers)
      const emptied = await post(UPDATE, { permissionProviderConfig: { permissionProviderUrl: "" } }, creds.headers)
      expect(emptied.status).toBe(200)
      expect(emptied.body.result.data.permissionProviderConfig.permissionProviderUrl).toBe("")
    })

    it("refuses an update with nothing to change, and unknown fields", async () => {
      const creds = await ctx().workspace()
      const empty = await post(UPDATE, {}, creds.headers)
      expect(empty.status).toBe(400)
      expect(empty.body.error).toEqual({
        status: "INVALID_ARGUMENT",
        message: "At least one of usePermissionProvider or permissionProviderConfig must be provided"
      })
      const unknown = await post(UPDATE, { permissionProviderConfig: { url: "https://x.com" } }, creds.headers)
      expect(unknown.status).toBe(400)
      expect(unknown.body.error.message).toContain("data.permissionProviderConfig.url")
    })

    it("keeps each API key's settings apart", async () => {
      const a = await ctx().workspace()
      const b = await ctx().workspace()
      await post(UPDATE, { usePermissionProvider: true, permissionProviderConfig: { permissionProviderUrl: "https://a.example.com" } }, a.headers)
      expect((await post(GET, {}, b.headers)).body.result.data).toEqual({
        usePermissionProvider: false,
        permissionProviderConfig: { permissionProviderUrl: "", authToken: "" }
      })
    })
  })

  describe("notification service settings", () => {
    const GET = "/v2/workspace/notificationconfig/get"
    const UPDATE = "/v2/workspace/notificationconfig/update"

    it("reads the defaults until set", async () => {
      const creds = await ctx().workspace()
      const got = await post(GET, {}, creds.headers)
      expect(got.status).toBe(200)
      expect(got.body).toEqual({
        result: { status: "success", message: "Notification configuration retrieved successfully.", data: DEFAULT_NOTIFICATION_CONFIG }
      })
    })

    it("seeds the triggers on the first enable, delay and batching stay off", async () => {
      const creds = await ctx().workspace()
      const enabled = await post(UPDATE, { useNotificationService: true }, creds.headers)
      expect(enabled.status).toBe(200)
      const expected = {
        ...DEFAULT_NOTIFICATION_CONFIG,
        useNotificationService: true,
        notificationServiceConfig: { ...DEFAULT_NOTIFICATION_CONFIG.notificationServiceConfig, triggers: SEEDED_TRIGGERS }
      }
      expect(enabled.body).toEqual({
        result: { status: "success", message: "Notification configuration updated successfully.", data: expected }
      })
      expect((await post(GET, {}, creds.headers)).body.result.data).toEqual(expected)
    })

    it("does not seed again after a disable, and keeps triggers set before the first enable", async () => {
      const creds = await ctx().workspace()
      const before = await post(UPDATE, { notificationServiceConfig: { triggers: { comment: { add: false, custom: true } } } }, creds.headers)
      expect(before.body.result.data.useNotificationService).toBe(false)
      expect(before.body.result.data.notificationServiceConfig.triggers).toEqual({ comment: { add: false, custom: true }, huddle: {} })

      const enabled = await post(UPDATE, { useNotificationService: true }, creds.headers)
      expect(enabled.body.result.data.notificationServiceConfig.triggers).toEqual({
        comment: { ...SEEDED_TRIGGERS.comment, add: false, custom: true },
        huddle: SEEDED_TRIGGERS.huddle
      })
      await post(UPDATE, { notificationServiceConfig: { triggers: { comment: { reply: false } } } }, creds.headers)
      await post(UPDATE, { useNotificationService: false }, creds.headers)
      const again = await post(UPDATE, { useNotificationService: true }, creds.headers)
      expect(again.body.result.data.notificationServiceConfig.triggers.comment).toEqual({
        ...SEEDED_TRIGGERS.comment,
        add: false,
        custom: true,
        reply: false
      })
    })

    it("merges a deep partial update over the stored settings", async () => {
      const creds = await ctx().workspace()
      await post(UPDATE, { notificationServiceConfig: { delayConfig: { delaySeconds: 30 } } }, creds.headers)
      await post(UPDATE, { notificationServiceConfig: { batchConfig: { user: { isEnabled: true, maxActivities: 10 } } } }, creds.headers)
      const last = await post(UPDATE, { notificationServiceConfig: { delayConfig: { isEnabled: true }, batchConfig: { document: { batchWindowSeconds: 300 } } } }, creds.headers)
      const expected = {
        useNotificationService: false,
        notificationServiceConfig: {
          triggers: { comment: {}, huddle: {} },
          delayConfig: { isEnabled: true, delaySeconds: 30 },
          batchConfig: {
            document: { isEnabled: false, batchWindowSeconds: 300, maxActivities: 2 },
            user: { isEnabled: true, batchWindowSeconds: 10, maxActivities: 10 }
          }
        }
      }
      expect(last.body.result.data).toEqual(expected)
      expect((await post(GET, {}, creds.headers)).body.result.data).toEqual(expected)
    })

    const limits: Array<{ field: string; patch: (n: number) => unknown; min: number; max: number }> = [
      {
        field: "data.notificationServiceConfig.delayConfig.delaySeconds",
        patch: (n) => ({ delayConfig: { delaySeconds: n } }),
        min: 10,
        max: 15_552_000
      },
      {
        field: "data.notificationServiceConfig.batchConfig.document.batchWindowSeconds",
        patch: (n) => ({ batchConfig: { document: { batchWindowSeconds: n } } }),
        min: 10,
        max: 604_800
      },
      {
        field: "data.notificationServiceConfig.batchConfig.user.batchWindowSeconds",
        patch: (n) => ({ batchConfig: { user: { batchWindowSeconds: n } } }),
        min: 10,
        max: 604_800
      },
      {
        field: "data.notificationServiceConfig.batchConfig.document.maxActivities",
        patch: (n) => ({ batchConfig: { document: { maxActivities: n } } }),
        min: 2,
        max: 50
      },
      {
        field: "data.notificationServiceConfig.batchConfig.user.maxActivities",
        patch: (n) => ({ batchConfig: { user: { maxActivities: n } } }),
        min: 2,
        max: 50
      }
    ]
    for (const { field, max, min, patch } of limits) {
      it(`${field}: integer ${min} to ${max}`, async () => {
        const creds = await ctx().workspace()
        for (const bad of [min - 1, max + 1, min + 0.5]) {
          const refused = await post(UPDATE, { notificationServiceConfig: patch(bad) }, creds.headers)
          expect(refused.status, String(bad)).toBe(400)
          expect(refused.body.error.status).toBe("INVALID_ARGUMENT")
          expect(refused.body.error.message).toContain(field)
        }
        expect((await post(GET, {}, creds.headers)).body.result.data).toEqual(DEFAULT_NOTIFICATION_CONFIG)
        for (const ok of [min, max]) {
          const accepted = await post(UPDATE, { notificationServiceConfig: patch(ok) }, creds.headers)
          expect(accepted.status, String(ok)).toBe(200)
          expect(JSON.stringify(accepted.body.result.data)).toContain(`:${ok}`)
        }
      })
    }

    it("refuses an update with nothing to change, and malformed triggers", async () => {
      const creds = await ctx().workspace()
      const empty = await post(UPDATE, {}, creds.headers)
      expect(empty.status).toBe(400)
      expect(empty.body.error).toEqual({
        status: "INVALID_ARGUMENT",
        message: "At least one of useNotificationService or notificationServiceConfig must be provided"
      })
      const wrongType = await post(UPDATE, { notificationServiceConfig: { triggers: { comment: { add: "yes" } } } }, creds.headers)
      expect(wrongType.status).toBe(400)
      expect(wrongType.body.error.message).toContain("data.notificationServiceConfig.triggers.comment.add")
      for (const name of ["", "x".repeat(101)]) {
        const badName = await post(UPDATE, { notificationServiceConfig: { triggers: { huddle: { [name]: true } } } }, creds.headers)
        expect(badName.status).toBe(400)
        expect(badName.body.error.message).toContain("data.notificationServiceConfig.triggers.huddle")
      }
      expect((await post(UPDATE, { notificationServiceConfig: { triggers: { huddle: { ["x".repeat(100)]: true } } } }, creds.headers)).status).toBe(200)
    })

    it("keeps each API key's settings apart", async () => {
      const a = await ctx().workspace()
      const b = await ctx().workspace()
      await post(UPDATE, { useNotificationService: true }, a.headers)
      expect((await post(GET, {}, b.headers)).body.result.data).toEqual(DEFAULT_NOTIFICATION_CONFIG)
    })
  })
})

/** The mails the backend's `CapturedMail` mailer kept, for one recipient. */
const mailsTo = async (atrium: AtriumHandler, to: string) => {
  // The mailer layer provides CapturedMail beside Mailer; the runtime keeps every service its layers build.
  const runtime = await atrium.runtime.runtime()
  const outbox = Option.getOrThrow(Context.getOption(runtime.context, CapturedMail))
  return Effect.runSync(Ref.get(outbox)).filter((mail) => mail.to === to)
}

let emailCounter = 0
const freshEmail = () => `person${++emailCounter}-${Math.random().toString(36).slice(2, 8)}@example.com`

const PER_EMAIL_LIMIT = 3
const SENT = { result: { status: "success", message: "Login link sent successfully", data: null } }

forEachBackend("workspace/email/send-login-link", (ctx) => {
  const send = (data: unknown) => ctx().client.post("/v2/workspace/email/send-login-link", data)

  it("mails an owner exactly one link under continueUrl, with no auth headers", async () => {
    const { atrium, workspace } = ctx()
    const email = freshEmail()
    await workspace(email)
    const answer = await send({ email, continueUrl: "https://console.example.com/welcome?from=mail" })
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual(SENT)

    const mails = await mailsTo(atrium, email)
    expect(mails).toHaveLength(1)
    const link = /https:\/\/console\.example\.com\/\S+/.exec(mails[0]!.text)?.[0]
    expect(link).toBeDefined()
    const url = new URL(link!)
    expect(url.pathname).toBe("/welcome")
    expect(url.searchParams.get("from")).toBe("mail")
    expect(url.searchParams.get("loginToken")).toMatch(/^[0-9A-Za-z]{32}$/)

    // Each request makes a new token.
    await send({ email, continueUrl: "http://localhost:5173/" })
    const both = await mailsTo(atrium, email)
    expect(both).toHaveLength(2)
    expect(both[1]!.text).toContain("http://localhost:5173/?loginToken=")
    expect(both[1]!.text).not.toContain(url.searchParams.get("loginToken")!)
  })

  it("answers the same to an email that owns no workspace, and sends nothing", async () => {
    const email = freshEmail()
    const answer = await send({ email, continueUrl: "https://console.example.com/" })
    expect(answer.status).toBe(200)
    expect(answer.body).toEqual(SENT)
    expect(await mailsTo(ctx().atrium, email)).toEqual([])
  })

  it("accepts only the configured console domain or localhost for continueUrl", async () => {
    const email = freshEmail()
    await ctx().workspace(email)
    for (const continueUrl of ["https://evil.example.com/", "https://sub.console.example.com/", "http://127.0.0.1:3000/"]) {
      const refused = await send({ email, continueUrl })
      expect(refused.status, continueUrl).toBe(400)
      expect(refused.body, continueUrl).toEqual({ error: { status: "INVALID_ARGUMENT", message: "The continueUrl domain is not allowed." } })
    }
    for (const continueUrl of ["not a url", "javascript:alert(1)", "ftp://console.example.com/"]) {
      const refused = await send({ email, continueUrl })
      expect(refused.status, continueUrl).toBe(400)
      expect(refused.body, continueUrl).toEqual({ error: { status: "INVALID_ARGUMENT", message: "Invalid url for continueUrl" } })
    }
    expect(await mailsTo(ctx().atrium, email)).toEqual([])
    expect((await send({ email, continueUrl: "http://localhost:8080/x" })).status).toBe(200)
  })

  it("refuses disposable email domains", async () => {
    const refused = await send({ email: "someone@mailinator.com", continueUrl: "https://console.example.com/" })
    expect(refused.status).toBe(400)
    expect(refused.body).toEqual({ error: { status: "INVALID_ARGUMENT", message: "This email domain is not supported." } })
  })

  it("requires a valid email and a continueUrl", async () => {
    const badEmail = await send({ email: "not-an-email", continueUrl: "https://console.example.com/" })
    expect(badEmail.status).toBe(400)
    expect(badEmail.body.error.message).toContain("data.email")
    const noUrl = await send({ email: freshEmail() })
    expect(noUrl.status).toBe(400)
    expect(noUrl.body.error.message).toContain("data.continueUrl")
  })

  it(`limits each email to ${PER_EMAIL_LIMIT} links per window, counting only requests that pass the checks`, async () => {
    const { atrium, workspace } = ctx()
    const email = freshEmail()
    await workspace(email)
    // Refused requests do not use up the budget.
    for (let i = 0; i < PER_EMAIL_LIMIT + 1; i++) {
      expect((await send({ email, continueUrl: "https://elsewhere.com/" })).status).toBe(400)
    }
    for (let i = 0; i < PER_EMAIL_LIMIT; i++) {
      expect((await send({ email, continueUrl: "https://console.example.com/" })).body).toEqual(SENT)
    }
    const over = await send({ email: email.toUpperCase(), continueUrl: "https://console.example.com/" })
    expect(over.status).toBe(429)
    expect(over.body).toEqual({ error: { status: "RESOURCE_EXHAUSTED", message: "Rate limit exceeded for this endpoint. Try again later." } })
    // Seconds until the window ends: within the configured hour.
    expect(Number(over.headers["retry-after"])).toBeGreaterThanOrEqual(1)
    expect(Number(over.headers["retry-after"])).toBeLessThanOrEqual(3600)
    expect(await mailsTo(atrium, email)).toHaveLength(PER_EMAIL_LIMIT)
    // Another email has its own budget.
    expect((await send({ email: freshEmail(), continueUrl: "https://console.example.com/" })).status).toBe(200)
  })
}, {
  mailer: CapturedMail.layer,
  options: {
    consoleDomain: "console.example.com",
    rateLimits: {
      loginLinkPerEmail: { limit: PER_EMAIL_LIMIT, windowMillis: 60 * 60 * 1000 },
      loginLinkPerIp: { limit: 1_000_000, windowMillis: 60 * 60 * 1000 }
    }
  }
})

// A mailer that cannot send (SMTP down): its failure must not tell an owner's email from any other.
const brokenMailer = Layer.succeed(Mailer, { delivers: true, send: () => Effect.die(new Error("SMTP is down")) })

forEachBackend("workspace/email/send-login-link with a mailer that fails", (ctx) => {
  it("answers an owner exactly as it answers anyone else, and keeps serving", async () => {
    const { client, workspace } = ctx()
    const owner = freshEmail()
    await workspace(owner)
    for (const email of [owner, freshEmail(), owner]) {
      const answer = await client.post("/v2/workspace/email/send-login-link", { email, continueUrl: "https://console.example.com/" })
      expect(answer.status, email).toBe(200)
      expect(answer.body, email).toEqual(SENT)
    }
  })
}, { mailer: brokenMailer, options: { consoleDomain: "console.example.com" } })

forEachBackend("workspace/email/status", (ctx) => {
  const status = (data: unknown) => ctx().client.post("/v2/workspace/email/status", data)

  it("is public: an owner's email is verified (Atrium asks no verification step); any other email is NOT_FOUND", async () => {
    const email = freshEmail()
    await ctx().workspace(email)
    const owner = await status({ ownerEmail: email.toUpperCase() })
    expect(owner.status).toBe(200)
    expect(owner.body).toEqual({ result: { status: "success", message: "Email verified and workspace reactivated", data: { verified: true } } })
    const stranger = await status({ ownerEmail: freshEmail() })
    expect(stranger.status).toBe(404)
    expect(stranger.body).toEqual({ error: { status: "NOT_FOUND", message: "User not found" } })
    for (const data of [{}, { ownerEmail: "not an email" }, { ownerEmail: email, extra: 1 }]) {
      const bad = await status(data)
      expect(bad.status, JSON.stringify(data)).toBe(400)
      expect(bad.body.error.status).toBe("INVALID_ARGUMENT")
    }
  })
})
