/**
 * @atrium/client in a real browser: Debian's Chromium, headless, via playwright-core. A page loads
 * the built ES module (packages/client/dist/index.js, as a bundler or a <script type="module">
 * would) and calls Atrium with the browser's own fetch: a workspace, an organization, a list, and a
 * typed error. The page and Atrium share an origin, as an admin page served beside Atrium would.
 */
import { createAtrium } from "@atrium/core"
import { CapturedMail, MemoryStorage } from "@atrium/core/testing"
import { toNodeListener } from "@atrium/node-http"
import { existsSync, readFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { join } from "node:path"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { listen } from "../../../test-support/backends.js"
import { hasChromium, launchChromium } from "../../../test-support/Chromium.js"

const bundle = join(__dirname, "..", "dist", "index.js")
const found = hasChromium("browser.test.ts")

const page = `<!doctype html>
<script type="module">
  import { createAtriumClient } from "/client.js"
  const anonymous = createAtriumClient({ baseUrl: location.origin })
  const created = await anonymous.workspaceCreate({ ownerEmail: "owner@acme.example" })
  const [apiKey, entry] = Object.entries(created.result.data.apiKeyList)[0]
  const client = anonymous.withOptions({ apiKey, authToken: entry.authToken })
  const added = await client.organizationsAdd({ organizations: [{ organizationId: "acme", organizationName: "Acme" }] })
  const listed = await client.organizationsGet({ organizationIds: ["acme"] })
  const missing = await client.organizationsFoldersGet({ organizationId: "acme", folderId: "nope" })
  window.outcomes = {
    added: added.result?.data,
    listed: listed.result?.data.map((organization) => organization.organizationName),
    missing: { name: missing.error?.name, status: missing.error?.status, httpStatus: missing.error?.httpStatus }
  }
</script>`

describe.runIf(found)("@atrium/client in Chromium", () => {
  const atrium = createAtrium({ storage: MemoryStorage, mailer: CapturedMail.layer })
  const api = toNodeListener(atrium)
  let server: Server
  let url: string
  let browser: Browser

  beforeAll(async () => {
    if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run pnpm -s build`)
    server = createServer((req, res) => {
      if (req.url === "/") return void res.writeHead(200, { "content-type": "text/html" }).end(page)
      if (req.url === "/client.js") return void res.writeHead(200, { "content-type": "text/javascript" }).end(readFileSync(bundle))
      api(req, res)
    })
    url = await listen(server)
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await new Promise((resolve) => server?.close(resolve))
    await atrium.dispose()
  })

  it("calls Atrium with the browser's fetch and gets results and typed errors", async () => {
    const tab = await browser.newPage()
    const problems: Array<string> = []
    tab.on("pageerror", (error) => problems.push(error.message))
    tab.on("console", (message) => message.type() === "error" && !message.text().includes("404") && problems.push(message.text()))
    await tab.goto(url)
    await tab.waitForFunction(() => (window as any).outcomes !== undefined, undefined, { timeout: 15_000 })
    const outcomes = await tab.evaluate(() => (window as any).outcomes)
    expect(problems).toEqual([])
    expect(outcomes).toEqual({
      added: { acme: { success: true, id: "acme", message: expect.any(String) } },
      listed: ["Acme"],
      missing: { name: "AtriumError", status: "NOT_FOUND", httpStatus: 404 }
    })
  }, 60_000)
})
