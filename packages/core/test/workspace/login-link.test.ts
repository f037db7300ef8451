import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"
import * as TestClock from "effect/TestClock"
import { atriumLayer } from "../../src/Atrium.js"
import type { AtriumOptionsInput } from "../../src/Config.js"
import { hashSecret } from "../../src/crypto/Secrets.js"
import { Ids } from "../../src/ports/Ids.js"
import { CapturedMail, MemoryStorage } from "../../src/testing/index.js"
import { Workspaces } from "../../src/workspace/Workspaces.js"
import { LOGIN_LINK_TTL_MILLIS, WorkspaceSettings } from "../../src/workspace/WorkspaceSettings.js"

const MINUTE = 60_000

/** Atrium over memory storage, with the store and the captured mail visible to the test (each layer is built once). */
const testLayer = (options: AtriumOptionsInput) =>
  Layer.mergeAll(
    atriumLayer({ storage: MemoryStorage, mailer: CapturedMail.layer, ids: Ids.Sequential, options }),
    MemoryStorage,
    CapturedMail.layer
  )

const CONTINUE_URL = "http://localhost:3000/"

const send = (email: string, ip = "10.0.0.1") => WorkspaceSettings.sendLoginLink({ email, continueUrl: CONTINUE_URL }, ip)

const rejection = (effect: Effect.Effect<unknown, { readonly status: string; readonly message: string }, any>) =>
  Effect.map(Effect.flip(effect), (error) => ({ status: error.status, message: error.message }))

const EXHAUSTED = { status: "RESOURCE_EXHAUSTED", message: "Rate limit exceeded for this endpoint. Try again later." }

const mailCount = Effect.flatMap(CapturedMail, Ref.get).pipe(Effect.map((mails) => mails.length))

/** The stored login links, as the store holds them. */
const loginLinks = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<{ readonly tokenHash: string; readonly email: string; readonly createdAt: number; readonly expiresAt: number }>`
    SELECT token_hash AS "tokenHash", email, created_at AS "createdAt", expires_at AS "expiresAt" FROM login_links ORDER BY created_at`
).pipe(Effect.orDie)

describe("send-login-link rate limits", () => {
  it.effect("limits an email per window and allows it again once the window has passed", () =>
    Effect.gen(function*() {
      yield* Workspaces.create({ ownerEmail: "owner@example.com" }, "10.0.0.1")
      yield* send("owner@example.com")
      yield* send("owner@example.com")
      expect(yield* rejection(send("owner@example.com", "10.0.0.2"))).toEqual(EXHAUSTED)
      expect(yield* mailCount).toBe(2)

      yield* TestClock.adjust(MINUTE - 1)
      expect(yield* rejection(send("owner@example.com"))).toEqual(EXHAUSTED)
      yield* TestClock.adjust(1)
      yield* send("owner@example.com")
      expect(yield* mailCount).toBe(3)
    }).pipe(Effect.provide(testLayer({
      rateLimits: { loginLinkPerEmail: { limit: 2, windowMillis: MINUTE }, loginLinkPerIp: { limit: 100, windowMillis: MINUTE } }
    }))))

  it.effect("limits an IP per window across emails", () =>
    Effect.gen(function*() {
      yield* send("a@example.com", "10.0.0.9")
      yield* send("b@example.com", "10.0.0.9")
      expect(yield* rejection(send("c@example.com", "10.0.0.9"))).toEqual(EXHAUSTED)
      yield* send("c@example.com", "10.0.0.10")
      yield* TestClock.adjust(MINUTE)
      yield* send("d@example.com", "10.0.0.9")
    }).pipe(Effect.provide(testLayer({
      rateLimits: { loginLinkPerEmail: { limit: 100, windowMillis: MINUTE }, loginLinkPerIp: { limit: 2, windowMillis: MINUTE } }
    }))))
})

describe("email/status rate limit", () => {
  it.effect("limits a client address per window with the login link's budget, apart from the login link's own count", () =>
    Effect.gen(function*() {
      yield* Workspaces.create({ ownerEmail: "owner@example.com" }, "10.0.0.1")
      const status = (ip: string) => WorkspaceSettings.emailStatus({ ownerEmail: "owner@example.com" }, ip)
      expect(yield* status("10.0.0.9")).toEqual({ verified: true })
      expect(yield* rejection(WorkspaceSettings.emailStatus({ ownerEmail: "nobody@example.com" }, "10.0.0.9"))).toEqual({ status: "NOT_FOUND", message: "User not found" })
      expect(yield* rejection(status("10.0.0.9"))).toEqual(EXHAUSTED)
      yield* status("10.0.0.10")
      yield* send("owner@example.com", "10.0.0.9")
      yield* TestClock.adjust(MINUTE)
      expect(yield* status("10.0.0.9")).toEqual({ verified: true })
    }).pipe(Effect.provide(testLayer({
      rateLimits: { loginLinkPerEmail: { limit: 100, windowMillis: MINUTE }, loginLinkPerIp: { limit: 2, windowMillis: MINUTE } }
    }))))
})

describe("send-login-link tokens", () => {
  it.effect("stores only the token's hash, valid for 15 minutes, and drops expired links", () =>
    Effect.gen(function*() {
      yield* Workspaces.create({ ownerEmail: "owner@example.com" }, "10.0.0.1")
      yield* TestClock.adjust(5 * MINUTE)
      yield* send("owner@example.com")
      const [mail] = yield* Effect.flatMap(CapturedMail, Ref.get)
      const token = new URL(/http:\/\/localhost:3000\/\S+/.exec(mail!.text)![0]).searchParams.get("loginToken")!
      const [stored] = yield* loginLinks
      expect(stored).toEqual({
        tokenHash: hashSecret(token),
        email: "owner@example.com",
        createdAt: 5 * MINUTE,
        expiresAt: 5 * MINUTE + LOGIN_LINK_TTL_MILLIS
      })
      expect(LOGIN_LINK_TTL_MILLIS).toBe(15 * MINUTE)

      // Still live one millisecond before expiry: kept beside the new link.
      yield* TestClock.adjust(LOGIN_LINK_TTL_MILLIS - 1)
      yield* send("owner@example.com")
      expect(yield* loginLinks).toHaveLength(2)
      // Once expired it is dropped when the next link is made.
      yield* TestClock.adjust(1)
      yield* send("owner@example.com")
      const live = yield* loginLinks
      expect(live).toHaveLength(2)
      expect(live.map((link) => link.tokenHash)).not.toContain(hashSecret(token))
    }).pipe(Effect.provide(testLayer({}))))

  it.effect("mails an owner who writes the email in another case", () =>
    Effect.gen(function*() {
      yield* Workspaces.create({ ownerEmail: "Owner@Example.com" }, "10.0.0.1")
      yield* send("OWNER@example.COM")
      expect(yield* mailCount).toBe(1)
    }).pipe(Effect.provide(testLayer({}))))

  it.effect("makes no link for an email that owns no workspace", () =>
    Effect.gen(function*() {
      yield* send("nobody@example.com")
      expect(yield* loginLinks).toEqual([])
      expect(yield* mailCount).toBe(0)
    }).pipe(Effect.provide(testLayer({}))))
})
