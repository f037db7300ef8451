import * as SqlClient from "@effect/sql/SqlClient"
import { ChangeFeed } from "@atrium/core"
import { decodeFeedMessage, encodeFeedMessage, type FeedListener, ignoreRows } from "@atrium/core/sql"
import * as Cause from "effect/Cause"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as FiberId from "effect/FiberId"
import * as Layer from "effect/Layer"
import * as Runtime from "effect/Runtime"
import { createHash } from "node:crypto"
import pg from "pg"

/** The channel of an Atrium whose tables are in the connection's default schema. */
export const FEED_CHANNEL = "atrium_changes"

/** The `application_name` of each server's LISTEN connection (what `pg_stat_activity` shows). */
export const FEED_APPLICATION_NAME = "atrium-feed"

/** PostgreSQL's longest identifier (NAMEDATALEN - 1): `pg_notify` refuses a longer channel. */
const MAX_CHANNEL_LENGTH = 63

/**
 * The channel of the Atrium whose tables are in `schema` (docs/decisions.md, "Realtime"): two
 * Atriums in different schemas of one database must not hear each other. A schema name too long
 * for the channel keeps its first 39 characters and 8 hex digits of its hash.
 */
export const feedChannel = (schema?: string): string => {
  if (schema === undefined) return FEED_CHANNEL
  const channel = `${FEED_CHANNEL}_${schema}`
  if (channel.length <= MAX_CHANNEL_LENGTH) return channel
  const hash = createHash("sha256").update(schema).digest("hex").slice(0, 8)
  return `${FEED_CHANNEL}_${schema.slice(0, MAX_CHANNEL_LENGTH - FEED_CHANNEL.length - 10)}_${hash}`
}

export interface PgChangeFeedOptions {
  /** The database's URL: the LISTEN connection is made to it. */
  readonly url: string
  /** The storage's `schema`, which names the channel (`feedChannel`). */
  readonly schema?: string | undefined
  /** How long to wait for the LISTEN connection (default 5 s). */
  readonly connectTimeoutMillis?: number | undefined
  /**
   * How often the LISTEN connection is asked `SELECT 1` (default 15 s); no answer within
   * `pingTimeoutMillis` (default 5 s) counts it lost, so it is made again and listeners told gap().
   */
  readonly pingIntervalMillis?: number | undefined
  readonly pingTimeoutMillis?: number | undefined
}

const CONNECT_TIMEOUT_MILLIS = 5_000
const PING_INTERVAL_MILLIS = 15_000
const PING_TIMEOUT_MILLIS = 5_000
/** The wait before reconnecting: 100 ms after a loss, doubled after each failed attempt, at most 5 s. */
const FIRST_RETRY_MILLIS = 100
const MAX_RETRY_MILLIS = 5_000
const retryDelay = (failures: number) => Math.min(FIRST_RETRY_MILLIS * 2 ** failures, MAX_RETRY_MILLIS)

/** A pause on the platform's clock: a test clock in the runtime must not hold a reconnect up. */
const sleep = (millis: number) =>
  Effect.async<void>((resume) => {
    const timer = setTimeout(() => resume(Effect.void), millis)
    return Effect.sync(() => clearTimeout(timer))
  })

/**
 * A connection of its own (not the pool's: LISTEN belongs to a session), listening on the channel,
 * each notification handed to `onPayload`; closed with the scope. Succeeds once LISTEN ran, with
 * a promise of the cause of the connection's loss.
 */
const openListening = (options: PgChangeFeedOptions, channel: string, onPayload: (payload: string) => void) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const client = new pg.Client({
          connectionString: options.url,
          application_name: FEED_APPLICATION_NAME,
          connectionTimeoutMillis: options.connectTimeoutMillis ?? CONNECT_TIMEOUT_MILLIS,
          // The connection is idle between notifications: let the OS notice a peer gone silent.
          keepAlive: true
        })
        // Handlers stay for the client's life: an 'error' nobody handles would end the process.
        let ping: ReturnType<typeof setInterval> | undefined
        const lost = new Promise<unknown>((resolve) => {
          client.on("error", resolve)
          client.on("end", () => resolve(new Error("the connection ended")))
          // A peer gone silent (a dropped NAT entry, a frozen network) ends nothing and errs nothing:
          // TCP keep-alive would notice in hours. A ping that goes unanswered counts the connection lost.
          const timeout = options.pingTimeoutMillis ?? PING_TIMEOUT_MILLIS
          ping = setInterval(() => {
            const silent = setTimeout(() => resolve(new Error(`no answer to a ping in ${timeout} ms`)), timeout)
            client.query("SELECT 1").then(() => clearTimeout(silent), (error) => {
              clearTimeout(silent)
              resolve(error)
            })
          }, options.pingIntervalMillis ?? PING_INTERVAL_MILLIS)
        }).finally(() => clearInterval(ping))
        client.on("notification", (notification) => {
          if (notification.channel === channel && notification.payload !== undefined) onPayload(notification.payload)
        })
        try {
          await client.connect()
          await client.query(`LISTEN "${channel.replaceAll("\"", "\"\"")}"`)
        } catch (error) {
          client.end().catch(() => {})
          throw error
        }
        return { client, lost }
      },
      catch: (error) => error
    }),
    ({ client }) =>
      Effect.promise(() => client.end().catch(() => {})).pipe(
        Effect.timeoutOption(1_000),
        // A silent peer never answers the goodbye: the socket goes anyway.
        Effect.ensuring(Effect.sync(() => (client as unknown as { connection?: { stream?: { destroy?: () => void } } }).connection?.stream?.destroy?.()))
      )
  )

