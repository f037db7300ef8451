/**
 * The token rules of @atrium/browser against a real Atrium over node:http: `getToken` is asked at
 * the first call and shared by concurrent calls, asked again before the token expires, and once
 * more when Atrium answers `token_expired` (the call made again once); a host whose `getToken`
 * fails gets an error value, never a rejection. Which user answers session/get shows which token
 * a call carried.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createClient, type GetToken, orThrow, type Outcome } from "../src/index.js"
import { renewalTime } from "../src/TokenCache.js"
import { type Host, startHost } from "./host.js"

let host: Host
beforeAll(async () => {
  host = await startHost()
})
afterAll(() => host?.stop())

/** A getToken that gives `tokens` in turn (the last one from then on) and counts its calls, with a fetch that records each request. */
const clientWith = (tokens: ReadonlyArray<string | (() => string | Promise<string>)>) => {
  const asked = { count: 0 }
  const requests: Array<{ authorization: string | null; status: number }> = []
  const getToken: GetToken = () => {
    const next = tokens[Math.min(asked.count++, tokens.length - 1)]!
    return typeof next === "string" ? next : next()
  }
  const recording: typeof fetch = async (input, init) => {
    const response = await fetch(input, init)
    requests.push({ authorization: new Headers(init?.headers).get("authorization"), status: response.status })
    return response
  }
  return { atrium: createClient({ baseUrl: host.url, getToken, fetch: recording }), asked, requests }
}

/** The user session/get answers for: which token the call carried. */
const userOf = async (outcome: Promise<Outcome<"sessionGet">>) => (await orThrow(outcome)).data.user.userId

describe("@atrium/browser tokens", () => {
  it("asks getToken once for concurrent calls, sends it as a bearer token and keeps it", async () => {
    const ann = await host.token("ann")
    const { atrium, asked, requests } = clientWith([ann])
    const users = await Promise.all(Array.from({ length: 5 }, () => userOf(atrium.sessionGet())))
    expect(users).toEqual(["ann", "ann", "ann", "ann", "ann"])
    expect(await userOf(atrium.sessionGet())).toBe("ann")
    expect(asked.count).toBe(1)
    expect(requests.map((request) => request.authorization)).toEqual(Array(6).fill(`Bearer ${ann}`))
  })

  it("asks again before the token expires: one with 10 s left serves the call it was asked for, the next call gets a new one", async () => {
    const { atrium, asked, requests } = clientWith([await host.tokenIssuedAgo("ann", 3590, 3600), await host.token("bo")])
    expect(await userOf(atrium.sessionGet())).toBe("ann")
    expect(await userOf(atrium.sessionGet())).toBe("bo")
    expect(await userOf(atrium.sessionGet())).toBe("bo")
    expect(asked.count).toBe(2)
    expect(requests.map((request) => request.status)).toEqual([200, 200, 200])
  })

  it("renews a minute before expiry, or halfway through a shorter life", async () => {
    const decode = (token: string) => JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as { exp: number }
    const twoDays = await host.token("ann")
    expect(renewalTime(twoDays)).toBe(decode(twoDays).exp * 1000 - 60_000)
    const minute = await host.token("ann", 60)
    expect(renewalTime(minute)).toBe(decode(minute).exp * 1000 - 30_000)
    // A 60-second token is not renewed before every call.
    const { atrium, asked } = clientWith([minute])
    await userOf(atrium.sessionGet())
    await userOf(atrium.sessionGet())
    expect(asked.count).toBe(1)
    // A token that says no expiry is kept until Atrium answers token_expired.
    expect(renewalTime("opaque")).toBe(Number.POSITIVE_INFINITY)
  })

  it("on token_expired asks once more and makes the call again with the new token", async () => {
    const { atrium, asked, requests } = clientWith([await host.tokenIssuedAgo("ann", 120, 60), await host.token("bo")])
    expect(await userOf(atrium.sessionGet())).toBe("bo")
    expect(asked.count).toBe(2)
    expect(requests.map((request) => request.status)).toEqual([401, 200])
  })

  it("concurrent calls that meet token_expired share one renewal", async () => {
    const { atrium, asked, requests } = clientWith([await host.tokenIssuedAgo("ann", 120, 60), await host.token("bo")])
    const users = await Promise.all([
      userOf(atrium.sessionGet()),
      userOf(atrium.sessionGet()),
      atrium.accessGet({ organizationId: "acme", documentIds: ["spec-42"] }).then((outcome) => outcome.result?.data),
      atrium.presenceGet({ organizationId: "acme", documentId: "spec-42" }).then((outcome) => outcome.result?.data.map((entry) => entry.userId))
    ])
    expect(users).toEqual(["bo", "bo", { "spec-42": { accessRole: "editor" } }, ["ann", "bo"]])
    expect(asked.count).toBe(2)
    expect(requests.map((request) => request.status).sort()).toEqual([200, 200, 200, 200, 401, 401, 401, 401])
  })

  it("retries once: a host that keeps giving the expired token gets Atrium's UNAUTHENTICATED token_expired", async () => {
    const { atrium, asked, requests } = clientWith([await host.tokenIssuedAgo("ann", 120, 60)])
    const outcome = await atrium.sessionGet()
    expect(outcome.error).toMatchObject({
      name: "AtriumError",
      status: "UNAUTHENTICATED",
      httpStatus: 401,
      message: "Token expired.",
      details: { reason: "token_expired" },
      operation: "sessionGet"
    })
    expect(asked.count).toBe(2)
    expect(requests).toHaveLength(2)
  })

  it("does not ask again for a token Atrium refuses for another reason", async () => {
    const { atrium, asked, requests } = clientWith(["not-a-token"])
    const outcome = await atrium.sessionGet()
    expect(outcome.error).toMatchObject({ status: "UNAUTHENTICATED", httpStatus: 401, message: "Invalid token." })
    expect(asked.count).toBe(1)
    expect(requests).toHaveLength(1)
  })

  it("answers a failing getToken with an UNAUTHENTICATED error value, and asks again at the next call", async () => {
    const ann = await host.token("ann")
    const failures = [
      () => Promise.reject(new Error("session ended")),
      () => {
        throw new Error("no user signed in")
      },
      () => ""
    ]
    const { atrium, asked, requests } = clientWith([...failures, ann])
    const messages: Array<string> = []
    for (const _ of failures) {
      const outcome = await atrium.sessionGet()
      expect(outcome.error).toMatchObject({ name: "AtriumError", status: "UNAUTHENTICATED", httpStatus: 0, details: { reason: "get_token_failed" } })
      expect(outcome.error!.cause).toBeInstanceOf(Error)
      messages.push(outcome.error!.message)
    }
    expect(messages).toEqual([
      "getToken failed: session ended",
      "getToken failed: no user signed in",
      "getToken failed: getToken gave an empty string, not a token."
    ])
    expect(requests).toHaveLength(0)
    expect(await userOf(atrium.sessionGet())).toBe("ann")
    expect(asked.count).toBe(4)
  })

  it("renews after token_expired even when the renewal failed once", async () => {
    const expired = await host.tokenIssuedAgo("ann", 120, 60)
    const { atrium, asked } = clientWith([expired, () => Promise.reject(new Error("offline")), await host.token("bo")])
    expect((await atrium.sessionGet()).error).toMatchObject({ status: "UNAUTHENTICATED", httpStatus: 0, message: "getToken failed: offline" })
    // The refused token is not sent again: the next call asks first.
    expect(await userOf(atrium.sessionGet())).toBe("bo")
    expect(asked.count).toBe(3)
  })
})
