import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { type ApiError, invalidArgument } from "../protocol/ApiError.js"
import { Transactions } from "../ports/Transactions.js"
import { ChangeFeed } from "../realtime/ChangeFeed.js"
import { jsonBytes } from "../schema/Common.js"
import { type LiveStateKey, LiveStateRepo } from "./LiveStateRepo.js"
import { MAX_LIVE_STATE_BYTES } from "./LiveStateSchemas.js"

/** One broadcast: its data, and who sent it. */
export interface Broadcast {
  /** A JSON object. */
  readonly data: Readonly<Record<string, unknown>>
  /** Set its keys over the stored data (a shallow merge) rather than replace it. */
  readonly merge: boolean
  /** The user whose connection sent it; null for the server API. */
  readonly userId: string | null
  /** The connection that sent it, which is not sent it back; null for the server API. */
  readonly origin: string | null
}

/**
 * Live state (docs/realtime.md, "Broadcast"): data a host or an editor's page sends to every
 * subscriber of a document, kept per `liveStateDataId` so a broadcast may merge into the last one,
 * on any server. Not an event: nothing is logged, nor resent to a subscriber that comes later.
 */
export class LiveState extends Effect.Service<LiveState>()("@atrium/core/LiveState", {
  accessors: true,
  effect: Effect.gen(function*() {
    const repo = yield* LiveStateRepo
    const feed = yield* ChangeFeed
    const { lock, withTransaction } = yield* Transactions

    return {
      /**
       * Stores the data (merged into the last, with `merge`) as the live state's next version, and
       * once it commits tells every server, whose hubs read it and send it to the document's
       * subscribers. INVALID_ARGUMENT when a merge would leave more than MAX_LIVE_STATE_BYTES.
       */
      broadcast: (key: LiveStateKey, broadcast: Broadcast): Effect.Effect<void, ApiError<"INVALID_ARGUMENT">> =>
        withTransaction(Effect.gen(function*() {
          yield* lock("live-state", key.apiKey, key.organizationId, key.documentId, key.liveStateDataId) // a merge reads what it changes
          const last = yield* repo.find(key)
          const data = broadcast.merge && last !== undefined ? { ...JSON.parse(last.data) as object, ...broadcast.data } : broadcast.data
          const bytes = jsonBytes(data)
          if (bytes > MAX_LIVE_STATE_BYTES) {
            return yield* Effect.fail(invalidArgument(
              `Live state ${key.liveStateDataId} merged with this data would be ${bytes} bytes of JSON: at most ${MAX_LIVE_STATE_BYTES}.`
            ))
          }
          const version = (last?.version ?? 0) + 1
          yield* repo.put({ ...key, data: JSON.stringify(data), version, updatedAt: yield* Clock.currentTimeMillis })
          yield* feed.publish({ kind: "broadcast", ...key, version, userId: broadcast.userId, origin: broadcast.origin })
        }))
    }
  })
}) {}
