/**
 * Browsers calling the client API from other origins (spec client-api.md, "Conventions" 6;
 * docs/decisions.md, "Client API"): preflights answered by any key's allowed domains and
 * localhost, calls by their token's key's, errors readable by pages the preflight admits, and no
 * CORS header on the server API. Over every storage, in process and over HTTP.
 */
import { createTestWorkspace, directClient, testAtrium, type TestClient, type TestCredentials, type TestResponse, userHeadersFor } from "@atrium/core/testing"
import { SqliteStorage } from "@atrium/sql-sqlite"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { forEachBackend, type Started } from "../../../../test-support/backends.js"

const SESSION = "/v2/client/session/get"
const ALLOW_HEADERS = "authorization, content-type, traceparent"

/** The answer's CORS headers (and Vary), by name. */
const corsOf = (answer: TestResponse): Record<string, string> =>
  Object.fromEntries(Object.entries(answer.headers).filter(([name]) => name.startsWith("access-control-") || name === "vary"))

const preflightAdmitted = (origin: string) => ({
  "access-control-allow-origin": origin,
  "access-control-allow-methods": "POST",
  "access-control-allow-headers": ALLOW_HEADERS,
  "access-control-max-age": "7200",
  vary: "origin"
})
const callAdmitted = (origin: string) => ({ "access-control-allow-origin": origin, "access-control-expose-headers": "retry-after", vary: "origin" })
const onlyVary = { vary: "origin" }

const preflight = (client: TestClient, origin: string, path = SESSION) =>
  client.raw({
    method: "OPTIONS",
    path,
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization,content-type" }
  })

let run = 0
/** Domains of their own for each test: a preflight asks every key of the server. */
const tagged = () => `t${++run}-${Math.random().toString(36).slice(2, 8)}`

