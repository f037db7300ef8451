/**
 * GET /docs in a real browser: Debian's Chromium, headless, driven by playwright-core, against
 * `atrium serve` (the built command) and an Express app mounting Atrium at /collab. Every
 * operation renders (with its examples from `atrium serve`), nothing is requested from anywhere
 * but the server (under the mount path), the page logs no error (a Content-Security-Policy
 * violation would be one), and a screenshot lands in test-output/docs-page.png.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { MemoryStorage, testAtrium } from "@atrium/core/testing"
import { atrium } from "@atrium/express"
import express from "express"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import type { Browser, Page } from "playwright-core"
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

  /** Opens `<mount>/docs` and checks every operation of `/openapi.json` renders, from the mount alone and without an error. */
  const rendersEveryOperation = async (mount: string, check: (page: Page) => Promise<void> = async () => {}) => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } })
    const requested: Array<string> = []
    const problems: Array<string> = []
    page.on("request", (request) => requested.push(request.url()))
    page.on("console", (message) => message.type() === "error" && problems.push(message.text()))
    page.on("pageerror", (error) => problems.push(error.message))

    const answer = await page.goto(`${mount}/docs`)
    expect(answer?.status()).toBe(200)
    // Redoc gives each operation a section `tag/<tag>/operation/<operationId>`.
    const operations = page.locator("[id*='/operation/']")
    await expect.poll(() => operations.count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(77)
    const document = await (await fetch(`${mount}/openapi.json`)).json()
    const ids = Object.values(document.paths).map((item: any) => item.post.operationId as string)
    const rendered = await operations.evaluateAll((elements) => elements.map((element) => element.id.split("/operation/")[1]))
    expect(new Set(rendered)).toEqual(new Set(ids))
    await check(page)

    const elsewhere = requested.filter((url) => !url.startsWith(`${mount}/`) && !url.startsWith("data:") && !url.startsWith("blob:"))
    expect(elsewhere).toEqual([])
    expect(requested).toEqual(expect.arrayContaining([`${mount}/openapi.json`, `${mount}/docs/redoc.standalone.js`]))
    expect(problems).toEqual([])
    await page.close()
  }

  it("renders every operation with its examples from atrium serve alone, and saves a screenshot", async () => {
    await rendersEveryOperation(server.url, async (page) => {
      // An operation's request and response samples are the recorded examples.
      await page.goto(`${server.url}/docs#tag/workspace/operation/workspaceCreate`)
      const section = page.locator("[id='tag/workspace/operation/workspaceCreate']")
      await expect.poll(() => section.innerText(), { timeout: 10_000 }).toContain("Create a workspace")
      await expect.poll(() => page.locator("body").innerText()).toContain("owner@acme.example")
      mkdirSync(join(root, "test-output"), { recursive: true })
      await page.screenshot({ path: join(root, "test-output", "docs-page.png") })
    })
  }, 90_000)

  it("renders every operation from an Express app that mounts Atrium at /collab", async () => {
    const handler = testAtrium(MemoryStorage)
    const app = express()
    app.get("/", (_req, res) => void res.send("the host's own page"))
    app.use("/collab", atrium(handler))
    const host = createServer(app)
    await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve))
    try {
      await rendersEveryOperation(`http://127.0.0.1:${(host.address() as AddressInfo).port}/collab`)
    } finally {
      await new Promise((resolve) => host.close(resolve))
      await handler.dispose()
    }
  }, 90_000)
})
