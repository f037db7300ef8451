import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { randomBase62 } from "../ports/Ids.js"
import { ChangeFeed } from "./ChangeFeed.js"
import { RealtimeLogRepo } from "./RealtimeLogRepo.js"

/** How long a server's follow lasts unless renewed, and how often a serving server renews it. */
export const FOLLOW_TTL_MILLIS = 30_000
export const FOLLOW_RENEW_MILLIS = 10_000
/** How long this server trusts what it read of the other servers' follows. */
const REMOTE_TTL_MILLIS = 1_000

/**
 * Which API keys realtime follows (docs/realtime.md, "Who follows"): changes of a key are logged
 * only while some server holds a subscriber of it. This server's own keys are known at once; the
 * others' are read from storage at most once a second, and a server's first subscriber of a key
 * tells every server through the feed, so a change made elsewhere right after is logged.
 */
export class Followers extends Effect.Service<Followers>()("@atrium/core/RealtimeFollowers", {
  accessors: true,
  effect: Effect.gen(function*() {
    const repo = yield* RealtimeLogRepo
    const feed = yield* ChangeFeed
    // Random whatever the Ids port: two servers on one database, each with the tests' sequential ids, must differ.
    const serverId = `srv_${randomBase62(16)}`
    /** Subscribers here, per key. */
    const local = new Map<string, number>()
    let remote: { readonly keys: Set<string>; readonly until: number } = { keys: new Set(), until: 0 }

    const isFollowed = (apiKey: string): Effect.Effect<boolean> => {
      if (local.has(apiKey)) return Effect.succeed(true)
      return Effect.flatMap(Clock.currentTimeMillis, (now) => {
        if (now < remote.until) return Effect.succeed(remote.keys.has(apiKey))
        return Effect.map(repo.followedKeys(now), (keys) => {
          remote = { keys: new Set(keys), until: now + REMOTE_TTL_MILLIS }
          return remote.keys.has(apiKey)
        })
      })
    }

    return {
      serverId,
      isFollowed,
      /** A subscriber of the key here: the first one writes the follow and tells every server. */
      add: (apiKey: string) =>
        Effect.suspend(() => {
          const count = local.get(apiKey) ?? 0
          local.set(apiKey, count + 1)
          if (count > 0) return Effect.void
          return Effect.flatMap(Clock.currentTimeMillis, (now) =>
            Effect.zipRight(repo.follow(serverId, [apiKey], now, now + FOLLOW_TTL_MILLIS), feed.publish({ kind: "follow", apiKey })))
        }),
      /**
       * A subscriber of the key here is gone. After the last one the key stays followed until its
       * row expires (FOLLOW_TTL_MILLIS after its last renewal, no longer renewed): a user whose
       * socket dropped, alone on the key, resumes from the log when it is back within that time.
       */
      remove: (apiKey: string) =>
        Effect.sync(() => {
          const count = local.get(apiKey) ?? 0
          if (count > 1) return void local.set(apiKey, count - 1)
          local.delete(apiKey)
          // The row says so at the next read; until then, believed here (a read from before the row was written may be cached).
          if (count === 1) remote.keys.add(apiKey)
        }),
      /** Another server follows the key now (a feed message): believed until the next read. */
      followedElsewhere: (apiKey: string) => Effect.sync(() => void remote.keys.add(apiKey)),
      /** Renews this server's follows and forgets those of servers gone (every FOLLOW_RENEW_MILLIS while it serves). */
      renew: Effect.flatMap(Clock.currentTimeMillis, (now) =>
        Effect.zipRight(repo.follow(serverId, [...local.keys()], now, now + FOLLOW_TTL_MILLIS), repo.forgetExpiredFollows(now))),
      /** Since when the key's changes have been logged without a break (the run of follows live now). */
      since: (apiKey: string) => Effect.flatMap(Clock.currentTimeMillis, (now) => repo.followedSince(apiKey, now)),
      /**
       * This server stops: it renews nothing more, and its follows run out as a lost connection's
       * would (FOLLOW_TTL_MILLIS), so the users it served, reconnecting to another server (a
       * rolling deploy), resume without loss.
       */
      stop: Effect.sync(() => local.clear())
    }
  })
}) {}
