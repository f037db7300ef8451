/**
 * CORS as a browser enforces it (spec client-api.md, "Conventions" 6): Debian's Chromium, headless,
 * loads pages from other origins (host names mapped to loopback) that call the client API on
 * Atrium's own origin with fetch. A page at a listed domain, or on localhost, reads the answers,
 * errors included; a page anywhere else cannot, though its request carries a valid token.
 */
import { createTestWorkspace, directClient, MemoryStorage, testAtrium, userHeadersFor } from "@atrium/core/testing"
import { toNodeListener } from "@atrium/node-http"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { listen } from "../../../../test-support/backends.js"
import { hasChromium, launchChromium } from "../../../../test-support/Chromium.js"

const found = hasChromium("cors-browser.test.ts")

/** Calls `api` with `token` from the page and records what the page could read (or the error fetch threw). */
const page = `<!doctype html>
<script type="module">
  const query = new URLSearchParams(location.search)
  const call = async (token) => {
    try {
      const answer = await fetch(query.get("api") + "/v2/client/session/get", {
        method: "POST",
        headers: { authorization: "Bearer " + token, "content-type": "application/json" },
        body: JSON.stringify({ data: {} })
      })
      const body = await answer.json()
      return { status: answer.status, userId: body.result?.data.user.userId, error: body.error?.message }
    } catch (error) {
      return { thrown: error.name }
    }
  }
  window.outcomes = { valid: await call(query.get("token")), broken: await call("x.y.z") }
</script>`

describe.runIf(found)("CORS in Chromium", () => {
  const atrium = testAtrium(MemoryStorage)
  let apiServer: Server
  let pageServer: Server
  let browser: Browser
  let token = ""

  beforeAll(async () => {
    apiServer = createServer(toNodeListener(atrium))
    pageServer = createServer((_req, res) => void res.writeHead(200, { "content-type": "text/html" }).end(page))
    await Promise.all([listen(apiServer), listen(pageServer)])
    const client = directClient(atrium)
    const creds = await createTestWorkspace(client)
    await client.post("/v2/workspace/domains/add", { domains: ["app.cors.test"] }, creds.headers)
    token = (await userHeadersFor(client, creds.headers, "ann")).authorization!.slice("Bearer ".length)
    browser = await launchChromium(["--host-resolver-rules=MAP *.cors.test 127.0.0.1"])
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await Promise.all([apiServer, pageServer].map((server) => new Promise((resolve) => server?.close(resolve))))
    await atrium.dispose()
  })

  const outcomesAt = async (pageHost: string) => {
    const port = (server: Server) => (server.address() as AddressInfo).port
    const tab = await browser.newPage()
    const api = `http://api.cors.test:${port(apiServer)}`
    await tab.goto(`http://${pageHost}:${port(pageServer)}/?api=${encodeURIComponent(api)}&token=${token}`)
    await tab.waitForFunction(() => (window as any).outcomes !== undefined, undefined, { timeout: 15_000 })
    const outcomes = await tab.evaluate(() => (window as any).outcomes)
    await tab.close()
    return outcomes
  }

  it("a page at a listed domain reads the answer, and an error's message", async () => {
    expect(await outcomesAt("app.cors.test")).toEqual({
      valid: { status: 200, userId: "ann" },
      broken: { status: 401, error: "Invalid token." }
    })
  }, 60_000)

  it("a page on localhost does too, with no domain listed", async () => {
    expect((await outcomesAt("localhost")).valid).toEqual({ status: 200, userId: "ann" })
  }, 60_000)

  it("a page at an unlisted domain reads nothing: the browser refuses the preflight's answer", async () => {
    expect(await outcomesAt("elsewhere.cors.test")).toEqual({ valid: { thrown: "TypeError" }, broken: { thrown: "TypeError" } })
  }, 60_000)
})
