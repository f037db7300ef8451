/**
 * The realtime log (docs/realtime.md): while a server follows a key, every change's events about
 * a document are logged in the change's transaction, numbered per document in commit order, and
 * the feed tells every server the document's last number once the change commits; a key nobody
 * follows logs nothing; a change that rolls back logs and tells nothing.
 */
import { Comments, Transactions } from "@atrium/core"
import * as Effect from "effect/Effect"
import * as Scope from "effect/Scope"
import * as Exit from "effect/Exit"
import { expect, it, vi } from "vitest"
import { forEachBackend, type Started } from "../../../../test-support/backends.js"
import { ChangeFeed, type FeedMessage } from "../../src/realtime/ChangeFeed.js"
import { Followers } from "../../src/realtime/Followers.js"
import { RealtimeLogRepo } from "../../src/realtime/RealtimeLogRepo.js"
import type { TestCredentials } from "../../src/testing/index.js"

forEachBackend("realtime log", (ctx: () => Started) => {
  const run = <A>(effect: Effect.Effect<A, unknown, any>) => ctx().atrium.runtime.runPromise(effect as Effect.Effect<A>)
  const ok = async (creds: TestCredentials, path: string, data: unknown) => {
    const answer = await ctx().client.post(path, data, creds.headers)
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
    return answer.body.result
  }
  const doc = { organizationId: "org", documentId: "doc" }
  const addThread = (creds: TestCredentials, annotationId: string, where = doc) =>
    ok(creds, "/v2/commentannotations/add", {
      ...where,
      createOrganization: true,
      createDocument: true,
      commentAnnotations: [{ annotationId, commentData: [{ commentText: "hi", from: { userId: "ann" } }] }]
    })

  let flushes = 0
  /**
   * What the feed tells this server while `body` runs, and until a message published after it
   * arrives: the feed keeps commit order, and PostgreSQL's tells the listener asynchronously.
   */
  const feedDuring = async <A>(body: () => Promise<A>): Promise<{ readonly result: A; readonly told: Array<FeedMessage> }> => {
    const told: Array<FeedMessage> = []
    const scope = await run(Scope.make())
    await run(Effect.flatMap(ChangeFeed, (feed) => feed.listen({ message: (m) => void told.push(m), gap: () => {} })).pipe(Scope.extend(scope)))
    try {
      const result = await body()
      const marker: FeedMessage = { kind: "follow", apiKey: `flush_${++flushes}` }
      await run(Effect.flatMap(ChangeFeed, (feed) => feed.publish(marker)))
      await vi.waitFor(() => expect(told).toContainEqual(marker), { timeout: 5_000, interval: 10 })
      return { result, told }
    } finally {
      await run(Scope.close(scope, Exit.void))
    }
  }
  const logOf = (apiKey: string, where = doc) =>
    run(Effect.flatMap(RealtimeLogRepo, (log) => log.since({ apiKey, ...where }, 0, 1000)))

  it("logs nothing for a key nobody follows", async () => {
    const creds = await ctx().workspace()
    const { told } = await feedDuring(() => addThread(creds, "t1"))
    expect(await logOf(creds.apiKey)).toEqual([])
    expect(told.filter((m) => m.kind === "change" && m.apiKey === creds.apiKey)).toEqual([])
  })

  it("logs a followed key's document events in order, numbered per document, and tells the feed after commit", async () => {
    const creds = await ctx().workspace()
    await run(Followers.add(creds.apiKey))
    try {
      const other = { organizationId: "org", documentId: "other" }
      const { told } = await feedDuring(async () => {
        await addThread(creds, "t1")
        await ok(creds, "/v2/commentannotations/comments/add", { ...doc, annotationId: "t1", commentData: [{ commentText: "reply", from: { userId: "bob" } }] })
        await addThread(creds, "t2", other)
      })
      const logged = await logOf(creds.apiKey)
      expect(logged.map((e) => e.seq)).toEqual(logged.map((_, i) => i + 1))
      expect(logged.map((e) => e.type)).toContain("comment.add")
      expect(logged.every((e) => JSON.parse(e.payloadJson) !== null)).toBe(true)
      const inOther = await logOf(creds.apiKey, other)
      expect(inOther.map((e) => e.seq)).toEqual(inOther.map((_, i) => i + 1))
      expect(inOther.length).toBeGreaterThan(0)
      const changes = told.filter((m) => m.kind === "change" && m.apiKey === creds.apiKey)
      // One per change and document: the last number of each, in order.
      expect(changes.filter((m) => m.kind === "change" && m.documentId === "doc").map((m) => m.kind === "change" && m.seq).at(-1)).toBe(logged.at(-1)!.seq)
      expect(changes.filter((m) => m.kind === "change" && m.documentId === "other").map((m) => m.kind === "change" && m.seq)).toEqual([inOther.at(-1)!.seq])
    } finally {
      await run(Followers.remove(creds.apiKey))
    }
  })

  it("a change that rolls back logs nothing and tells nothing", async () => {
    const creds = await ctx().workspace()
    await addThread(creds, "t1")
    await run(Followers.add(creds.apiKey))
    try {
      const { told } = await feedDuring(() =>
        run(Effect.flatMap(Transactions, ({ withTransaction }) =>
          withTransaction(Effect.zipRight(
            Comments.addComments(creds.apiKey, { ...doc, annotationId: "t1", commentData: [{ commentText: "undone", from: { userId: "bob" } }] }),
            Effect.fail("rolled back")
          ))).pipe(Effect.ignore)))
      expect(await logOf(creds.apiKey)).toEqual([])
      expect(told.filter((m) => m.kind === "change" && m.apiKey === creds.apiKey)).toEqual([])
    } finally {
      await run(Followers.remove(creds.apiKey))
    }
  })

  it("concurrent changes to one document take every number once, and the feed's last number is the log's", async () => {
    const creds = await ctx().workspace()
    await addThread(creds, "t1")
    await run(Followers.add(creds.apiKey))
    try {
      const { told } = await feedDuring(() =>
        Promise.all(Array.from({ length: 20 }, (_, i) =>
          ok(creds, "/v2/commentannotations/comments/add", { ...doc, annotationId: "t1", commentData: [{ commentText: `c${i}`, from: { userId: "bob" } }] }))))
      const logged = await logOf(creds.apiKey)
      expect(logged.map((e) => e.seq)).toEqual(logged.map((_, i) => i + 1))
      expect(logged.filter((e) => e.type === "comment.add")).toHaveLength(20)
      const seqs = told.flatMap((m) => m.kind === "change" && m.apiKey === creds.apiKey ? [m.seq] : [])
      expect(seqs).toHaveLength(20)
      expect(Math.max(...seqs)).toBe(logged.at(-1)!.seq)
    } finally {
      await run(Followers.remove(creds.apiKey))
    }
  })
})
