import * as Schema from "effect/Schema"
import { BatchItemWithId, BatchResult, SuccessResult } from "../protocol/Envelope.js"
import { EpochMillis, Id, IntRange, NonEmptyList, NonEmptyText, optional, Text } from "../schema/Common.js"

/** Judgments per add call: the hosted service names no limit; 100 keeps one call's transactions short. */
export const MAX_JUDGMENTS_PER_CALL = 100

/** The hosted service's decision values (docs/compatibility.md, "Judgments and suggestions"). */
export const Decision = Schema.Literal(
  "comment",
  "resolve",
  "approved",
  "rejected",
  "in_progress",
  "agree",
  "disagree",
  "endorse",
  "document_approved",
  "document_rejected"
)

export const JudgeType = Schema.Literal("human", "agent")

/** Spec memory/suggest: a document is addressed inside its organization, so `documentId` needs `organizationId`. */
const documentNeedsOrganization = <A extends { readonly organizationId?: string; readonly documentId?: string }>(value: A) =>
  value.documentId === undefined || value.organizationId !== undefined ||
  { path: ["documentId"], message: "requires organizationId" }

export const JudgmentInput = Schema.Struct({
  /** Omitted: a server-made id. An existing id is replaced (a retried call stores nothing twice). */
  id: optional(Id),
  organizationId: optional(Id),
  documentId: optional(Id),
  /** What was judged. */
  content: NonEmptyText(20_000),
  reasoning: Text(5_000),
  decision: Decision,
  judgeType: JudgeType,
  /** Who decided: a user id for `human`, an agent id for `agent`. */
  reviewerId: optional(Id),
  contentType: optional(Id),
  confidence: optional(Schema.Number.pipe(Schema.between(0, 1, { message: () => "must be between 0 and 1" }))),
  /** Default: now. */
  createdAt: optional(EpochMillis)
}).pipe(Schema.filter(documentNeedsOrganization))

export const AddJudgmentsInput = Schema.Struct({
  judgments: NonEmptyList(JudgmentInput, MAX_JUDGMENTS_PER_CALL)
})

export const AddJudgmentsResult = SuccessResult(BatchResult(BatchItemWithId))

export const QueryJudgmentsInput = Schema.Struct({
  organizationId: optional(Id),
  documentId: optional(Id),
  decision: optional(Decision),
  judgeType: optional(JudgeType),
  contentType: optional(Id),
  reviewerId: optional(Id),
  limit: optional(IntRange(1, 100))
})

/** A judgments/query record as the hosted service answers it; unset fields are null. */
export const JudgmentRecord = Schema.Struct({
  recordId: Schema.String,
  reasoning: Schema.String,
  decision: Schema.String,
  confidence: Schema.NullOr(Schema.Number),
  judgeType: JudgeType,
  contentType: Schema.NullOr(Schema.String),
  /** The human reviewer (`reviewerId` of a human judgment). */
  actionUser: Schema.NullOr(Schema.Struct({ userId: Schema.String })),
  createdAt: Schema.Number,
  organizationId: Schema.NullOr(Schema.String),
  documentId: Schema.NullOr(Schema.String),
  /** The deciding agent (`reviewerId` of an agent judgment). */
  agent: Schema.NullOr(Schema.Struct({ agentId: Schema.String }))
}).annotations({ identifier: "JudgmentRecord" })

/** As the hosted service answers: no status/message/data. */
export const QueryJudgmentsResult = Schema.Struct({
  results: Schema.Array(JudgmentRecord),
  total: Schema.Number
})

export const SuggestInput = Schema.Struct({
  query: NonEmptyText(10_000).pipe(Schema.pattern(/\S/, { message: () => "must not be blank" })),
  organizationId: optional(Id),
  documentId: optional(Id)
}).pipe(Schema.filter(documentNeedsOrganization))

/** Spec "Decision suggestion". */
export const Suggestion = Schema.Struct({
  recommendation: Schema.Literal("approve", "reject"),
  confidence: Schema.Number,
  basedOn: Schema.Number,
  scope: Schema.Literal("document", "organization", "apiKey"),
  scopeLabel: Schema.String,
  topReasons: Schema.Array(Schema.String),
  uniqueReviewers: Schema.Number,
  caveats: Schema.Array(Schema.String)
}).annotations({ identifier: "Suggestion" })

/** Spec convention 3: this `result` has no status/message/data. */
export const SuggestResult = Schema.Struct({
  primary: Schema.NullOr(Suggestion),
  conflict: Schema.NullOr(Suggestion)
})
