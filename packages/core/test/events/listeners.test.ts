/**
 * The event seam: a listener of the host's own, registered with `createAtrium({ listeners })`,
 * sees every comment and activity event in the change's transaction and again once it committed;
 * a change that rolls back tells no after-commit listener; with nobody following a key, emitting
 * writes and builds nothing; enrichers run only for listeners that read what they add.
 */
import { Comments, type EmittedEvents, type EventListener, EventListeners, Events, type NewEvent, Transactions } from "@atrium/core"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { expect, it } from "vitest"
import { forEachBackend, type Started } from "../../../../test-support/backends.js"
import { atriumLayer } from "../../src/Atrium.js"
import { type EventEnricher, EventEnrichers } from "../../src/events/EventEnricher.js"
import { MemoryStorage } from "../../src/testing/index.js"
import type { TestCredentials } from "../../src/testing/index.js"

/** What a listener was told, per API key: in the transaction and after it committed. */
const recorder = () => {
  const told = { inTransaction: [] as Array<EmittedEvents>, afterCommit: [] as Array<EmittedEvents> }
  const listener: EventListener = {
    name: "test recorder",
    follows: () => Effect.succeed(true),
    inTransaction: (emitted) => Effect.sync(() => void told.inTransaction.push(emitted)),
    afterCommit: (emitted) => Effect.sync(() => void told.afterCommit.push(emitted))
  }
  const typesOf = (list: Array<EmittedEvents>, apiKey: string) => list.filter((e) => e.apiKey === apiKey).flatMap((e) => e.events.map((event) => event.type))
  return {
    listener,
    /** Forgets what it was told: the backends' sequential ids make the same API keys again. */
    reset: () => {
      told.inTransaction.length = 0
      told.afterCommit.length = 0
    },
    inTransaction: (apiKey: string) => typesOf(told.inTransaction, apiKey),
    afterCommit: (apiKey: string) => typesOf(told.afterCommit, apiKey),
    events: (apiKey: string) => told.afterCommit.filter((e) => e.apiKey === apiKey).flatMap((e) => e.events)
  }
}

const recorded = recorder()

forEachBackend("domain events", (ctx: () => Started) => {
  const ok = async (creds: TestCredentials, path: string, data: unknown) => {
    const answer = await ctx().client.post(path, data, creds.headers)
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
    return answer.body.result
  }
  const thread = (annotationId: string, text: string) => ({ annotationId, commentData: [{ commentText: text, from: { userId: "alice" } }] })
  const inDoc = { organizationId: "org", documentId: "doc" }

  it("tells a listener of its own every comment and activity event, in the transaction and after commit", async () => {
    recorded.reset()
    const creds = await ctx().workspace()
    await ok(creds, "/v2/commentannotations/add", { ...inDoc, createOrganization: true, createDocument: true, commentAnnotations: [thread("t", "first")] })
    const added = await ok(creds, "/v2/commentannotations/comments/add", { ...inDoc, annotationId: "t", commentData: [{ commentText: "reply", from: { userId: "bob" } }] })
    const reply = added.data[0]
    await ok(creds, "/v2/commentannotations/comments/update", { ...inDoc, annotationId: "t", commentIds: [reply], updatedData: { commentText: "edited" } })
    await ok(creds, "/v2/commentannotations/comments/reactions/add", { ...inDoc, annotationId: "t", commentId: reply, reaction: { reactionId: "👍" }, from: { userId: "carol" } })
    await ok(creds, "/v2/commentannotations/comments/reactions/delete", { ...inDoc, annotationId: "t", commentId: reply, reaction: { reactionId: "👍" }, from: { userId: "carol" } })
    await ok(creds, "/v2/commentannotations/update", {
      ...inDoc,
      annotationIds: ["t"],
      updatedData: { status: { id: "RESOLVED", name: "Resolved", type: "terminal" }, assignedTo: { userId: "bob" }, priority: { id: "P1", name: "High" } }
    })
    await ok(creds, "/v2/commentannotations/comments/delete", { ...inDoc, annotationId: "t", commentIds: [reply] })
    await ok(creds, "/v2/activities/add", { ...inDoc, activities: [{ featureType: "custom", actionType: "shipped", actionUser: { userId: "alice" }, targetEntityId: "e" }] })

    const expected = [
      "comment_annotation.add",
      "comment.add",
      "comment.update",
      "comment.reaction_add",
      "comment.reaction_delete",
      "comment_annotation.status_change",
      "comment_annotation.assign",
      "comment_annotation.priority_change",
      "comment.delete",
      "custom.shipped"
    ]
    expect(recorded.inTransaction(creds.apiKey)).toEqual(expected)
    expect(recorded.afterCommit(creds.apiKey)).toEqual(expected)
    const [first] = recorded.events(creds.apiKey)
    expect(first).toMatchObject({ channels: ["org", "org/doc"], data: { commentAnnotation: { annotationId: "t" } } })
    // The webhook outbox did not follow this key (its advanced webhooks are off): nothing was recorded for it.
    expect((await ctx().client.post("/v2/workspace/advancedwebhook/messages/get", {}, creds.headers)).body.error.status).toBe("FAILED_PRECONDITION")
  })

  it("tells no one of a refused change, and no after-commit listener of one that rolled back", async () => {
    recorded.reset()
    const creds = await ctx().workspace()
    await ok(creds, "/v2/commentannotations/add", { ...inDoc, createOrganization: true, createDocument: true, commentAnnotations: [thread("t", "first")] })
    const refused = await ctx().client.post("/v2/commentannotations/add", { ...inDoc, commentAnnotations: [thread("t", "again")] }, creds.headers)
    expect(refused.status).toBe(409)
    // A host's own transaction around a service call that then fails: the comment's event was
    // written in it, but the change never committed.
    const rolledBack = ctx().atrium.runtime.runPromiseExit(Effect.gen(function*() {
      const { withTransaction } = yield* Transactions
      return yield* withTransaction(Effect.zipRight(
        Comments.addComments(creds.apiKey, { ...inDoc, annotationId: "t", commentData: [{ commentText: "lost", from: { userId: "bob" } }] }),
        Effect.fail("the host's next step failed")
      ))
    }))
    expect((await rolledBack)._tag).toBe("Failure")
    expect(recorded.inTransaction(creds.apiKey)).toEqual(["comment_annotation.add", "comment.add"])
    expect(recorded.afterCommit(creds.apiKey)).toEqual(["comment_annotation.add"])
    const comments = await ok(creds, "/v2/commentannotations/comments/get", { ...inDoc, annotationId: "t" })
    expect(comments.data.map((c: { commentText: string }) => c.commentText)).toEqual(["first"])
  })
}, { listeners: [recorded.listener] })

