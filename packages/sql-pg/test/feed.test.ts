/**
 * The PostgreSQL change feed (PgChangeFeed.ts; docs/realtime.md, "Across servers"): what one server
 * publishes reaches every server on the database once its transaction commits, in commit order,
 * never from a rollback; a followed key's change written through another server's API is logged
 * and told back; a lost LISTEN connection comes back and says `gap()`; no LISTEN connection is open
 * while nobody listens. Two servers (and, for schemas, three more) on one real database.
 */
import { type AtriumHandler, ChangeFeed, createAtrium, Followers, RealtimeLogRepo, Transactions } from "@atrium/core"
import type { FeedMessage } from "@atrium/core/sql"
import { createTestWorkspace, directClient, type TestCredentials, testAtrium } from "@atrium/core/testing"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Scope from "effect/Scope"
import { createServer, connect, type Server, type Socket } from "node:net"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { FEED_APPLICATION_NAME, feedChannel, PgChangeFeed, PgStorage } from "../src/index.js"
import { testDatabase } from "../src/testing/index.js"

const db = await testDatabase()
/** PGlite serves every connection from one session: there is no other session to notify. */
const embedded = db.server.startsWith("PGlite")

/** What a listener on a server heard. */
interface Heard {
  readonly messages: Array<FeedMessage>
  gaps: number
  readonly close: () => Promise<void>
}

const run = <A>(atrium: AtriumHandler, effect: Effect.Effect<A, unknown, any>): Promise<A> =>
  atrium.runtime.runPromise(effect as Effect.Effect<A>)

const publish = (message: FeedMessage) => Effect.flatMap(ChangeFeed, (feed) => feed.publish(message))
const inTransaction = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(Transactions, ({ withTransaction }) => withTransaction(effect))
const change = (apiKey: string, seq: number, documentId = "doc"): FeedMessage =>
  ({ kind: "change", apiKey, organizationId: "org", documentId, seq })
const seqsOf = (heard: Heard, apiKey: string) => heard.messages.flatMap((m) => m.kind === "change" && m.apiKey === apiKey ? [m.seq] : [])

/** Listens on the server's feed until `close`; `onMessage` runs on each message too. */
const listenOn = async (atrium: AtriumHandler, onMessage: (message: FeedMessage) => void = () => {}): Promise<Heard> => {
  const scope = await run(atrium, Scope.make())
  const heard: Heard = { messages: [], gaps: 0, close: () => run(atrium, Scope.close(scope, Exit.void)) }
  await run(
    atrium,
    Effect.flatMap(ChangeFeed, (feed) =>
      feed.listen({
        message: (message) => {
          heard.messages.push(message)
          onMessage(message)
        },
        gap: () => void heard.gaps++
      })).pipe(Scope.extend(scope))
  )
  return heard
}

let flushes = 0
/**
 * Returns once every listener has heard a message `from` publishes now: PostgreSQL delivers in
 * commit order, so by then they have heard everything committed before it.
 */
const flushed = async (from: AtriumHandler, ...listeners: ReadonlyArray<Heard>) => {
  const marker: FeedMessage = { kind: "follow", apiKey: `flush_${++flushes}` }
  await run(from, publish(marker))
  await vi.waitFor(() => {
    for (const heard of listeners) expect(heard.messages).toContainEqual(marker)
  }, { timeout: 5_000, interval: 10 })
}

