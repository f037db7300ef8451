/**
 * The example live (issue 25 item 7), as two people use it: its server started as the README says,
 * the page opened in Chromium for Ann and for Bob, each in a browser context of their own. Each
 * sees the other arrive (an avatar), move (a labelled cursor where the other's mouse is over the
 * document) and leave; a comment Ann posts appears on Bob's page without a reload, and mentioning
 * him rings his bell. On one server with SQLite, and on two servers sharing one PostgreSQL
 * database with Ann on one and Bob on the other.
 */
import { testDatabase } from "@atrium/sql-pg/testing"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { hasChromium, launchChromium } from "../../../test-support/Chromium.js"
import { killServerProcesses, type ServerProcess, startServerProcess } from "../../../test-support/ServerProcess.js"

const found = hasChromium("examples/browser/test/live.test.ts")

/** `node server.mjs`, as `pnpm start` runs it, on a port of its choosing. */
const startExample = (env: Record<string, string>) =>
  startServerProcess(["server.mjs"], { cwd: join(__dirname, ".."), env: { ...process.env, PORT: "0", ...env } })

describe.runIf(found)("examples/browser live, in Chromium", () => {
  let browser: Browser
  const problems: Array<string> = []

  beforeAll(async () => {
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    killServerProcesses()
  })

  /** A fresh browser context with the page of `server` open and `user` logged in. */
  const logIn = async (server: ServerProcess, user: "Ann" | "Bob"): Promise<Page> => {
    const page = await (await browser.newContext({ viewport: { width: 1000, height: 800 } })).newPage()
    page.on("pageerror", (error) => problems.push(`${user}: ${error.message}`))
    page.on("console", (message) => message.type() === "error" && problems.push(`${user}: ${message.text()}`))
    await page.goto(server.url)
    await page.getByRole("button", { name: `Log in as ${user}` }).click()
    await page.locator("#who", { hasText: `Logged in as ${user}` }).waitFor()
    return page
  }

  const avatars = (page: Page) => page.locator("#people .avatar").evaluateAll((elements) => elements.map((element) => (element as HTMLElement).dataset.userId))

  /** Moves the mouse to a share (x, y) of the document's box; the cursor's position as the other page shows it, once it does. */
  const moveAndSee = async (mover: Page, watcher: Page, userId: string, x: number, y: number) => {
    const box = (await mover.locator("#doc").boundingBox())!
    await mover.mouse.move(box.x + box.width * x, box.y + box.height * y)
    const cursor = watcher.locator(`.cursor[data-user-id="${userId}"]`)
    await watcher.waitForFunction(
      ([id, left, top]) => {
        const element = document.querySelector<HTMLElement>(`.cursor[data-user-id="${id}"]`)
        return element !== null && Math.abs(parseFloat(element.style.left) - left) < 1 && Math.abs(parseFloat(element.style.top) - top) < 1
      },
      [userId, x * 100, y * 100] as const,
      { timeout: 15_000, polling: 50 }
    )
    return cursor.textContent()
  }

  const liveTogether = async (annServer: ServerProcess, bobServer: ServerProcess) => {
    const ann = await logIn(annServer, "Ann")
    const bob = await logIn(bobServer, "Bob")
    // Each sees the other arrive.
    await ann.locator('#people .avatar[data-user-id="bob"]').waitFor()
    await bob.locator('#people .avatar[data-user-id="ann"]').waitFor()
    expect(await avatars(ann)).toEqual(["bob"])
    expect(await avatars(bob)).toEqual(["ann"])
    expect(await bob.locator("#bell-count").textContent()).toBe("")

    // Each sees the other move.
    expect(await moveAndSee(ann, bob, "ann", 0.25, 0.5)).toBe("Ann")
    expect(await moveAndSee(ann, bob, "ann", 0.75, 0.3)).toBe("Ann")
    expect(await moveAndSee(bob, ann, "bob", 0.5, 0.6)).toBe("Bob")

    // Ann's comment appears on Bob's page without a reload, and mentioning him rings his bell.
    const text = `Ship it in March, @bob? (${Date.now()})`
    await ann.locator("#comment-text").fill(text)
    await ann.getByRole("button", { name: "Comment" }).click()
    await bob.locator("#threads li", { hasText: text }).waitFor({ timeout: 15_000 })
    await bob.locator("#bell-count", { hasText: "1" }).waitFor({ timeout: 15_000 })
    // Ann is not told of her own comment.
    expect(await ann.locator("#bell-count").textContent()).toBe("")
    await bob.locator("#bell").click()
    await bob.waitForFunction(() => document.getElementById("bell-count")!.textContent === "", undefined, { timeout: 15_000 })

    // Ann leaves: her avatar and cursor go from Bob's page.
    await ann.context().close()
    await bob.waitForFunction(() => document.querySelectorAll("#people .avatar, .cursor").length === 0, undefined, { timeout: 30_000, polling: 100 })
    await bob.context().close()
    expect(problems).toEqual([])
  }

  it("on one server (SQLite): each sees the other arrive, move and leave; a comment appears live and a mention rings the bell", async () => {
    const dir = mkdtempSync(join(tmpdir(), "atrium-example-live-"))
    const server = await startExample({ DB_FILE: join(dir, "example.db") })
    try {
      await liveTogether(server, server)
    } finally {
      expect(await server.stop()).toBe(0)
      rmSync(dir, { recursive: true, force: true })
    }
  }, 90_000)

  it("on two servers sharing one PostgreSQL database, Ann on one and Bob on the other: the same", async (test) => {
    const db = await testDatabase()
    if (db.server.startsWith("PGlite")) {
      await db.drop()
      return test.skip()
    }
    const dir = mkdtempSync(join(tmpdir(), "atrium-example-live-pg-"))
    const env = { DATABASE_URL: db.url, KEY_FILE: join(dir, "key.json") }
    // One after the other: the first makes the workspace and its key file, the second finds them.
    const one = await startExample(env)
    const two = await startExample(env)
    try {
      await liveTogether(one, two)
    } finally {
      expect(await one.stop()).toBe(0)
      expect(await two.stop()).toBe(0)
      rmSync(dir, { recursive: true, force: true })
      await db.drop()
    }
  }, 120_000)
})
