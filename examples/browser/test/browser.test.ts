/**
 * The example as a person uses it: its server started as the README says (its own process, a SQLite
 * file), the page opened in Chromium. Ann (editor) comments and sees her thread; Bob (viewer), in a
 * browser context of his own, reads it and finds the comment box disabled; a write forced past the
 * disabled box, and one sent with Bob's token without the page, are refused with PERMISSION_DENIED,
 * and Ann's page still shows one thread.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { hasChromium, launchChromium } from "../../../test-support/Chromium.js"
import { killServerProcesses, type ServerProcess, startServerProcess } from "../../../test-support/ServerProcess.js"

const found = hasChromium("examples/browser/test/browser.test.ts")
const dir = mkdtempSync(join(tmpdir(), "atrium-example-browser-"))

describe.runIf(found)("examples/browser in Chromium", () => {
  let server: ServerProcess
  let browser: Browser
  const problems: Array<string> = []

  beforeAll(async () => {
    server = await startExample()
    browser = await launchChromium()
  })

  afterAll(async () => {
    await browser?.close()
    killServerProcesses()
    rmSync(dir, { recursive: true, force: true })
  })

  /** `node server.mjs`, as `pnpm start` runs it, on a port of its choosing and the test's SQLite file. */
  const startExample = () =>
    startServerProcess(["server.mjs"], { cwd: join(__dirname, ".."), env: { ...process.env, PORT: "0", DB_FILE: join(dir, "example.db") } })

  /** A fresh browser context (its own cookies and storage) with the page open and `user` logged in. */
  const logIn = async (user: "Ann" | "Bob"): Promise<Page> => {
    const page = await (await browser.newContext()).newPage()
    page.on("pageerror", (error) => problems.push(`${user}: ${error.message}`))
    // Chromium logs the refused writes' 403 as a failed load; anything else is a problem.
    page.on("console", (message) => message.type() === "error" && !/status of 403/.test(message.text()) && problems.push(`${user}: ${message.text()}`))
    await page.goto(server.url)
    await page.getByRole("button", { name: `Log in as ${user}` }).click()
    await page.locator("#who", { hasText: `Logged in as ${user}` }).waitFor()
    return page
  }

  /** The threads as the page lists them, once it has listed them (it replaces the list at once). */
  const threadsOn = async (page: Page) => {
    await page.locator("#threads li").first().waitFor()
    return page.locator("#threads li").allTextContents()
  }

  it("lets Ann comment, shows it to Bob read-only, and refuses Bob's forced writes", async () => {
    const ann = await logIn("Ann")
    expect(await ann.locator("#who").textContent()).toBe("Logged in as Ann, editor.")
    await ann.locator("#comment-text").fill("Can we ship it in March?")
    await ann.getByRole("button", { name: "Comment" }).click()
    expect(await threadsOn(ann)).toEqual(["Ann: Can we ship it in March?"])
    expect(await ann.locator("#comment-text").inputValue()).toBe("")

    const bob = await logIn("Bob")
    expect(await bob.locator("#who").textContent()).toBe("Logged in as Bob, viewer.")
    expect(await threadsOn(bob)).toEqual(["Ann: Can we ship it in March?"])
    expect(await bob.locator("#comment-text").isDisabled()).toBe(true)
    expect(await bob.getByRole("button", { name: "Comment" }).isDisabled()).toBe(true)
    expect(await bob.locator("#error").textContent()).toBe("")

    // Bob switches the box on (as anyone can, with the browser's tools) and sends: Atrium refuses.
    await bob.locator("#comment-text, #comment-send").evaluateAll((elements) => elements.forEach((element) => element.removeAttribute("disabled")))
    await bob.locator("#comment-text").fill("Bob was here")
    await bob.getByRole("button", { name: "Comment" }).click()
    await bob.locator("#error", { hasText: "PERMISSION_DENIED" }).waitFor()
    expect(await bob.locator("#error").textContent()).toMatch(/^PERMISSION_DENIED: \S/)

    // Without the page: Bob's token from the host's endpoint, straight to the client API.
    const token = await (await fetch(`${server.url}/token?user=bob`, { method: "POST" })).text()
    const forced = await fetch(`${server.url}/v2/client/commentannotations/add`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ data: { organizationId: "acme", documentId: "spec-42", commentAnnotations: [{ commentData: [{ commentText: "Bob again" }] }] } })
    })
    expect(forced.status).toBe(403)
    expect((await forced.json()).error.status).toBe("PERMISSION_DENIED")

    // Nothing was written: Ann, logged in afresh, sees her one thread.
    await ann.reload()
    await ann.getByRole("button", { name: "Log in as Ann" }).click()
    expect(await threadsOn(ann)).toEqual(["Ann: Can we ship it in March?"])
    expect(problems).toEqual([])
  }, 60_000)

  it("answers the token endpoint for the demo users only, and starts again on the same database", async () => {
    const token = async (user: string) => fetch(`${server.url}/token?user=${user}`, { method: "POST" })
    for (const user of ["carol", "constructor", ""]) expect((await token(user)).status, user).toBe(404)
    expect(await server.stop()).toBe(0)

    // The second start finds its API key and the document: the thread Ann wrote above is still hers to see.
    server = await startExample()
    const threads = await fetch(`${server.url}/v2/client/commentannotations/get`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${await (await token("ann")).text()}` },
      body: JSON.stringify({ data: { organizationId: "acme", documentId: "spec-42" } })
    })
    expect((await threads.json()).result.data.map((thread: any) => thread.comments[0].commentText)).toEqual(["Can we ship it in March?"])
    expect(await server.stop()).toBe(0)
  })
})
