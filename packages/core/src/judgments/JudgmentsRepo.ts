import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { JudgeType, Judgment } from "./Suggest.js"

/** A recorded review decision (a `Judgment` of the suggestion engine, plus what queries return). */
export interface JudgmentRow extends Judgment {
  readonly apiKey: string
  readonly contentType: string | null
  /** The judge's own confidence in [0, 1], when given. */
  readonly confidence: number | null
}

export interface JudgmentFilters {
  readonly organizationId?: string
  readonly documentId?: string
  readonly decision?: string
  readonly judgeType?: JudgeType
  readonly contentType?: string
  readonly reviewerId?: string
}

/** Storage port: judgments of an API key. */
export class JudgmentsRepo extends Context.Tag("@atrium/core/JudgmentsRepo")<JudgmentsRepo, {
  /** Inserts, or replaces every field of the judgment with the same id. */
  readonly upsert: (row: JudgmentRow) => Effect.Effect<void>
  /** The organization of the judgment with this id: null for none, undefined when there is no such judgment. */
  readonly organizationOf: (apiKey: string, id: string) => Effect.Effect<string | null | undefined>
  /** The `limit` newest matching judgments (createdAt, then id, descending); neither read counts a disabled organization's. */
  readonly latest: (apiKey: string, filters: JudgmentFilters, limit: number) => Effect.Effect<ReadonlyArray<JudgmentRow>>
  readonly count: (apiKey: string, filters: JudgmentFilters) => Effect.Effect<number>
}>() {}
