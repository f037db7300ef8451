import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ROOT as ROOT_FOLDER_ID } from "../folders/FolderSchemas.js"
import { allRows, firstRow, mapRows } from "../sql/MapRows.js"
import { bool, type FlagColumn, fromJson, type IntegerColumn, type JsonColumn, num } from "../sql/Rows.js"
import { AccessRepo, type StoredGrant } from "./AccessRepo.js"
import type { AccessRole, AccessType } from "./AccessRule.js"

interface DocumentSqlRow {
  readonly disabled: FlagColumn
  readonly access_type: AccessType
  readonly inherit_access: FlagColumn
  readonly folder_id: string | null
  readonly ancestors: JsonColumn | null
  readonly folder_access_type: AccessType | null
}

interface GrantSqlRow {
  readonly level: StoredGrant["level"]
  readonly scope_id: string
  readonly access_role: AccessRole
  readonly expires_at: IntegerColumn | null
}

/** A folder and its ancestors (stored root first), nearest first, without the root. */
const chainOf = (folderId: string | undefined, ancestors: JsonColumn | null): ReadonlyArray<string> =>
  folderId === undefined || folderId === ROOT_FOLDER_ID
    ? []
    : [folderId, ...fromJson<ReadonlyArray<string>>(ancestors, []).filter((id) => id !== ROOT_FOLDER_ID).reverse()]

export const SqlAccessRepo = Layer.effect(
  AccessRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const userFacts = (apiKey: string, organizationId: string, userId: string) =>
      Effect.all({
        organization: sql`SELECT disabled FROM organizations WHERE api_key = ${apiKey} AND id = ${organizationId}`.pipe(
          firstRow((r: { readonly disabled: FlagColumn }) => ({ disabled: bool(r.disabled) }))
        ),
        grants: sql`SELECT level, scope_id, access_role, expires_at FROM user_memberships
          WHERE api_key = ${apiKey} AND organization_id = ${organizationId} AND user_id = ${userId}`.pipe(
          allRows((r: GrantSqlRow): StoredGrant => ({
            level: r.level,
            id: r.level === "organization" ? organizationId : r.scope_id,
            accessRole: r.access_role,
            expiresAt: r.expires_at === null ? undefined : num(r.expires_at)
          }))
        ),
        inUserGroup: sql`SELECT 1 AS found FROM user_group_members
          WHERE api_key = ${apiKey} AND organization_id = ${organizationId} AND user_id = ${userId} LIMIT 1`.pipe(
          mapRows((rows: ReadonlyArray<unknown>) => rows.length > 0)
        )
      })
    return {
      version: (apiKey) =>
        sql`SELECT version FROM access_versions WHERE api_key = ${apiKey}`.pipe(
          mapRows((rows: ReadonlyArray<{ readonly version: IntegerColumn }>) => rows.length === 0 ? 0 : num(rows[0]!.version))
        ),
      userFacts,
      facts: (apiKey, organizationId, documentId, userId) =>
        Effect.zipWith(
          userFacts(apiKey, organizationId, userId),
          sql`SELECT d.disabled, d.access_type, d.inherit_access, d.folder_id, f.ancestors, f.access_type AS folder_access_type
            FROM documents d LEFT JOIN folders f
              ON f.api_key = d.api_key AND f.organization_id = d.organization_id AND f.id = d.folder_id
            WHERE d.api_key = ${apiKey} AND d.organization_id = ${organizationId} AND d.id = ${documentId}`.pipe(
            firstRow((r: DocumentSqlRow) => ({
              disabled: bool(r.disabled),
              accessType: r.access_type,
              inheritAccess: bool(r.inherit_access),
              folderChain: chainOf(r.folder_id ?? undefined, r.ancestors),
              folderAccessType: r.folder_access_type ?? undefined
            }))
          ),
          (user, document) => ({ ...user, document })
        ),
      folderFacts: (apiKey, organizationId, folderId, userId) =>
        Effect.zipWith(
          userFacts(apiKey, organizationId, userId),
          sql`SELECT ancestors, access_type FROM folders WHERE api_key = ${apiKey} AND organization_id = ${organizationId} AND id = ${folderId}`.pipe(
            firstRow((r: { readonly ancestors: JsonColumn; readonly access_type: AccessType }) => ({
              folderChain: chainOf(folderId, r.ancestors),
              accessType: r.access_type
            }))
          ),
          (user, folder) => ({ ...user, folder })
        )
    }
  })
)