/** The error's message for a log line (never the URL: pg's errors do not carry it). */
const messageOf = (cause: unknown) => cause instanceof Error ? cause.message : String(cause)

/**
 * The change feed of servers sharing a PostgreSQL database (docs/realtime.md, "Across servers").
 * `publish` is `pg_notify` on the storage's client: inside a transaction PostgreSQL delivers it
 * once the transaction commits, in commit order, and drops it on rollback — the port's contract.
 * `listen` shares one LISTEN connection per server, opened at the first listener and closed after
 * the last (or with the layer), so a server that serves no realtime opens none. A lost connection
 * is made again (after 100 ms, doubling up to 5 s) and every listener is then told `gap()`.
 */
export const makePgChangeFeed = (options: PgChangeFeedOptions) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const channel = feedChannel(options.schema)
    // The fiber that keeps the connection is forked from here, not from the first listener's
    // request: it outlives that request and logs with the runtime's logger and nothing of the request.
    const runtime = yield* Effect.runtime<never>()
    const listeners = new Set<FeedListener>()

    /** Calls every listener, a throwing one logged rather than thrown into pg's event handler. */
    const tellEach = (tell: (listener: FeedListener) => void) => {
      for (const listener of listeners) {
        try {
          tell(listener)
        } catch (error) {
          Runtime.runFork(runtime)(Effect.logWarning("realtime feed: a listener failed", Cause.die(error)))
        }
      }
    }
    const onPayload = (payload: string) => {
      const message = decodeFeedMessage(payload)
      if (message !== undefined) tellEach((listener) => listener.message(message)) // else another program's NOTIFY
    }

    /** Keeps the connection until interrupted; `settled` is done once the first attempt is over. */
    const keepListening = (settled: Deferred.Deferred<void>) => {
      const attempt = (failures: number, missed: boolean): Effect.Effect<never> =>
        Effect.scoped(Effect.gen(function*() {
          const { lost } = yield* openListening(options, channel, onPayload)
          yield* Deferred.succeed(settled, undefined)
          // Listening again before the gap is told: what commits from now on is heard.
          if (missed) tellEach((listener) => listener.gap())
          return yield* Effect.promise(() => lost)
        })).pipe(
          Effect.matchCauseEffect({
            onSuccess: (lostBecause) =>
              Effect.logWarning(`realtime feed: the LISTEN connection was lost (${messageOf(lostBecause)}); reconnecting`).pipe(
                Effect.zipRight(sleep(retryDelay(0))),
                Effect.zipRight(Effect.suspend(() => attempt(1, true)))
              ),
            onFailure: (cause) =>
              Effect.logWarning(`realtime feed: cannot LISTEN (${messageOf(Cause.squash(cause))}); retrying in ${retryDelay(failures)} ms`).pipe(
                Effect.zipRight(Deferred.succeed(settled, undefined)),
                Effect.zipRight(sleep(retryDelay(failures))),
                Effect.zipRight(Effect.suspend(() => attempt(failures + 1, true)))
              )
          })
        )
      return attempt(0, false)
    }

    let running: { readonly fiber: Fiber.RuntimeFiber<never>; readonly settled: Deferred.Deferred<void> } | undefined
    /** Closes the connection; an attempt to connect in flight is let finish first (at most the connect timeout). */
    const stop = Effect.suspend(() => {
      if (running === undefined) return Effect.void
      const { fiber } = running
      running = undefined
      return Fiber.interrupt(fiber)
    })
    yield* Effect.addFinalizer(() => stop)

    return ChangeFeed.of({
      publish: (message) => sql`SELECT pg_notify(${channel}, ${encodeFeedMessage(message)})`.pipe(ignoreRows),
      listen: (listener) =>
        Effect.acquireRelease(
          Effect.sync(() => {
            listeners.add(listener)
            if (running === undefined) {
              const settled = Deferred.unsafeMake<void>(FiberId.none)
              running = { fiber: Runtime.runFork(runtime)(keepListening(settled)), settled }
            }
            return running.settled
          }),
          () => Effect.suspend(() => {
            listeners.delete(listener)
            return listeners.size === 0 ? stop : Effect.void
          })
        ).pipe(
          // The first listener returns once LISTEN runs (or its first attempt failed: `gap()` follows when it is back).
          Effect.flatMap(Deferred.await)
        )
    })
  })

/** The PostgreSQL `ChangeFeed` (`makePgChangeFeed`) as a layer over the storage's client. */
export const PgChangeFeed = (options: PgChangeFeedOptions): Layer.Layer<ChangeFeed, never, SqlClient.SqlClient> =>
  Layer.scoped(ChangeFeed, makePgChangeFeed(options))