forEachBackend("CORS on the client API", (ctx: () => Started) => {
  const ok = async (creds: TestCredentials, path: string, data: unknown) => {
    const answer = await ctx().client.post(path, data, creds.headers)
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
    return answer.body.result
  }
  const addDomains = (creds: TestCredentials, domains: ReadonlyArray<string>) => ok(creds, "/v2/workspace/domains/add", { domains })
  const deleteDomains = (creds: TestCredentials, domains: ReadonlyArray<string>) => ok(creds, "/v2/workspace/domains/delete", { domains })
  const asUser = (user: Readonly<Record<string, string>>, origin: string | undefined, path = SESSION, data: unknown = {}) =>
    ctx().client.post(path, data, { ...user, ...(origin !== undefined && { origin }) })
  const preflightStatus = async (origin: string) => (await preflight(ctx().client, origin)).status

  it("a preflight from localhost, 127.0.0.1 or [::1], on any port and either scheme, is admitted with no domain listed", async () => {
    for (const origin of ["http://localhost:5173", "https://localhost", "http://127.0.0.1:8080", "http://[::1]:3000"]) {
      const answer = await preflight(ctx().client, origin)
      expect([answer.status, answer.text, corsOf(answer)]).toEqual([204, "", preflightAdmitted(origin)])
    }
  })

  it("a preflight from an origin no key lists is refused; domains/add admits it at once, domains/delete refuses it again", async () => {
    const creds = await ctx().workspace()
    const origin = `https://app.${tagged()}.example`
    const refused = await preflight(ctx().client, origin)
    expect([refused.status, refused.body, corsOf(refused)]).toEqual([
      403,
      { error: { status: "PERMISSION_DENIED", message: `Origin ${origin} is not allowed.` } },
      onlyVary
    ])
    await addDomains(creds, [origin + "/some/page"])
    const admitted = await preflight(ctx().client, origin)
    expect([admitted.status, corsOf(admitted)]).toEqual([204, preflightAdmitted(origin)])
    // Any client path, even one that does not exist: its call then gets a NOT_FOUND the page can read.
    expect((await preflight(ctx().client, origin, "/v2/client/no/such/operation")).status).toBe(204)
    await deleteDomains(creds, [origin])
    expect(await preflightStatus(origin)).toBe(403)
  })

  it("a call is answered to a page its token's key lists; one another key lists is refused before it runs, and one nobody lists unreadably", async () => {
    const [a, b] = [await ctx().workspace(), await ctx().workspace()]
    const tag = tagged()
    const [ofA, ofB, ofNobody] = [`https://a.${tag}.example`, `https://b.${tag}.example`, `https://c.${tag}.example`]
    await addDomains(a, [ofA])
    await addDomains(b, [ofB])
    const user = await userHeadersFor(ctx().client, a.headers, "ann")

    const admitted = await asUser(user, ofA)
    expect([admitted.status, admitted.body.result.data.user.userId, corsOf(admitted)]).toEqual([200, "ann", callAdmitted(ofA)])
    const local = await asUser(user, "http://localhost:3000")
    expect([local.status, corsOf(local)]).toEqual([200, callAdmitted("http://localhost:3000")])
    // Not from a page (a backend, an app): no Origin, nothing to admit.
    const noOrigin = await asUser(user, undefined)
    expect([noOrigin.status, corsOf(noOrigin)]).toEqual([200, onlyVary])

    const otherKeys = await asUser(user, ofB)
    const refusal = { error: { status: "PERMISSION_DENIED", message: `Origin ${ofB} is not an allowed domain of this API key.` } }
    // Its preflight passed (key B lists it), so the page may read why.
    expect([otherKeys.status, otherKeys.body, corsOf(otherKeys)]).toEqual([403, refusal, callAdmitted(ofB)])
    const nobodys = await asUser(user, ofNobody)
    expect([nobodys.status, nobodys.body.error.message, corsOf(nobodys)]).toEqual([403, `Origin ${ofNobody} is not an allowed domain of this API key.`, onlyVary])

    // Removed from A's list: A's tokens are refused there at the next call.
    await deleteDomains(a, [ofA])
    const removed = await asUser(user, ofA)
    expect([removed.status, corsOf(removed)]).toEqual([403, onlyVary])
    await addDomains(a, [ofA])
    expect((await asUser(user, ofA)).status).toBe(200)
  })

  it("errors on client paths are readable by pages the preflight admits (the SDK must see \"Token expired.\"), not by others", async () => {
    const creds = await ctx().workspace()
    const origin = `https://app.${tagged()}.example`
    const stranger = `https://stranger.${tagged()}.example`
    await addDomains(creds, [origin])
    const invalid = await asUser({ authorization: "Bearer x.y.z" }, origin)
    expect([invalid.status, invalid.body.error.message, corsOf(invalid)]).toEqual([401, "Invalid token.", callAdmitted(origin)])
    const invalidElsewhere = await asUser({ authorization: "Bearer x.y.z" }, stranger)
    expect([invalidElsewhere.status, corsOf(invalidElsewhere)]).toEqual([401, onlyVary])
    const unknown = await asUser({}, origin, "/v2/client/no/such/operation")
    expect([unknown.status, corsOf(unknown)]).toEqual([404, callAdmitted(origin)])
    const badBody = await ctx().client.raw({ path: SESSION, headers: { origin, "content-type": "text/plain" }, body: "{}" })
    expect([badBody.status, corsOf(badBody)]).toEqual([400, callAdmitted(origin)])
    // OPTIONS without Origin is no preflight: the method is refused as on any path.
    const bare = await ctx().client.raw({ method: "OPTIONS", path: SESSION })
    expect([bare.status, bare.body.error.message, corsOf(bare)]).toEqual([400, "Method OPTIONS is not allowed: every operation is a POST.", onlyVary])
  })

  it("the server API sends no CORS headers, whatever the origin", async () => {
    const creds = await ctx().workspace()
    const origin = `https://app.${tagged()}.example`
    await addDomains(creds, [origin])
    for (const from of [origin, "http://localhost:3000"]) {
      const served = await ctx().client.post("/v2/organizations/documents/get", { organizationId: "org" }, { ...creds.headers, origin: from })
      expect([served.status, corsOf(served)]).toEqual([200, {}])
      const options = await preflight(ctx().client, from, "/v2/organizations/documents/get")
      expect([options.status, options.body.error.message, corsOf(options)]).toEqual([400, "Method OPTIONS is not allowed: every operation is a POST.", {}])
      const refused = await ctx().client.post("/v2/organizations/documents/get", { organizationId: "org" }, { origin: from })
      expect([refused.status, corsOf(refused)]).toEqual([403, {}])
    }
    // A user's token on a server path is refused there, with no CORS header either.
    const user = await userHeadersFor(ctx().client, creds.headers, "ann")
    const onServer = await ctx().client.post("/v2/organizations/documents/get", { organizationId: "org" }, { ...user, origin })
    expect([onServer.status, corsOf(onServer)]).toEqual([403, {}])
  })

  it("matching: wildcards admit subdomains at any depth but not the domain, www. is the site, a port in the entry is the only one, the scheme does not count", async () => {
    const creds = await ctx().workspace()
    const tag = tagged()
    await addDomains(creds, [`*.wild-${tag}.example`, `https://www.site-${tag}.example`, `ported-${tag}.example:8443`, `tls-${tag}.example:443`])
    const expectations: ReadonlyArray<readonly [string, number]> = [
      [`https://a.wild-${tag}.example`, 204],
      [`https://a.b.wild-${tag}.example`, 204],
      [`https://www.wild-${tag}.example`, 204],
      [`https://wild-${tag}.example`, 403],
      [`https://site-${tag}.example`, 204],
      [`https://www.site-${tag}.example`, 204],
      [`http://site-${tag}.example:3000`, 204],
      [`https://sub.site-${tag}.example`, 403],
      [`https://ported-${tag}.example:8443`, 204],
      [`http://ported-${tag}.example:8443`, 204],
      [`https://ported-${tag}.example`, 403],
      [`https://ported-${tag}.example:8444`, 403],
      [`https://tls-${tag}.example`, 204],
      [`http://tls-${tag}.example`, 403],
      ["null", 403],
      [`https://site-${tag}.example/page`, 403],
      [`ftp://site-${tag}.example`, 403],
      [`https://site-${tag}.example.evil.example`, 403],
      [`https://evilsite-${tag}.example`, 403]
    ]
    const seen = []
    for (const [origin] of expectations) seen.push([origin, await preflightStatus(origin)] as const)
    expect(seen).toEqual(expectations)
  })

  it("a page served by the host that serves Atrium is its own origin: admitted with no domain listed", async () => {
    const creds = await ctx().workspace()
    const user = await userHeadersFor(ctx().client, creds.headers, "ann")
    const host = `atrium.${tagged()}.example`
    const call = (origin: string) =>
      ctx().atrium.handle({
        method: "POST",
        path: SESSION,
        headers: { ...user, host, origin, "content-type": "application/json" },
        body: JSON.stringify({ data: {} })
      })
    const same = await call(`https://${host}`)
    expect([same.status, same.headers["access-control-allow-origin"]]).toEqual([200, `https://${host}`])
    expect((await call(`https://other.${host}`)).status).toBe(403)
  })
})

describe("CORS across servers sharing a database", () => {
  const dir = mkdtempSync(join(tmpdir(), "atrium-cors-"))
  const filename = join(dir, "atrium.db")
  const first = testAtrium(SqliteStorage.layer({ filename }), { cacheTtlMillis: 200 })
  const second = testAtrium(SqliteStorage.layer({ filename }), { cacheTtlMillis: 200 })
  afterAll(async () => {
    await Promise.all([first.dispose(), second.dispose()])
    rmSync(dir, { recursive: true, force: true })
  })

  it("a domain one server adds is admitted by the other within cacheTtlMillis", async () => {
    await first.ready()
    const [one, two] = [directClient(first), directClient(second)]
    const creds = await createTestWorkspace(one)
    const origin = `https://app.${tagged()}.example`
    expect((await preflight(two, origin)).status).toBe(403) // now kept by the second server
    await one.post("/v2/workspace/domains/add", { domains: [origin] }, creds.headers)
    expect((await preflight(one, origin)).status).toBe(204) // the writer forgot at once
    await new Promise((resolve) => setTimeout(resolve, 250))
    expect((await preflight(two, origin)).status).toBe(204)
  })
})
