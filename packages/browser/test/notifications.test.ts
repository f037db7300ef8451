/**
 * @atrium/browser's inbox in a real browser (Debian's Chromium via playwright-core) against a real
 * Atrium on SQLite serving the WebSocket: a page that enters no room listens for the user's
 * notifications (the socket opens for it and closes when the last listener goes), gets each new
 * one as the inbox shows it, and reads and marks its inbox with the typed calls.
 */
import { orThrow } from "@atrium/client"
import { existsSync } from "node:fs"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { hasChromium, launchChromium } from "../../../test-support/Chromium.js"
import { bundlePath as bundle, type Host, pageRoutes, startHost } from "./host.js"

const found = hasChromium("notifications.test.ts")

const page = `<!doctype html>
<script type="module">
  import { createClient } from "/atrium-browser.js"
  window.makeClient = (user) => {
    const states = []
    const client = createClient({
      baseUrl: location.origin,
      getToken: async () => (await fetch("/host/atrium-token?user=" + user, { method: "POST" })).text()
    })
    client.realtime.subscribe((state) => states.push(state))
    return { client, states }
  }
  window.ready = true
</script>`

describe.runIf(found)("@atrium/browser's notifications in Chromium", () => {
  let host: Host
  let browser: Browser

  const openPage = async (): Promise<{ tab: Page; problems: Array<string> }> => {
    const tab = await browser.newPage()
    const problems: Array<string> = []
    tab.on("pageerror", (error) => problems.push(error.message))
    tab.on("console", (message) => message.type() === "error" && problems.push(message.text()))
    await tab.goto(host.url)
    await tab.waitForFunction(() => (window as any).ready === true)
    return { tab, problems }
  }
  const until = (tab: Page, body: string, timeout = 15_000) => tab.waitForFunction(body, undefined, { timeout, polling: 50 })

  beforeAll(async () => {
    if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run pnpm -s build`)
    host = await startHost(pageRoutes(page, (user) => host.token(user)), { storage: "sqlite", realtime: true })
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await host?.stop()
  })

  it("a page with no room gets the user's new notifications live, reads and marks its inbox, and closes the socket with its last listener", async () => {
    const { problems, tab } = await openPage()
    await tab.evaluate(() => {
      const w = window as any
      w.ann = w.makeClient("ann")
      w.pushed = []
      w.stop = w.ann.client.notifications.subscribe((notification: unknown) => w.pushed.push(notification))
    })
    await until(tab, "window.ann.client.realtime.state === 'open'")
    // The server takes the connection a moment after the page sees it open.
    await new Promise((resolve) => setTimeout(resolve, 200))

    // Bo mentions Ann in a thread through the server API (asking for notifications), and the host adds one of its own.
    await orThrow(host.backend.commentannotationsAdd({
      organizationId: "acme",
      documentId: "spec-42",
      commentAnnotations: [{ annotationId: "ask", commentData: [{ commentText: "@ann can you look?", from: { userId: "bo" }, taggedUserContacts: [{ userId: "ann", text: "@ann" }], triggerNotification: true }] }]
    }))
    await orThrow(host.backend.notificationsAdd({
      organizationId: "acme",
      documentId: "spec-42",
      notificationId: "deploy",
      actionUser: { userId: "ci" },
      displayHeadlineMessageTemplate: "Deploy finished",
      displayBodyMessage: "spec-42 is live",
      notifyUsers: [{ userId: "ann" }],
      notifyAll: false
    }))
    await until(tab, "window.pushed.length === 2")
    const inbox = await tab.evaluate(async () => {
      const w = window as any
      const before = await w.ann.client.notificationsGet({ organizationId: "acme" })
      const marked = await w.ann.client.notificationsUpdate({ organizationId: "acme", all: true })
      const after = await w.ann.client.notificationsGet({ organizationId: "acme" })
      return {
        pushed: w.pushed.map((n: any) => [n.actionType ?? n.notificationSource, n.targetAnnotationId ?? n.id, n.readAt]),
        samePushedAndListed: JSON.stringify([...w.pushed].reverse()) === JSON.stringify(before.result.data),
        unreadBefore: before.result.unreadCount,
        unreadMarked: marked.result.unreadCount,
        afterIds: after.result.data.map((n: any) => n.id)
      }
    })
    expect(inbox).toEqual({
      pushed: [["comment_annotation.add", "ask", null], ["custom", "deploy", null]],
      samePushedAndListed: true,
      unreadBefore: 2,
      unreadMarked: 0,
      // Read ones leave the "for you" view (the hosted panel's rule).
      afterIds: []
    })

    // The last listener gone, with no room entered: the socket closes.
    await tab.evaluate(() => (window as any).stop())
    await until(tab, "window.ann.client.realtime.state === 'closed'")
    expect(await tab.evaluate(() => (window as any).ann.states)).toEqual(["connecting", "open", "closed"])
    expect(problems).toEqual([])
    await tab.close()
  })
})
