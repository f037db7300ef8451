/**
 * @atrium/browser's realtime rooms in a real browser (Debian's Chromium via playwright-core) against
 * a real Atrium on SQLite that serves the WebSocket (node-http's attachRealtime): a page loads the
 * built ES module and enters documents as Ann, with the browser's own WebSocket and its token from
 * the host's endpoint. Changes are made through the server API, as the host's backend would; the
 * connection is cut by the server itself (its listener stopped and every socket destroyed), and
 * tokens expire for real.
 */
import { orThrow } from "@atrium/client"
import { RealtimeLogRepo } from "@atrium/core"
import { directClient } from "@atrium/core/testing"
import * as Effect from "effect/Effect"
import { existsSync } from "node:fs"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { hasChromium, launchChromium } from "../../../test-support/Chromium.js"
import { bundlePath as bundle, type Host, pageRoutes, startHost } from "./host.js"

const found = hasChromium("rooms.test.ts")

/**
 * The page: `makeClient(user)` is a client as a host app makes one (its token from the host's
 * endpoint), counting the tokens it asked for, the sockets it opened and the states it went
 * through; `watch(room)` keeps what a room's listeners are given.
 */
const page = `<!doctype html>
<script type="module">
  import { createClient } from "/atrium-browser.js"
  window.makeClient = (user) => {
    const log = { tokens: 0, sockets: [], sent: [], states: [] }
    const client = createClient({
      baseUrl: location.origin,
      getToken: async () => {
        log.tokens++
        return (await fetch("/host/atrium-token?user=" + user, { method: "POST" })).text()
      },
      // The browser's WebSocket, each one kept so the test can count them and see their state, and
      // each frame it sends, with the number of its socket.
      WebSocket: class extends WebSocket {
        constructor(...args) {
          super(...args)
          log.sockets.push(this)
        }
        send(text) {
          log.sent.push([log.sockets.indexOf(this), JSON.parse(text)])
          super.send(text)
        }
      }
    })
    client.realtime.subscribe((state) => log.states.push(state))
    return { client, log }
  }
  window.watch = (room) => {
    const seen = { events: [], notices: [], others: [], broadcasts: [] }
    room.broadcasts.subscribe((broadcast) => seen.broadcasts.push(broadcast))
    room.events.subscribe((event) => seen.events.push({ seq: event.seq, type: event.type, annotationId: event.data.commentAnnotation?.annotationId }))
    room.notices.subscribe((notice) =>
      seen.notices.push(notice.type === "error" ? { type: "error", status: notice.error.status, operation: notice.error.operation, isError: notice.error instanceof Error } : notice))
    room.presence.subscribe((others) => seen.others.push(others.map((entry) => [entry.userId, entry.status, entry.data])))
    return seen
  }
  window.ready = true
</script>`

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.runIf(found)("@atrium/browser's rooms in Chromium", () => {
  let host: Host
  let browser: Browser
  /** Tokens the host's endpoint gives before fresh ones, per user (e.g. one about to expire). */
  const firstTokens = new Map<string, Array<() => Promise<string>>>()
  let threads = 0

  /** A thread added by Bo through the server API (over HTTP, or in process while the server is interrupted); its id. */
  const addThread = async (documentId: string, via: "http" | "in process" = "http") => {
    const annotationId = `t${++threads}`
    const data = { organizationId: "acme", documentId, commentAnnotations: [{ annotationId, commentData: [{ commentText: annotationId, from: { userId: "bo" } }] }] }
    if (via === "http") await orThrow(host.backend.commentannotationsAdd(data))
    else {
      const answer = await directClient(host.atrium).post("/v2/commentannotations/add", data, host.backendHeaders)
      if (answer.status !== 200) throw new Error(answer.text)
    }
    return annotationId
  }

  const openPage = async (): Promise<{ tab: Page; problems: Array<string> }> => {
    const tab = await browser.newPage()
    const problems: Array<string> = []
    tab.on("pageerror", (error) => problems.push(error.message))
    // While the server is interrupted, Chromium logs the refused reconnects, and the token fetches
    // (the host's endpoint is on that server too).
    const refused = /WebSocket connection .* failed|net::ERR_CONNECTION_REFUSED/
    tab.on("console", (message) => message.type() === "error" && !refused.test(message.text()) && problems.push(message.text()))
    await tab.goto(host.url)
    await tab.waitForFunction(() => (window as any).ready === true)
    return { tab, problems }
  }

  /** Runs `body` in the page until it is true. */
  const until = (tab: Page, body: string, timeout = 15_000) => tab.waitForFunction(body, undefined, { timeout, polling: 50 })

  beforeAll(async () => {
    if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run pnpm -s build`)
    host = await startHost(pageRoutes(page, (user) => firstTokens.get(user)?.shift()?.() ?? host.token(user)), { storage: "sqlite", realtime: true })
    await orThrow(host.backend.organizationsDocumentsAdd({ organizationId: "acme", documents: [{ documentId: "spec-43", documentName: "Spec 43" }] }))
    // Another organization's restricted document: the users' tokens grant nothing there.
    await orThrow(host.backend.organizationsAdd({ organizations: [{ organizationId: "globex", organizationName: "Globex" }] }))
    await orThrow(host.backend.organizationsDocumentsAdd({ organizationId: "globex", documents: [{ documentId: "plans", documentName: "Plans" }] }))
    await orThrow(host.backend.organizationsDocumentsAccessUpdate({ organizationId: "globex", documentIds: ["plans"], accessType: "restricted" }))
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await host?.stop()
  })

  it("enters two documents over one socket: each room gets its document's changes, once and in order, and leaves", async () => {
    const { problems, tab } = await openPage()
    const entered = await tab.evaluate(async () => {
      const w = window as any
      w.ann = w.makeClient("ann")
      const before = w.ann.client.realtime.state
      w.room42 = w.ann.client.enter("acme", "spec-42")
      w.room43 = w.ann.client.enter("acme", "spec-43")
      w.seen42 = w.watch(w.room42)
      w.seen43 = w.watch(w.room43)
      // A listener that throws: the page hears of it, the other listeners and later events still arrive.
      w.room42.events.subscribe(() => {
        throw new Error("a listener's own bug")
      })
      const outcomes = await Promise.all([w.room42.entered, w.room43.entered])
      return {
        before,
        outcomes: outcomes.map((outcome: any) => outcome.error?.status ?? "entered"),
        states: [w.room42.state, w.room43.state],
        same: w.ann.client.enter("acme", "spec-42") === w.room42,
        others: w.room42.presence.others.map((entry: any) => entry.userId),
        mine: w.room42.presence.mine?.userId
      }
    })
    expect(entered).toEqual({ before: "closed", outcomes: ["entered", "entered"], states: ["entered", "entered"], same: true, others: ["bo"], mine: "ann" })

    const on42 = [await addThread("spec-42"), await addThread("spec-42")]
    const on43 = await addThread("spec-43")
    await until(tab, "window.seen42.events.length === 2 && window.seen43.events.length === 1")
    const seen = await tab.evaluate(() => {
      const w = window as any
      return { s42: w.seen42.events, s43: w.seen43.events, sockets: w.ann.log.sockets.length, states: w.ann.log.states }
    })
    expect(seen.s42.map((event: any) => event.annotationId)).toEqual(on42)
    expect(seen.s42.map((event: any) => event.type)).toEqual(["comment_annotation.add", "comment_annotation.add"])
    expect(seen.s42[1].seq).toBe(seen.s42[0].seq + 1)
    expect(seen.s43).toEqual([{ seq: expect.any(Number), type: "comment_annotation.add", annotationId: on43 }])
    expect(seen.sockets).toBe(1)
    expect(seen.states).toEqual(["connecting", "open"])
    expect(problems).toEqual(["a listener's own bug", "a listener's own bug"])

    // Leaving one room: its document's changes no longer reach it; the other's still do, on the same socket.
    await tab.evaluate(() => (window as any).room42.leave())
    const after = [await addThread("spec-42"), await addThread("spec-43")]
    await until(tab, "window.seen43.events.length === 2")
    await sleep(300) // time for a wrongly delivered spec-42 event to arrive
    const left = await tab.evaluate(() => {
      const w = window as any
      return { s42: w.seen42.events.length, s43: w.seen43.events.at(-1).annotationId, state42: w.room42.state, socket: w.ann.log.sockets[0].readyState }
    })
    expect(left).toEqual({ s42: 2, s43: after[1], state42: "left", socket: 1 /* OPEN */ })

    // Leaving the last room closes the socket; entering again opens a new one.
    await tab.evaluate(() => (window as any).room43.leave())
    await until(tab, "window.ann.log.sockets[0].readyState === 3 /* CLOSED */")
    const again = await tab.evaluate(async () => {
      const w = window as any
      const state = w.ann.client.realtime.state
      const room = w.ann.client.enter("acme", "spec-42")
      const outcome = await room.entered
      const answer = { state, fresh: room !== w.room42, entered: outcome.error === undefined, sockets: w.ann.log.sockets.length, states: w.ann.log.states }
      await room.leave()
      return answer
    })
    expect(again).toEqual({ state: "closed", fresh: true, entered: true, sockets: 2, states: ["connecting", "open", "closed", "connecting", "open", "closed"] })
    await tab.close()
  }, 60_000)

  it("reconnects after the server drops the socket and resumes where each room stopped: what was missed arrives once", async () => {
    const { problems, tab } = await openPage()
    await tab.evaluate(async () => {
      const w = window as any
      w.ann = w.makeClient("ann")
      w.room42 = w.ann.client.enter("acme", "spec-42")
      w.room43 = w.ann.client.enter("acme", "spec-43")
      w.seen42 = w.watch(w.room42)
      w.seen43 = w.watch(w.room43)
      await Promise.all([w.room42.entered, w.room43.entered])
    })
    const before = await addThread("spec-42")
    await until(tab, "window.seen42.events.length === 1")

    // The server goes away without a close frame; changes are made while the page is cut off.
    const { resume } = await host.interrupt()
    await until(tab, "window.ann.client.realtime.state === 'reconnecting'")
    const missed = [await addThread("spec-42", "in process"), await addThread("spec-43", "in process")]
    await sleep(600) // an attempt or two refused meanwhile
    await resume()
    await until(tab, "window.seen42.events.length === 2 && window.seen43.events.length === 1")
    const after = await addThread("spec-42")
    await until(tab, "window.seen42.events.length === 3")
    await sleep(300) // time for a doubled event to arrive
    const seen = await tab.evaluate(() => {
      const w = window as any
      return { s42: w.seen42.events, s43: w.seen43.events, states: w.ann.log.states, notices: w.seen42.notices, sockets: w.ann.log.sockets.length, lastSeq: w.room42.lastSeq }
    })
    expect(seen.s42.map((event: any) => event.annotationId)).toEqual([before, missed[0], after])
    expect(seen.s42.map((event: any) => event.seq)).toEqual([seen.s42[0].seq, seen.s42[0].seq + 1, seen.s42[0].seq + 2])
    expect(seen.lastSeq).toBe(seen.s42[2].seq)
    // On the socket that resumed: spec-42 from its last event; spec-43, which had seen none, from
    // the seq its subscribed answer gave; each with that answer's since.
    const resubscribed = await tab.evaluate(() => {
      const log = (window as any).ann.log
      return log.sent.filter(([socket]: [number]) => socket === log.sockets.length - 1)
        .map(([, frame]: [number, any]) => [frame.type, frame.documentId, frame.afterSeq ?? null, typeof frame.since])
    })
    expect(seen.s43.map((event: any) => event.annotationId)).toEqual([missed[1]])
    expect(resubscribed).toEqual([["subscribe", "spec-42", seen.s42[0].seq, "number"], ["subscribe", "spec-43", seen.s43[0].seq - 1, "number"]])
    expect(await tab.evaluate(() => (window as any).seen43.notices)).toEqual([{ type: "entered" }, { type: "entered" }])
    expect(seen.notices).toEqual([{ type: "entered" }, { type: "entered" }])
    expect(seen.states).toEqual(["connecting", "open", "reconnecting", "open"])
    expect(seen.sockets).toBeGreaterThanOrEqual(3) // the first, at least one refused, the one that resumed
    expect(problems).toEqual([])
    await tab.evaluate(() => Promise.all([(window as any).room42.leave(), (window as any).room43.leave()]))
    await tab.close()
  }, 60_000)

  it("is told to resync when the log no longer holds what it missed", async () => {
    const { problems, tab } = await openPage()
    await tab.evaluate(async () => {
      const w = window as any
      w.ann = w.makeClient("ann")
      w.room42 = w.ann.client.enter("acme", "spec-42")
      w.seen42 = w.watch(w.room42)
      await w.room42.entered
    })
    await addThread("spec-42")
    await until(tab, "window.seen42.events.length === 1")
    const { resume } = await host.interrupt()
    await addThread("spec-42", "in process")
    // The log forgets everything (as it does after 10 minutes): a resume cannot be served from it.
    await host.atrium.runtime.runPromise(Effect.flatMap(RealtimeLogRepo, (log) => log.pruneBefore(Date.now() + 60_000)))
    await resume()
    await until(tab, "window.seen42.notices.some((notice) => notice.type === 'resync')")
    const after = await addThread("spec-42")
    await until(tab, "window.seen42.events.length === 2")
    const seen = await tab.evaluate(() => ({ events: (window as any).seen42.events, notices: (window as any).seen42.notices }))
    const first = seen.events[0].seq
    expect(seen.notices).toEqual([{ type: "entered" }, { type: "entered" }, { type: "resync", seq: first + 1 }])
    // The missed change is not sent (the page reloads instead); the next one arrives as usual.
    expect(seen.events.map((event: any) => [event.seq, event.annotationId])).toEqual([[first, expect.any(String)], [first + 2, after]])
    expect(problems).toEqual([])
    await tab.evaluate(() => (window as any).room42.leave())
    await tab.close()
  }, 60_000)

  it("renews an expired token and reconnects at once, resuming where it stopped", async () => {
    // The host's first token for Ann has 10 s left: Atrium ends the socket then (token.expired, 4001).
    firstTokens.set("ann", [() => host.tokenIssuedAgo("ann", 50, 60)])
    const { problems, tab } = await openPage()
    await tab.evaluate(async () => {
      const w = window as any
      w.ann = w.makeClient("ann")
      w.room42 = w.ann.client.enter("acme", "spec-42")
      w.seen42 = w.watch(w.room42)
      w.ann.client.realtime.subscribe((state: string) => state === "reconnecting" && (w.droppedAt = Date.now()))
      w.ann.client.realtime.subscribe((state: string) => state === "open" && w.droppedAt && (w.backAt = Date.now()))
      await w.room42.entered
    })
    await addThread("spec-42")
    await until(tab, "window.seen42.events.length === 1")
    await until(tab, "window.backAt !== undefined", 20_000)
    const after = await addThread("spec-42")
    await until(tab, "window.seen42.events.length === 2")
    const seen = await tab.evaluate(() => {
      const w = window as any
      return {
        tokens: w.ann.log.tokens,
        states: w.ann.log.states,
        closes: w.ann.log.sockets.length,
        last: w.seen42.events[1].annotationId,
        notices: w.seen42.notices,
        lastSeq: w.room42.lastSeq,
        firstSeq: w.seen42.events[0].seq
      }
    })
    expect(seen).toMatchObject({ tokens: 2, states: ["connecting", "open", "reconnecting", "open"], closes: 2, last: after, notices: [{ type: "entered" }, { type: "entered" }] })
    expect(seen.lastSeq).toBe(seen.firstSeq + 1)
    expect(problems).toEqual([])
    await tab.evaluate(() => (window as any).room42.leave())
    await tab.close()
  }, 60_000)

  it("shows two users in two pages each other arrive, move and leave, and puts a user's presence back after a reconnect", async () => {
    // spec-43: no presence seeded there, so whoever is listed came through the socket.
    const enter = (tab: Page, user: string, cursor: number, status?: string) =>
      tab.evaluate(async ([user, cursor, status]) => {
        const w = window as any
        w.me = w.makeClient(user)
        w.room = w.me.client.enter("acme", "spec-43")
        w.seen = w.watch(w.room)
        w.room.presence.update({ cursor }, status)
        return (await w.room.entered).error?.status ?? "entered"
      }, [user, cursor, status] as const)
    const others = (tab: Page) => tab.evaluate(() => (window as any).room.presence.others.map((entry: any) => [entry.userId, entry.status, entry.data]))
    const ann = await openPage()
    const bo = await openPage()
    expect(await enter(ann.tab, "ann", 1)).toBe("entered")
    expect(await enter(bo.tab, "bo", 5, "away")).toBe("entered")

    // Ann, there first, sees Bo arrive and set his presence; Bo finds Ann on the list he is answered.
    // Neither is on its own list.
    await until(ann.tab, "window.room.presence.others.some((entry) => entry.userId === 'bo' && entry.data?.cursor === 5)")
    expect(await others(ann.tab)).toEqual([["bo", "away", { cursor: 5 }]])
    expect((await others(bo.tab)).map(([userId]: Array<unknown>) => userId)).toEqual(["ann"])
    expect(await ann.tab.evaluate(() => {
      const mine = (window as any).room.presence.mine
      return [mine?.userId, mine?.data]
    })).toEqual(["ann", { cursor: 1 }])

    // Ann moves: Bo sees it, and Ann's listeners are not told of her own move.
    const annHeard = await ann.tab.evaluate(() => (window as any).seen.others.length)
    await ann.tab.evaluate(() => (window as any).room.presence.update({ cursor: 2 }))
    await until(bo.tab, "window.room.presence.others.some((entry) => entry.userId === 'ann' && entry.data?.cursor === 2)")
    expect(await others(bo.tab)).toEqual([["ann", "online", { cursor: 2 }]])
    await sleep(300) // time for an echo to arrive
    expect(await ann.tab.evaluate(() => (window as any).seen.others.length)).toBe(annHeard)

    // The server drops every socket (and with them, their users' presence): once back, each page
    // resubscribes and sends its user's last presence again, which the document's list shows.
    const { resume } = await host.interrupt()
    await until(ann.tab, "window.me.client.realtime.state === 'reconnecting'")
    await sleep(300)
    await resume()
    await until(ann.tab, "window.me.client.realtime.state === 'open'")
    const listed = async () =>
      bo.tab.evaluate(async () => {
        const { result } = await (window as any).me.client.presenceGet({ organizationId: "acme", documentId: "spec-43" })
        return result?.data.map((entry: any) => [entry.userId, entry.status, entry.data]).sort()
      })
    const deadline = Date.now() + 15_000
    while (JSON.stringify(await listed()) !== JSON.stringify([["ann", "online", { cursor: 2 }], ["bo", "away", { cursor: 5 }]]) && Date.now() < deadline) await sleep(100)
    expect(await listed()).toEqual([["ann", "online", { cursor: 2 }], ["bo", "away", { cursor: 5 }]])
    await until(ann.tab, "window.room.presence.others.some((entry) => entry.userId === 'bo' && entry.data?.cursor === 5)")
    // Ann's page sent it itself, on its new socket, after subscribing there.
    const resent = await ann.tab.evaluate(() => {
      const log = (window as any).me.log
      return log.sent.filter(([socket]: [number]) => socket === log.sockets.length - 1).map(([, frame]: [number, any]) => [frame.type, frame.data ?? null])
    })
    expect(resent).toEqual([["subscribe", null], ["presence", { cursor: 2 }]])

    // Bo leaves: Ann sees him go.
    await bo.tab.evaluate(() => (window as any).room.leave())
    await until(ann.tab, "window.room.presence.others.length === 0")
    expect(ann.problems).toEqual([])
    expect(bo.problems).toEqual([])
    await ann.tab.evaluate(() => (window as any).room.leave())
    await ann.tab.close()
    await bo.tab.close()
  }, 90_000)

  it("marks a room revoked when the user loses read access, tells its listeners why, and does not resubscribe it", async () => {
    await orThrow(host.backend.organizationsAdd({ organizations: [{ organizationId: "initech", organizationName: "Initech" }] }))
    await orThrow(host.backend.organizationsDocumentsAdd({ organizationId: "initech", documents: [{ documentId: "memo", documentName: "Memo" }] }))
    const { problems, tab } = await openPage()
    await tab.evaluate(async () => {
      const w = window as any
      w.ann = w.makeClient("ann")
      w.memo = w.ann.client.enter("initech", "memo")
      w.room42 = w.ann.client.enter("acme", "spec-42")
      w.seenMemo = w.watch(w.memo)
      await Promise.all([w.memo.entered, w.room42.entered])
    })
    const disabled = await directClient(host.atrium).post("/v2/organizations/access/disablestate/update", { organizationIds: ["initech"], disabled: true }, host.backendHeaders)
    expect(disabled.status).toBe(200)
    await until(tab, "window.memo.state === 'revoked'")
    const seen = await tab.evaluate(() => {
      const w = window as any
      return { reason: w.memo.revokedReason, notices: w.seenMemo.notices, state42: w.room42.state, socket: w.ann.client.realtime.state }
    })
    expect(seen).toEqual({ reason: "organization_disabled", notices: [{ type: "entered" }, { type: "revoked", reason: "organization_disabled" }], state42: "entered", socket: "open" })
    // After a reconnect the revoked room is not subscribed again; the other is.
    const { resume } = await host.interrupt()
    await until(tab, "window.ann.client.realtime.state === 'reconnecting'")
    await resume()
    await until(tab, "window.ann.client.realtime.state === 'open' && window.ann.log.sent.some(([socket, frame]) => socket === window.ann.log.sockets.length - 1 && frame.type === 'subscribe')")
    await sleep(300)
    const resubscribed = await tab.evaluate(() => {
      const log = (window as any).ann.log
      return log.sent.filter(([socket]: [number]) => socket === log.sockets.length - 1).map(([, frame]: [number, any]) => [frame.type, frame.documentId])
    })
    expect(resubscribed).toEqual([["subscribe", "spec-42"]])
    expect(problems).toEqual([])
    await tab.evaluate(() => (window as any).room42.leave())
    await tab.close()
  }, 60_000)

  it("broadcasts between two pages: an editor's reaches the other page and not its own listeners, merged when asked; the server's reaches both; a viewer's is refused", async () => {
    // Cy may only read spec-44: a stored grant on the document outranks the token's organization entry.
    await orThrow(host.backend.organizationsDocumentsAdd({ organizationId: "acme", documents: [{ documentId: "spec-44", documentName: "Spec 44" }] }))
    await orThrow(host.backend.authPermissionsAdd({ user: { userId: "cy" }, permissions: { resources: [{ type: "document", id: "spec-44", organizationId: "acme", accessRole: "viewer" }] } }))
    const enter = (tab: Page, user: string) =>
      tab.evaluate(async (user) => {
        const w = window as any
        w.me = w.makeClient(user)
        w.room = w.me.client.enter("acme", "spec-44")
        w.seen = w.watch(w.room)
        // Not entered yet: nothing is sent, nor kept for later.
        const early = w.room.broadcast("cursor", { early: true })
        const outcome = await w.room.entered
        return { early, entered: outcome.error === undefined }
      }, user)
    const broadcasts = (tab: Page) => tab.evaluate(() => (window as any).seen.broadcasts)
    const [ann, bo, cy] = [await openPage(), await openPage(), await openPage()]
    for (const [page, user] of [[ann, "ann"], [bo, "bo"], [cy, "cy"]] as const) expect(await enter(page.tab, user)).toEqual({ early: false, entered: true })

    expect(await ann.tab.evaluate(() => (window as any).room.broadcast("cursor", { x: 1, y: 1 }))).toBe(true)
    await until(bo.tab, "window.seen.broadcasts.length === 1")
    expect(await broadcasts(bo.tab)).toEqual([{ liveStateDataId: "cursor", data: { x: 1, y: 1 }, userId: "ann" }])
    await until(cy.tab, "window.seen.broadcasts.length === 1") // a viewer receives them
    expect(await bo.tab.evaluate(() => (window as any).room.broadcast("cursor", { y: 2 }, { merge: true }))).toBe(true)
    await until(ann.tab, "window.seen.broadcasts.length === 1")
    expect(await broadcasts(ann.tab)).toEqual([{ liveStateDataId: "cursor", data: { x: 1, y: 2 }, userId: "bo" }])

    // The host's server broadcasts to every page, with no userId.
    await orThrow(host.backend.livestateBroadcast({ organizationId: "acme", documentId: "spec-44", liveStateDataId: "mode", data: { slide: 3 } }))
    for (const page of [ann, bo, cy]) await until(page.tab, "window.seen.broadcasts.some((broadcast) => broadcast.liveStateDataId === 'mode')")
    for (const page of [ann, bo]) expect((await broadcasts(page.tab)).at(-1)).toEqual({ liveStateDataId: "mode", data: { slide: 3 } })

    // A viewer's broadcast goes out and is refused: the room is told, no one receives it.
    expect(await cy.tab.evaluate(() => (window as any).room.broadcast("cursor", { x: 99 }))).toBe(true)
    await until(cy.tab, "window.seen.notices.some((notice) => notice.type === 'error')")
    expect(await cy.tab.evaluate(() => (window as any).seen.notices.at(-1))).toEqual({ type: "error", status: "PERMISSION_DENIED", operation: "realtime.broadcast", isError: true })

    // A frame over 16 KB is not sent (the socket would be closed): an error notice, the socket stays.
    const big = await ann.tab.evaluate(() => {
      const w = window as any
      return { sent: w.room.broadcast("notes", { text: "x".repeat(20_000) }), notice: w.seen.notices.at(-1), sockets: w.me.log.sockets.length }
    })
    expect(big).toEqual({ sent: false, notice: { type: "error", status: "INVALID_ARGUMENT", operation: "realtime.broadcast", isError: true }, sockets: 1 })

    await sleep(300) // time for a wrongly delivered broadcast to arrive
    // Each page's own broadcasts were never given back to it; Cy's refused one reached no one.
    expect((await broadcasts(ann.tab)).map((broadcast: any) => broadcast.userId ?? "server")).toEqual(["bo", "server"])
    expect((await broadcasts(bo.tab)).map((broadcast: any) => broadcast.userId ?? "server")).toEqual(["ann", "server"])
    expect((await broadcasts(cy.tab)).map((broadcast: any) => broadcast.userId ?? "server")).toEqual(["ann", "bo", "server"])
    expect(await ann.tab.evaluate(() => (window as any).me.client.realtime.state)).toBe("open")
    for (const page of [ann, bo, cy]) {
      expect(page.problems).toEqual([])
      await page.tab.evaluate(() => (window as any).room.leave())
      await page.tab.close()
    }
  }, 60_000)

  it("gives Atrium's refusals as values: a document the user may not read, presence data too large", async () => {
    const { problems, tab } = await openPage()
    const outcome = await tab.evaluate(async () => {
      const w = window as any
      w.ann = w.makeClient("ann")
      const refused = w.ann.client.enter("globex", "plans")
      const allowed = w.ann.client.enter("acme", "spec-42")
      w.seenRefused = w.watch(refused)
      w.seen42 = w.watch(allowed)
      const [no, yes] = await Promise.all([refused.entered, allowed.entered])
      w.room42 = allowed
      return {
        error: { name: no.error?.name, status: no.error?.status, httpStatus: no.error?.httpStatus, operation: no.error?.operation, isError: no.error instanceof Error },
        refusedState: refused.state,
        entered: yes.error === undefined,
        notices: w.seenRefused.notices
      }
    })
    expect(outcome).toEqual({
      error: { name: "AtriumError", status: "PERMISSION_DENIED", httpStatus: 0, operation: "realtime.subscribe", isError: true },
      refusedState: "refused",
      entered: true,
      notices: [{ type: "error", status: "PERMISSION_DENIED", operation: "realtime.subscribe", isError: true }]
    })
    // The refused room takes no more part: the allowed one still gets its changes.
    const id = await addThread("spec-42")
    await until(tab, "window.seen42.events.length === 1")
    expect(await tab.evaluate(() => (window as any).seen42.events[0].annotationId)).toBe(id)
    // Presence data over 4 KB: Atrium refuses the frame, the room is told.
    await tab.evaluate(() => (window as any).room42.presence.update({ note: "x".repeat(5000) }, "away"))
    await until(tab, "window.seen42.notices.some((notice) => notice.type === 'error')")
    expect(await tab.evaluate(() => (window as any).seen42.notices.at(-1))).toEqual({ type: "error", status: "INVALID_ARGUMENT", operation: "realtime.presence", isError: true })
    expect(problems).toEqual([])
    await tab.evaluate(() => (window as any).room42.leave())
    await tab.close()
  }, 60_000)
})