describe.skipIf(embedded)("the PostgreSQL change feed", () => {
  let one: AtriumHandler
  let two: AtriumHandler
  let admin: pg.Client
  /** The backends of LISTEN connections on the test's database. */
  const listenConnections = async () =>
    (await admin.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()",
      [FEED_APPLICATION_NAME]
    )).rows.map((row) => row.pid)

  beforeAll(async () => {
    one = testAtrium(PgStorage.layer({ url: db.url }))
    await one.ready()
    // The second server: its own process state, the same database (random ids: the first's are sequential).
    two = createAtrium({ storage: PgStorage.layer({ url: db.url }), options: { allowPrivateNetworks: true } })
    await two.ready()
    admin = new pg.Client({ connectionString: db.url })
    await admin.connect()
  })
  afterAll(async () => {
    await admin?.end()
    await one?.dispose()
    await two?.dispose()
    await db.drop()
  })

  it("opens no LISTEN connection while nobody listens, one per server while some do, and closes it after the last", async () => {
    // Servers that have served requests, but no realtime.
    await createTestWorkspace(directClient(one))
    await createTestWorkspace(directClient(two))
    expect(await listenConnections()).toEqual([])

    const first = await listenOn(one)
    const second = await listenOn(one)
    expect(await listenConnections()).toHaveLength(1)
    await first.close()
    expect(await listenConnections()).toHaveLength(1)
    await second.close()
    await vi.waitFor(async () => expect(await listenConnections()).toEqual([]), { timeout: 5_000, interval: 20 })

    // A server stopped while it listens closes its connection with it.
    const three = createAtrium({ storage: PgStorage.layer({ url: db.url }), options: { allowPrivateNetworks: true } })
    await three.ready()
    await listenOn(three)
    expect(await listenConnections()).toHaveLength(1)
    await three.dispose()
    await vi.waitFor(async () => expect(await listenConnections()).toEqual([]), { timeout: 5_000, interval: 20 })
  })

  it("a listener on one server hears what another commits, in commit order, and nothing that rolled back", async () => {
    const heard = await listenOn(one)
    try {
      const apiKey = "key_order"
      await run(two, inTransaction(publish(change(apiKey, 1))))
      await run(two, inTransaction(Effect.zipRight(publish(change(apiKey, 2)), Effect.fail("rolled back"))).pipe(Effect.ignore))

      // Published first, committed last.
      let release!: () => void
      const gate = new Promise<void>((resolve) => release = resolve)
      let published!: () => void
      const inside = new Promise<void>((resolve) => published = resolve)
      const slow = run(two, inTransaction(Effect.gen(function*() {
        yield* publish(change(apiKey, 3))
        published()
        yield* Effect.promise(() => gate)
      })))
      await inside
      await run(two, inTransaction(publish(change(apiKey, 4))))
      await flushed(two, heard)
      expect(seqsOf(heard, apiKey)).toEqual([1, 4]) // 3's transaction is still open
      release()
      await slow
      await flushed(two, heard)
      expect(seqsOf(heard, apiKey)).toEqual([1, 4, 3])

      // Outside a transaction: at once; and the publishing server hears itself too.
      const here = await listenOn(two)
      try {
        await run(two, publish(change(apiKey, 5)))
        await flushed(one, heard, here)
        expect(seqsOf(heard, apiKey)).toEqual([1, 4, 3, 5])
        expect(seqsOf(here, apiKey)).toEqual([5])
      } finally {
        await here.close()
      }
      expect(heard.gaps).toBe(0)
    } finally {
      await heard.close()
    }
  })

  it("ignores, without an error, a notification on the channel that is not a feed message", async () => {
    const heard = await listenOn(one)
    try {
      const channel = feedChannel()
      await admin.query(`NOTIFY ${channel}, 'hello'`)
      await admin.query(`NOTIFY ${channel}`)
      await admin.query("SELECT pg_notify($1, $2)", [channel, JSON.stringify({ kind: "change", apiKey: "key_half" })])
      await admin.query("SELECT pg_notify($1, $2)", [channel, "[1, 2"])
      await flushed(two, heard)
      expect(heard.messages.filter((m) => !m.apiKey.startsWith("flush_"))).toEqual([])
      // Still listening.
      await run(two, publish(change("key_after", 1)))
      await flushed(two, heard)
      expect(seqsOf(heard, "key_after")).toEqual([1])
      expect(heard.gaps).toBe(0)
    } finally {
      await heard.close()
    }
  })

  it("a listener that throws is logged, and the others are still told", async () => {
    const throwing = await listenOn(one, () => {
      throw new Error("a listener's bug")
    })
    const heard = await listenOn(one)
    try {
      await run(two, publish(change("key_throw", 1)))
      await run(two, publish(change("key_throw", 2)))
      await flushed(two, heard)
      expect(seqsOf(heard, "key_throw")).toEqual([1, 2])
      expect(seqsOf(throwing, "key_throw")).toEqual([1, 2])
    } finally {
      await throwing.close()
      await heard.close()
    }
  })

  it("a key followed on one server: a comment written through the other's API is logged and told back", async () => {
    const creds: TestCredentials = await createTestWorkspace(directClient(one))
    const post = async (atrium: AtriumHandler, path: string, data: unknown) => {
      const answer = await directClient(atrium).post(path, data, creds.headers)
      if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`)
    }
    const addThread = (atrium: AtriumHandler, documentId: string, annotationId: string) =>
      post(atrium, "/v2/commentannotations/add", {
        organizationId: "org",
        documentId,
        createOrganization: true,
        createDocument: true,
        commentAnnotations: [{ annotationId, commentData: [{ commentText: "hi", from: { userId: "ann" } }] }]
      })
    const onOne = await listenOn(one)
    // The other server believes a follow message, as its realtime hub will.
    const onTwo = await listenOn(two, (message) => {
      if (message.kind === "follow") two.runtime.runSync(Followers.followedElsewhere(message.apiKey))
    })
    try {
      // Before the follow: the other server reads that nobody follows the key (and trusts that a second).
      await addThread(two, "doc", "before")
      await run(one, Followers.add(creds.apiKey))
      await vi.waitFor(() => expect(onTwo.messages).toContainEqual({ kind: "follow", apiKey: creds.apiKey }), { timeout: 5_000, interval: 10 })
      await addThread(two, "doc", "after")

      const logged = await run(one, Effect.flatMap(RealtimeLogRepo, (log) =>
        log.since({ apiKey: creds.apiKey, organizationId: "org", documentId: "doc" }, 0, 100)))
      expect(logged.length).toBeGreaterThan(0)
      expect(logged.map((e) => e.seq)).toEqual(logged.map((_, i) => i + 1))
      expect(logged.some((e) => e.payloadJson.includes("\"after\""))).toBe(true)
      expect(logged.some((e) => e.payloadJson.includes("\"before\""))).toBe(false)
      await vi.waitFor(() => expect(seqsOf(onOne, creds.apiKey).at(-1)).toBe(logged.at(-1)!.seq), { timeout: 5_000, interval: 10 })
    } finally {
      await run(one, Followers.remove(creds.apiKey))
      await onOne.close()
      await onTwo.close()
    }
  })

  it("a LISTEN connection killed under a server comes back, says gap(), and hears again", async () => {
    const heard = await listenOn(one)
    try {
      await flushed(two, heard)
      const [before] = await listenConnections()
      expect(before).toBeDefined()
      const killed = await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()", [FEED_APPLICATION_NAME])
      expect(killed.rowCount).toBe(1)
      await vi.waitFor(() => expect(heard.gaps).toBe(1), { timeout: 10_000, interval: 10 })
      const after = await listenConnections()
      expect(after).toHaveLength(1)
      expect(after[0]).not.toBe(before)

      await run(two, inTransaction(publish(change("key_back", 1))))
      await flushed(two, heard)
      expect(seqsOf(heard, "key_back")).toEqual([1])
      expect(heard.gaps).toBe(1)
    } finally {
      await heard.close()
    }
  })

  it("a LISTEN connection whose peer goes silent is counted lost by its ping, made again, and says gap()", async () => {
    // A proxy to the database whose connections can be frozen: nothing passes, nothing closes (a dropped NAT entry).
    const target = new URL(db.url)
    const frozen: Array<() => void> = []
    const ends = new Set<Socket>()
    const proxy = createServer((socket) => {
      const upstream = connect(Number(target.port || 5432), target.hostname)
      for (const end of [socket, upstream]) {
        ends.add(end)
        end.on("error", () => {})
      }
      socket.on("close", () => upstream.destroy())
      upstream.on("close", () => socket.destroy())
      socket.pipe(upstream).pipe(socket)
      frozen.push(() => {
        socket.unpipe(upstream)
        upstream.unpipe(socket)
        socket.pause()
        upstream.pause()
      })
    })
    const port = await new Promise<number>((resolve) => proxy.listen(0, "127.0.0.1", () => resolve((proxy.address() as { port: number }).port)))
    const behindProxy = new URL(db.url)
    behindProxy.host = `127.0.0.1:${port}`
    const heard: Omit<Heard, "close"> = { messages: [], gaps: 0 }
    try {
      await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
        const feed = yield* ChangeFeed
        yield* feed.listen({ message: (message) => void heard.messages.push(message), gap: () => void heard.gaps++ })
        yield* feed.publish(change("key_silent", 1))
        yield* Effect.promise(() => vi.waitFor(() => expect(seqsOf(heard as Heard, "key_silent")).toEqual([1]), { timeout: 5_000, interval: 10 }))
        // The connection goes silent: no error, no end. Only the ping can tell.
        frozen.splice(0).forEach((freeze) => freeze())
        yield* Effect.promise(() => vi.waitFor(() => expect(heard.gaps).toBe(1), { timeout: 10_000, interval: 20 }))
        yield* feed.publish(change("key_silent", 2))
        yield* Effect.promise(() => vi.waitFor(() => expect(seqsOf(heard as Heard, "key_silent")).toEqual([1, 2]), { timeout: 5_000, interval: 10 }))
      })).pipe(Effect.provide(
        PgChangeFeed({ url: behindProxy.toString(), pingIntervalMillis: 200, pingTimeoutMillis: 300 }).pipe(Layer.provide(PgStorage.clientLayer({ url: db.url })))
      )))
    } finally {
      // A frozen connection never ends by itself (its database session included).
      for (const end of ends) end.destroy()
      await new Promise((resolve) => proxy.close(resolve))
    }
    await vi.waitFor(async () => expect(await listenConnections()).toEqual([]), { timeout: 5_000, interval: 50 })
  })

  it("Atriums in different schemas of one database do not hear each other", async () => {
    const inSchema = (schema: string) => createAtrium({ storage: PgStorage.layer({ url: db.url, schema }), options: { allowPrivateNetworks: true } })
    const [left, alsoLeft, right] = [inSchema("feed_left"), inSchema("feed_left"), inSchema("feed_right")]
    try {
      await Promise.all([left.ready(), alsoLeft.ready(), right.ready()])
      const onLeft = await listenOn(left)
      const onRight = await listenOn(right)
      const onDefault = await listenOn(one)
      await run(right, publish(change("key_schema", 1)))
      await run(alsoLeft, publish(change("key_schema", 2)))
      await run(two, publish(change("key_schema", 3)))
      await flushed(alsoLeft, onLeft)
      await flushed(right, onRight)
      await flushed(two, onDefault)
      expect(seqsOf(onLeft, "key_schema")).toEqual([2])
      expect(seqsOf(onRight, "key_schema")).toEqual([1])
      expect(seqsOf(onDefault, "key_schema")).toEqual([3])
      await onDefault.close()
    } finally {
      await Promise.all([left.dispose(), alsoLeft.dispose(), right.dispose()])
    }
  })

  it("a first listen while the database cannot be reached returns at once, and says gap() once it can", async () => {
    // A port nothing listens on, until a proxy to the database opens there.
    const probe = createServer()
    const port = await new Promise<number>((resolve) => probe.listen(0, "127.0.0.1", () => resolve((probe.address() as { port: number }).port)))
    await new Promise((resolve) => probe.close(resolve))
    const behindProxy = new URL(db.url)
    behindProxy.host = `127.0.0.1:${port}`
    const target = new URL(db.url)
    let proxy: Server | undefined
    const sockets = new Set<Socket>()
    const openProxy = () =>
      new Promise<void>((resolve) => {
        proxy = createServer((socket) => {
          const upstream = connect(Number(target.port || 5432), target.hostname)
          for (const end of [socket, upstream]) {
            sockets.add(end)
            end.on("error", () => {})
            end.on("close", () => {
              socket.destroy()
              upstream.destroy()
            })
          }
          socket.pipe(upstream).pipe(socket)
        })
        proxy.listen(port, "127.0.0.1", () => resolve())
      })
    const closeProxy = () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        proxy!.close(() => resolve())
      })

    const heard: Omit<Heard, "close"> = { messages: [], gaps: 0 }
    await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
      const feed = yield* ChangeFeed
      yield* feed.listen({ message: (message) => void heard.messages.push(message), gap: () => void heard.gaps++ })
      // Returned without a connection: what is published meanwhile is missed, and gap() says so.
      yield* feed.publish(change("key_unreachable", 1))
      yield* Effect.promise(openProxy)
      yield* Effect.promise(() => vi.waitFor(() => expect(heard.gaps).toBe(1), { timeout: 10_000, interval: 10 }))
      yield* feed.publish(change("key_unreachable", 2))
      yield* Effect.promise(() => vi.waitFor(() => expect(heard.messages).toContainEqual(change("key_unreachable", 2)), { timeout: 5_000, interval: 10 }))
      expect(seqsOf(heard as Heard, "key_unreachable")).toEqual([2])
      // Lost again, and not back by the time the scope closes: closing does not wait for it.
      yield* Effect.promise(closeProxy)
    })).pipe(Effect.provide(PgChangeFeed({ url: behindProxy.toString() }).pipe(Layer.provide(PgStorage.clientLayer({ url: db.url }))))))
    expect(await listenConnections()).toEqual([])
  })

  it("names a channel PostgreSQL takes for every schema name", async () => {
    expect(feedChannel()).toBe("atrium_changes")
    expect(feedChannel("atrium")).toBe("atrium_changes_atrium")
    const long = `${"s".repeat(40)}_${"a".repeat(22)}`
    const alike = `${"s".repeat(40)}_${"b".repeat(22)}`
    expect(feedChannel(long)).toHaveLength(63)
    expect(feedChannel(long)).not.toBe(feedChannel(alike))
    // pg_notify refuses a channel name of 64 characters or more.
    await admin.query("SELECT pg_notify($1, 'x')", [feedChannel(long)])
    await expect(admin.query("SELECT pg_notify($1, 'x')", [`atrium_changes_${long}`])).rejects.toThrow(/too long/)
  })
})
