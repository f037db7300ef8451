/**
 * @atrium/browser in a real browser: Debian's Chromium, headless, via playwright-core. A page
 * loads the built ES module (dist/index.js, as a bundler or a <script type="module"> would) and,
 * as the signed-in user Ann, calls session/get, access/get and presence/get with the browser's own
 * fetch, its token from the host's endpoint: first one that expired (Atrium answers token_expired,
 * the SDK asks once more and makes the three calls again), then a fresh one. The page, the
 * host's endpoint and Atrium share an origin, as an app served beside Atrium would.
 */
import { existsSync } from "node:fs"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { hasChromium, launchChromium } from "../../../test-support/Chromium.js"
import { bundlePath as bundle, type Host, pageRoutes, startHost } from "./host.js"

const found = hasChromium("browser.test.ts")

const page = `<!doctype html>
<script type="module">
  import { createClient } from "/atrium-browser.js"
  let asked = 0
  const atrium = createClient({
    baseUrl: location.origin,
    // The host app's way to its user's token: its own backend.
    getToken: async () => {
      asked++
      const response = await fetch("/host/atrium-token", { method: "POST" })
      return response.text()
    }
  })
  const [session, access, presence] = await Promise.all([
    atrium.sessionGet(),
    atrium.accessGet({ organizationId: "acme", documentIds: ["spec-42", "spec-43"] }),
    atrium.presenceGet({ organizationId: "acme", documentId: "spec-42" })
  ])
  const refused = await atrium.presenceGet({ organizationId: "acme" })
  window.outcomes = {
    asked,
    session: session.result?.data.user,
    access: access.result?.data,
    presence: presence.result?.data.map((entry) => [entry.userId, entry.status]),
    refused: { name: refused.error?.name, status: refused.error?.status, httpStatus: refused.error?.httpStatus, isError: refused.error instanceof Error }
  }
</script>`

describe.runIf(found)("@atrium/browser in Chromium", () => {
  let host: Host
  let browser: Browser
  let tokensGiven = 0

  beforeAll(async () => {
    if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run pnpm -s build`)
    // The host's backend: the first token it gives has already expired, the next ones are fresh.
    host = await startHost(pageRoutes(page, () => tokensGiven++ === 0 ? host.tokenIssuedAgo("ann", 120, 60) : host.token("ann")))
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await host?.stop()
  })

  it("calls the client API with the browser's fetch, renews an expired token once, and gives typed errors", async () => {
    const tab = await browser.newPage()
    const problems: Array<string> = []
    tab.on("pageerror", (error) => problems.push(error.message))
    // The expired token's 401s and the refused call's 400 are logged by Chromium as failed loads.
    tab.on("console", (message) => message.type() === "error" && !/status of (400|401)/.test(message.text()) && problems.push(message.text()))
    await tab.goto(host.url)
    await tab.waitForFunction(() => (window as any).outcomes !== undefined, undefined, { timeout: 15_000 })
    const outcomes = await tab.evaluate(() => (window as any).outcomes)
    expect(problems).toEqual([])
    expect(outcomes).toEqual({
      asked: 2,
      session: { userId: "ann", name: "User ann", email: "ann@acme.example", isAdmin: false },
      access: { "spec-42": { accessRole: "editor" }, "spec-43": { accessRole: "editor" } },
      presence: [["ann", "online"], ["bo", "online"]],
      refused: { name: "AtriumError", status: "INVALID_ARGUMENT", httpStatus: 400, isError: true }
    })
    expect(tokensGiven).toBe(2)
  }, 60_000)
})
