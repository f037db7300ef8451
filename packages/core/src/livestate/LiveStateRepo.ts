import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

/** Which live state: one per document and `liveStateDataId`. */
export interface LiveStateKey {
  readonly apiKey: string
  readonly organizationId: string
  readonly documentId: string
  readonly liveStateDataId: string
}

/** A live state as last broadcast. */
export interface LiveStateRow extends LiveStateKey {
  /** A JSON object, as JSON text. */
  readonly data: string
  /** 1 for its first write, one more for each after it. */
  readonly version: number
  readonly updatedAt: number
}

/** Storage port: the last data broadcast under each live state. */
export class LiveStateRepo extends Context.Tag("@atrium/core/LiveStateRepo")<LiveStateRepo, {
  readonly find: (key: LiveStateKey) => Effect.Effect<LiveStateRow | undefined>
  /** Inserts the row, or replaces the existing one. */
  readonly put: (row: LiveStateRow) => Effect.Effect<void>
}>() {}
