import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { limitRows } from "../sql/Limit.js"
import { allRows, firstRow, ignoreRows, mapRows } from "../sql/MapRows.js"
import { fromJson, type IntegerColumn, type JsonColumn, num, strOrNull, toJson } from "../sql/Rows.js"
import { type ApiKeyRow, type AuthTokenRow, WorkspaceRepo, type WorkspaceRow } from "./WorkspaceRepo.js"

/**
 * An email as SQL's `lower()` folds it on both databases: SQLite's folds A-Z only, and so does
 * PostgreSQL's on a `COLLATE "C"` column. The workspaces_owner_email index is on `lower(owner_email)`.
 */
const lowerAscii = (email: string) => email.replace(/[A-Z]+/g, (letters) => letters.toLowerCase())

/** One `workspaces` row as the drivers return it (column types: sql/Rows.ts). */
interface WorkspaceSqlRow {
  readonly id: string
  readonly name: string
  readonly owner_id: string
  readonly owner_email: string
  readonly owner_name: string
  readonly owner_avatar: string | null
  readonly auth_token_hash: string
  readonly created_at: IntegerColumn
}

const toWorkspace = (r: WorkspaceSqlRow): WorkspaceRow => ({
  id: r.id,
  name: r.name,
  ownerId: r.owner_id,
  ownerEmail: r.owner_email,
  ownerName: r.owner_name,
  ownerAvatar: strOrNull(r.owner_avatar),
  authTokenHash: r.auth_token_hash,
  createdAt: num(r.created_at)
})

/** One `api_keys` row as the drivers return it (column types: sql/Rows.ts). */
interface ApiKeySqlRow {
  readonly api_key: string
  readonly workspace_id: string
  readonly name: string
  readonly type: ApiKeyRow["type"]
  readonly created_at: IntegerColumn
}

const toApiKey = (r: ApiKeySqlRow): ApiKeyRow => ({
  apiKey: r.api_key,
  workspaceId: r.workspace_id,
  name: r.name,
  type: r.type,
  createdAt: num(r.created_at)
})

/** One `auth_tokens` row as the drivers return it (column types: sql/Rows.ts). */
interface AuthTokenSqlRow {
  readonly api_key: string
  readonly id: string
  readonly name: string
  readonly token_hash: string
  readonly hint: string
  readonly domains: JsonColumn
  readonly created_at: IntegerColumn
}

const toAuthToken = (r: AuthTokenSqlRow): AuthTokenRow => ({
  apiKey: r.api_key,
  id: r.id,
  name: r.name,
  tokenHash: r.token_hash,
  hint: r.hint,
  domains: fromJson(r.domains, []),
  createdAt: num(r.created_at)
})

export const SqlWorkspaceRepo = Layer.effect(
  WorkspaceRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      insertWorkspace: (w) =>
        sql`INSERT INTO workspaces ${
          sql.insert({
            id: w.id,
            name: w.name,
            owner_id: w.ownerId,
            owner_email: w.ownerEmail,
            owner_name: w.ownerName,
            owner_avatar: w.ownerAvatar,
            auth_token_hash: w.authTokenHash,
            created_at: w.createdAt
          })
        }`.pipe(ignoreRows),
      findWorkspace: (id) =>
        sql`SELECT * FROM workspaces WHERE id = ${id}`.pipe(
          firstRow(toWorkspace)
        ),
      countWorkspacesOwnedBy: (email) =>
        sql`SELECT COUNT(*) AS n FROM workspaces WHERE lower(owner_email) = ${lowerAscii(email)}`.pipe(
          mapRows((rows: ReadonlyArray<{ readonly n: IntegerColumn }>) => num(rows[0]!.n))
        ),
      insertApiKey: (k) =>
        sql`INSERT INTO api_keys ${
          sql.insert({ api_key: k.apiKey, workspace_id: k.workspaceId, name: k.name, type: k.type, created_at: k.createdAt })
        }`.pipe(ignoreRows),
      findApiKey: (apiKey) =>
        sql`SELECT * FROM api_keys WHERE api_key = ${apiKey}`.pipe(
          firstRow(toApiKey)
        ),
      listApiKeys: (workspaceId, { after, apiKeys, limit }) =>
        sql`SELECT * FROM api_keys WHERE ${
          sql.and([
            sql`workspace_id = ${workspaceId}`,
            ...(apiKeys ? [sql.in("api_key", apiKeys)] : []),
            ...(after !== undefined ? [sql`api_key > ${after}`] : [])
          ])
        } ORDER BY api_key ${limitRows(sql, limit)}`.pipe(allRows(toApiKey)),
      renameApiKey: (workspaceId, apiKey, name) =>
        sql`UPDATE api_keys SET name = ${name} WHERE workspace_id = ${workspaceId} AND api_key = ${apiKey} RETURNING api_key`.pipe(
          mapRows((rows) => rows.length > 0)
        ),
      insertAuthToken: (t) =>
        sql`INSERT INTO auth_tokens ${
          sql.insert({
            api_key: t.apiKey,
            id: t.id,
            name: t.name,
            token_hash: t.tokenHash,
            hint: t.hint,
            domains: toJson(t.domains),
            created_at: t.createdAt
          })
        }`.pipe(ignoreRows),
      listAuthTokens: (apiKey) =>
        sql`SELECT * FROM auth_tokens WHERE api_key = ${apiKey} ORDER BY created_at, id`.pipe(
          allRows(toAuthToken)
        ),
      deleteAuthTokens: (apiKey) => sql`DELETE FROM auth_tokens WHERE api_key = ${apiKey}`.pipe(ignoreRows),
      credentials: (apiKey) =>
        sql`SELECT k.workspace_id, t.token_hash FROM api_keys k LEFT JOIN auth_tokens t ON t.api_key = k.api_key WHERE k.api_key = ${apiKey}`
          .pipe(
            mapRows((rows: ReadonlyArray<{ readonly workspace_id: string; readonly token_hash: string | null }>) =>
              rows.length === 0 ? undefined : {
                workspaceId: rows[0]!.workspace_id,
                tokenHashes: rows.flatMap((r) => r.token_hash === null ? [] : [r.token_hash])
              }
            )
          )
    }
  })
)
