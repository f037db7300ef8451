import * as Schema from "effect/Schema"
import { SuccessResult } from "../protocol/Envelope.js"
import { EpochMillis, Id, NonEmptyText, optional, PageSize, Text } from "../schema/Common.js"

export const AgentExecutionStatus = Schema.Literal("running", "passed", "failed", "error", "skipped")


/** Recording is an upsert by `id` (docs/decisions.md, "Product rulings"). */
export const RecordExecutionInput = Schema.Struct({
  /** Omitted: a new execution with a server-made id. */
  id: optional(Id),
  agentId: Id,
  agentName: NonEmptyText(1000),
  agentVersion: Schema.Number.pipe(
    Schema.int({ message: () => "must be an integer" }),
    Schema.nonNegative({ message: () => "must not be negative" })
  ),
  status: AgentExecutionStatus,
  message: Text(10_000),
  startedAt: EpochMillis,
  completedAt: optional(EpochMillis),
  /** Default `standalone` (the value the spec shows). */
  trigger: optional(Id),
  organizationId: optional(Id),
  documentId: optional(Id)
}).pipe(
  // Spec "States": completedAt is null while running, and a finished execution has one.
  Schema.filter((e) =>
    e.status === "running"
      ? e.completedAt === undefined || { path: ["completedAt"], message: "must be omitted while status is running" }
      : e.completedAt === undefined
      ? { path: ["completedAt"], message: `is required when status is ${e.status}` }
      : e.completedAt >= e.startedAt || { path: ["completedAt"], message: "must not be before startedAt" }
  )
)

export const ListExecutionsInput = Schema.Struct({
  agentId: optional(Id),
  documentId: optional(Id),
  organizationId: optional(Id),
  status: optional(AgentExecutionStatus),
  pageSize: optional(PageSize(500)),
  /** The previous page's `nextCursor`. */
  cursor: optional(Schema.String),
  orderDirection: optional(Schema.Literal("asc", "desc"))
})

/** Spec "Agent execution"; `organizationId` / `documentId` appear when the execution was recorded with them. */
export const AgentExecution = Schema.Struct({
  id: Schema.String,
  agentId: Schema.String,
  agentName: Schema.String,
  agentVersion: Schema.Number,
  status: AgentExecutionStatus,
  message: Schema.String,
  startedAt: Schema.Number,
  completedAt: Schema.NullOr(Schema.Number),
  durationMs: Schema.NullOr(Schema.Number),
  trigger: Schema.String,
  organizationId: optional(Schema.String),
  documentId: optional(Schema.String)
}).annotations({ identifier: "AgentExecution" })

export const RecordExecutionResult = SuccessResult(AgentExecution)

/** Spec convention 3: this `result` has no status/message/data. `nextCursor` is null on the last page. */
export const ExecutionsPage = Schema.Struct({
  items: Schema.Array(AgentExecution),
  nextCursor: Schema.NullOr(Schema.String),
  hasMore: Schema.Boolean
})
