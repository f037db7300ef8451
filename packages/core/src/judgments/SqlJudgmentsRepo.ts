import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { inEnabledOrganization } from "../organizations/SqlEnabledOrganizations.js"
import { limitRows } from "../sql/Limit.js"
import { allRows, firstRow, ignoreRows, mapRows } from "../sql/MapRows.js"
import { type IntegerColumn, num, numOrNull, strOrNull } from "../sql/Rows.js"
import { type JudgmentFilters, type JudgmentRow, JudgmentsRepo } from "./JudgmentsRepo.js"

/** One `judgments` row as the drivers return it (column types: sql/Rows.ts). */
interface JudgmentSqlRow {
  readonly api_key: string
  readonly id: string
  readonly organization_id: string | null
  readonly document_id: string | null
  readonly content: string
  readonly reasoning: string
  readonly decision: string
  readonly judge_type: JudgmentRow["judgeType"]
  readonly reviewer_id: string | null
  readonly content_type: string | null
  readonly confidence: IntegerColumn | null
  readonly created_at: IntegerColumn
}

const toRow = (r: JudgmentSqlRow): JudgmentRow => ({
  apiKey: r.api_key,
  id: r.id,
  organizationId: strOrNull(r.organization_id),
  documentId: strOrNull(r.document_id),
  content: r.content,
  reasoning: r.reasoning,
  decision: r.decision,
  judgeType: r.judge_type,
  reviewerId: strOrNull(r.reviewer_id),
  contentType: strOrNull(r.content_type),
  confidence: numOrNull(r.confidence),
  createdAt: num(r.created_at)
})

export const SqlJudgmentsRepo = Layer.effect(
  JudgmentsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const where = (apiKey: string, filters: JudgmentFilters) =>
      sql.and([
        sql`api_key = ${apiKey}`,
        inEnabledOrganization(sql, "judgments", apiKey),
        ...(filters.organizationId !== undefined ? [sql`organization_id = ${filters.organizationId}`] : []),
        ...(filters.documentId !== undefined ? [sql`document_id = ${filters.documentId}`] : []),
        ...(filters.decision !== undefined ? [sql`decision = ${filters.decision}`] : []),
        ...(filters.judgeType !== undefined ? [sql`judge_type = ${filters.judgeType}`] : []),
        ...(filters.contentType !== undefined ? [sql`content_type = ${filters.contentType}`] : []),
        ...(filters.reviewerId !== undefined ? [sql`reviewer_id = ${filters.reviewerId}`] : [])
      ])
    return {
      upsert: (j) =>
        sql`INSERT INTO judgments ${
          sql.insert({
            api_key: j.apiKey,
            id: j.id,
            organization_id: j.organizationId,
            document_id: j.documentId,
            content: j.content,
            reasoning: j.reasoning,
            decision: j.decision,
            judge_type: j.judgeType,
            reviewer_id: j.reviewerId,
            content_type: j.contentType,
            confidence: j.confidence,
            created_at: j.createdAt
          })
        } ON CONFLICT (api_key, id) DO UPDATE SET organization_id = excluded.organization_id,
          document_id = excluded.document_id, content = excluded.content, reasoning = excluded.reasoning,
          decision = excluded.decision, judge_type = excluded.judge_type, reviewer_id = excluded.reviewer_id,
          content_type = excluded.content_type, confidence = excluded.confidence, created_at = excluded.created_at`
          .pipe(ignoreRows),
      organizationOf: (apiKey, id) =>
        sql`SELECT organization_id FROM judgments WHERE api_key = ${apiKey} AND id = ${id}`.pipe(
          firstRow((row: Pick<JudgmentSqlRow, "organization_id">) => strOrNull(row.organization_id))
        ),
      latest: (apiKey, filters, limit) =>
        sql`SELECT * FROM judgments WHERE ${where(apiKey, filters)} ORDER BY created_at DESC, id DESC ${limitRows(sql, limit)}`
          .pipe(allRows(toRow)),
      count: (apiKey, filters) =>
        sql`SELECT COUNT(*) AS n FROM judgments WHERE ${where(apiKey, filters)}`.pipe(
          mapRows((rows: ReadonlyArray<{ readonly n: IntegerColumn }>) => num(rows[0]!.n))
        )
    }
  })
)