it("builds and writes nothing when no listener follows the key", async () => {
  let built = false
  const asleep: EventListener = {
    name: "follows nobody",
    follows: () => Effect.succeed(false),
    inTransaction: () => Effect.die("told although it follows nobody")
  }
  const program = Effect.gen(function*() {
    yield* Events.emit("key", Effect.sync(() => {
      built = true
      return [{ type: "thing.done", data: {}, channels: [], organizationId: null }]
    }))
  })
  await Effect.runPromise(program.pipe(Effect.provide(atriumLayer({ storage: MemoryStorage, listeners: [asleep] }))))
  expect(built).toBe(false)
})

it("runs the enrichers only when a listener that reads their additions follows", async () => {
  let enrichedTimes = 0
  const enricher: EventEnricher = {
    name: "counting enricher",
    enrich: (_apiKey, events) => Effect.sync(() => {
      enrichedTimes++
      return events.map((event) => ({ ...event, data: { ...event.data, added: true } }))
    })
  }
  const told = { plain: [] as Array<NewEvent>, host: [] as Array<NewEvent> }
  // Atrium's notifications and email listeners are plain: they read only what the domain emitted.
  const plain: EventListener = {
    name: "plain",
    plain: true,
    follows: () => Effect.succeed(true),
    inTransaction: ({ events }) => Effect.sync(() => void told.plain.push(...events))
  }
  const host: EventListener = {
    name: "host",
    follows: (apiKey) => Effect.succeed(apiKey === "watched"),
    inTransaction: ({ events }) => Effect.sync(() => void told.host.push(...events))
  }
  const event: NewEvent = { type: "thing.done", data: { n: 1 }, channels: [], organizationId: null }
  const layer = Events.Default.pipe(
    Layer.provide(Layer.succeed(EventListeners, [plain, host])),
    Layer.provide(Layer.succeed(EventEnrichers, [enricher]))
  )
  await Effect.runPromise(Effect.gen(function*() {
    yield* Events.emit("quiet", [event])
    expect(enrichedTimes).toBe(0)
    expect(told.plain.map((e) => e.data)).toEqual([{ n: 1 }])
    yield* Events.emit("watched", [event])
    expect(enrichedTimes).toBe(1)
    expect(told.host.map((e) => e.data)).toEqual([{ n: 1, added: true }])
    expect(told.plain.map((e) => e.data)).toEqual([{ n: 1 }, { n: 1, added: true }])
  }).pipe(Effect.provide(layer)))
})
