import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { inEnabledOrganization } from "../organizations/SqlEnabledOrganizations.js"
import { limitRows } from "../sql/Limit.js"
import { allRows, firstRow, ignoreRows } from "../sql/MapRows.js"
import { type IntegerColumn, num, numOrNull, strOrNull } from "../sql/Rows.js"
import { type AgentExecutionRow, AgentExecutionsRepo } from "./AgentExecutionsRepo.js"

/** One `agent_executions` row as the drivers return it (column types: sql/Rows.ts). */
interface AgentExecutionSqlRow {
  readonly api_key: string
  readonly id: string
  readonly agent_id: string
  readonly agent_name: string
  readonly agent_version: IntegerColumn
  readonly status: AgentExecutionRow["status"]
  readonly message: string
  readonly started_at: IntegerColumn
  readonly completed_at: IntegerColumn | null
  readonly triggered_by: string
  readonly organization_id: string | null
  readonly document_id: string | null
}

const toRow = (r: AgentExecutionSqlRow): AgentExecutionRow => ({
  apiKey: r.api_key,
  id: r.id,
  agentId: r.agent_id,
  agentName: r.agent_name,
  agentVersion: num(r.agent_version),
  status: r.status,
  message: r.message,
  startedAt: num(r.started_at),
  completedAt: numOrNull(r.completed_at),
  trigger: r.triggered_by,
  organizationId: strOrNull(r.organization_id),
  documentId: strOrNull(r.document_id)
})

export const SqlAgentExecutionsRepo = Layer.effect(
  AgentExecutionsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      upsert: (e) =>
        sql`INSERT INTO agent_executions ${
          sql.insert({
            api_key: e.apiKey,
            id: e.id,
            agent_id: e.agentId,
            agent_name: e.agentName,
            agent_version: e.agentVersion,
            status: e.status,
            message: e.message,
            started_at: e.startedAt,
            completed_at: e.completedAt,
            triggered_by: e.trigger,
            organization_id: e.organizationId,
            document_id: e.documentId
          })
        } ON CONFLICT (api_key, id) DO UPDATE SET agent_id = excluded.agent_id, agent_name = excluded.agent_name,
          agent_version = excluded.agent_version, status = excluded.status, message = excluded.message,
          started_at = excluded.started_at, completed_at = excluded.completed_at, triggered_by = excluded.triggered_by,
          organization_id = excluded.organization_id, document_id = excluded.document_id`
          .pipe(ignoreRows),
      organizationOf: (apiKey, id) =>
        sql`SELECT organization_id FROM agent_executions WHERE api_key = ${apiKey} AND id = ${id}`.pipe(
          firstRow((row: Pick<AgentExecutionSqlRow, "organization_id">) => strOrNull(row.organization_id))
        ),
      list: (apiKey, filters, { after, limit, order }) => {
        // A row-value comparison (SQLite and PostgreSQL both seek the (…, started_at, id) indexes with it).
        const afterClause = after === undefined
          ? []
          : order === "asc"
          ? [sql`(started_at, id) > (${after.startedAt}, ${after.id})`]
          : [sql`(started_at, id) < (${after.startedAt}, ${after.id})`]
        const orderBy = order === "asc" ? sql`ORDER BY started_at ASC, id ASC` : sql`ORDER BY started_at DESC, id DESC`
        return sql`SELECT * FROM agent_executions WHERE ${
          sql.and([
            sql`api_key = ${apiKey}`,
            inEnabledOrganization(sql, "agent_executions", apiKey),
            ...(filters.agentId !== undefined ? [sql`agent_id = ${filters.agentId}`] : []),
            ...(filters.documentId !== undefined ? [sql`document_id = ${filters.documentId}`] : []),
            ...(filters.organizationId !== undefined ? [sql`organization_id = ${filters.organizationId}`] : []),
            ...(filters.status !== undefined ? [sql`status = ${filters.status}`] : []),
            ...afterClause
          ])
        } ${orderBy} ${limitRows(sql, limit)}`.pipe(allRows(toRow))
      }
    }
  })
)
