import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { limitRows } from "../sql/Limit.js"
import { ignoreRows, mapRows } from "../sql/MapRows.js"
import { fromJson, num, strOrNull, toJson } from "../sql/Rows.js"
import { type ApiKeyRow, type AuthTokenRow, WorkspaceRepo, type WorkspaceRow } from "./WorkspaceRepo.js"

const toWorkspace = (r: any): WorkspaceRow => ({
  id: r.id,
  name: r.name,
  ownerId: r.owner_id,
  ownerEmail: r.owner_email,
  ownerName: r.owner_name,
  ownerAvatar: strOrNull(r.owner_avatar),
  authTokenHash: r.auth_token_hash,
  createdAt: num(r.created_at)
})

const toApiKey = (r: any): ApiKeyRow => ({
  apiKey: r.api_key,
  workspaceId: r.workspace_id,
  name: r.name,
  type: r.type,
  createdAt: num(r.created_at)
})

const toAuthToken = (r: any): AuthTokenRow => ({
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
          mapRows((rows) => rows[0] === undefined ? undefined : toWorkspace(rows[0]))
        ),
      countWorkspacesOwnedBy: (email) =>
        sql`SELECT COUNT(*) AS n FROM workspaces WHERE owner_email = ${email}`.pipe(
          mapRows((rows) => num(rows[0]!.n))
        ),
      insertApiKey: (k) =>
        sql`INSERT INTO api_keys ${
          sql.insert({ api_key: k.apiKey, workspace_id: k.workspaceId, name: k.name, type: k.type, created_at: k.createdAt })
        }`.pipe(ignoreRows),
      findApiKey: (apiKey) =>
        sql`SELECT * FROM api_keys WHERE api_key = ${apiKey}`.pipe(
          mapRows((rows) => rows[0] === undefined ? undefined : toApiKey(rows[0]))
        ),
      listApiKeys: (workspaceId, { after, apiKeys, limit }) =>
        sql`SELECT * FROM api_keys WHERE ${
          sql.and([
            sql`workspace_id = ${workspaceId}`,
            ...(apiKeys ? [sql.in("api_key", apiKeys)] : []),
            ...(after !== undefined ? [sql`api_key > ${after}`] : [])
          ])
        } ORDER BY api_key ${limitRows(sql, limit)}`.pipe(mapRows((rows) => rows.map(toApiKey))),
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
          mapRows((rows) => rows.map(toAuthToken))
        ),
      deleteAuthTokens: (apiKey) => sql`DELETE FROM auth_tokens WHERE api_key = ${apiKey}`.pipe(ignoreRows),
      credentials: (apiKey) =>
        sql`SELECT k.workspace_id, t.token_hash FROM api_keys k LEFT JOIN auth_tokens t ON t.api_key = k.api_key WHERE k.api_key = ${apiKey}`
          .pipe(
            mapRows((rows) =>
              rows.length === 0 ? undefined : {
                workspaceId: rows[0]!.workspace_id as string,
                tokenHashes: rows.flatMap((r) => r.token_hash === null ? [] : [r.token_hash as string])
              }
            )
          )
    }
  })
)
