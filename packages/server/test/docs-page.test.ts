/**
 * GET /docs in a real browser: Debian's Chromium, headless, driven by playwright-core, against
 * `atrium serve` (the built command). Every operation renders with its examples, nothing is
 * requested from anywhere but the server, the page logs no error (a Content-Security-Policy
 * violation would be one), and a screenshot lands in test-output/docs-page.png.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { hasChromium, launchChromium } from "../../../test-support/Chromium.js"
import { killServerProcesses, type ServerProcess, startServerProcess } from "../../../test-support/ServerProcess.js"

const root = join(__dirname, "..", "..", "..")
const found = hasChromium("docs-page.test.ts")

describe.runIf(found)("GET /docs in Chromium", () => {
  const dir = mkdtempSync(join(tmpdir(), "atrium-docs-page-"))
  let server: ServerProcess
  let browser: Browser

  beforeAll(async () => {
    server = await startServerProcess([join(root, "packages/server/dist/cli.js"), "serve"], {
      env: { ...process.env, PORT: "0", DATABASE_URL: `sqlite:${join(dir, "atrium.db")}` }
    })
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    killServerProcesses()
    rmSync(dir, { recursive: true, force: true })
  })

  it("renders every operation with its examples from the server alone, and saves a screenshot", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
    const requested: Array<string> = []
    const problems: Array<string> = []
    page.on("request", (request) => requested.push(request.url()))
    page.on("console", (message) => message.type() === "error" && problems.push(message.text()))
    page.on("pageerror", (error) => problems.push(error.message))

    const answer = await page.goto(`${server.url}/docs`)
    expect(answer?.status()).toBe(200)
    // Redoc gives each operation a section `tag/<tag>/operation/<operationId>`.
    const operations = page.locator("[id*='/operation/']")
    await expect.poll(() => operations.count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(77)
    const document = await (await fetch(`${server.url}/openapi.json`)).json()
    const ids = Object.values(document.paths).map((item: any) => item.post.operationId as string)
    const rendered = await operations.evaluateAll((elements) => elements.map((element) => element.id.split("/operation/")[1]))
    expect(new Set(rendered)).toEqual(new Set(ids))

    // An operation's request and response samples are the recorded examples.
    await page.goto(`${server.url}/docs#tag/workspace/operation/workspaceCreate`)
    const section = page.locator("[id='tag/workspace/operation/workspaceCreate']")
    await expect.poll(() => section.innerText(), { timeout: 10_000 }).toContain("Create a workspace")
    await expect.poll(() => page.locator("body").innerText()).toContain("owner@acme.example")

    mkdirSync(join(root, "test-output"), { recursive: true })
    await page.screenshot({ path: join(root, "test-output", "docs-page.png") })

    const origin = new URL(server.url).origin
    const elsewhere = requested.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith("data:") && !url.startsWith("blob:"))
    expect(elsewhere).toEqual([])
    expect(requested).toEqual(expect.arrayContaining([`${origin}/openapi.json`, `${origin}/docs/redoc.standalone.js`]))
    expect(problems).toEqual([])
  }, 90_000)
})
