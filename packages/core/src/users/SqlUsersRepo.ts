import * as SqlClient from "@effect/sql/SqlClient"
import type { Fragment } from "@effect/sql/Statement"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { chunksOf } from "../sql/Chunks.js"
import { limitRows } from "../sql/Limit.js"
import { allRows, firstRow, ignoreRows, mapRows } from "../sql/MapRows.js"
import { fromJson, type IntegerColumn, type JsonColumn, num, strOrNull, toJson } from "../sql/Rows.js"
import { compareText } from "../TextOrder.js"
import { type MembershipRow, type UserListOptions, type UserRow, UsersRepo } from "./UsersRepo.js"

/** One `users` row as the drivers return it (column types: sql/Rows.ts). */
interface UserSqlRow {
  readonly api_key: string
  readonly user_id: string
  readonly internal_id: string
  readonly name: string | null
  readonly email: string | null
  readonly photo_url: string | null
  readonly user_initial: string | null
  readonly metadata: JsonColumn
  readonly created_at: IntegerColumn
  readonly updated_at: IntegerColumn
}

const toUser = (r: UserSqlRow): UserRow => ({
  apiKey: r.api_key,
  userId: r.user_id,
  internalId: r.internal_id,
  name: strOrNull(r.name),
  email: strOrNull(r.email),
  photoUrl: strOrNull(r.photo_url),
  initial: strOrNull(r.user_initial),
  metadata: fromJson(r.metadata, {}),
  createdAt: num(r.created_at),
  updatedAt: num(r.updated_at)
})

/** One `user_memberships` row as the drivers return it (column types: sql/Rows.ts). */
interface MembershipSqlRow {
  readonly api_key: string
  readonly organization_id: string
  readonly level: MembershipRow["level"]
  readonly scope_id: string
  readonly user_id: string
  readonly access_role: MembershipRow["accessRole"]
  readonly expires_at: IntegerColumn | null
  readonly created_at: IntegerColumn
  readonly updated_at: IntegerColumn
}

const toMembership = (r: MembershipSqlRow): MembershipRow => ({
  apiKey: r.api_key,
  organizationId: r.organization_id,
  level: r.level,
  scopeId: r.scope_id,
  userId: r.user_id,
  accessRole: r.access_role,
  ...(r.expires_at !== null && r.expires_at !== undefined && { expiresAt: num(r.expires_at) }),
  createdAt: num(r.created_at),
  updatedAt: num(r.updated_at)
})

/** Users named in one lookup at most: well under every dialect's parameter limit. */
const USERS_PER_LOOKUP = 1000

export const SqlUsersRepo = Layer.effect(
  UsersRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** Conditions on memberships `m` shared by both lists: organization, user ids, group membership. */
    const membershipConditions = (
      apiKey: string,
      organizationId: string,
      { groupIds, userIds }: UserListOptions
    ): Array<Fragment> => [
      sql`m.api_key = ${apiKey}`,
      sql`m.organization_id = ${organizationId}`,
      ...(userIds ? [sql.in("m.user_id", userIds)] : []),
      ...(groupIds
        ? [sql`m.user_id IN (SELECT g.user_id FROM user_group_members g WHERE ${
          sql.and([sql`g.api_key = ${apiKey}`, sql`g.organization_id = ${organizationId}`, sql.in("g.group_id", groupIds)])
        })`]
        : [])
    ]

    return {
      findUser: (apiKey, userId) =>
        sql`SELECT * FROM users WHERE api_key = ${apiKey} AND user_id = ${userId}`.pipe(
          firstRow(toUser)
        ),
      findUsers: (apiKey, userIds) =>
        userIds.length === 0 ? Effect.succeed([]) : Effect.map(
          Effect.forEach(chunksOf(userIds, USERS_PER_LOOKUP), (chunk) =>
            sql`SELECT * FROM users WHERE api_key = ${apiKey} AND ${sql.in("user_id", chunk)}`.pipe(allRows(toUser))),
          (chunks) => chunks.flat()
        ),
      putUser: (u) =>
        sql`INSERT INTO users ${
          sql.insert({
            api_key: u.apiKey,
            user_id: u.userId,
            internal_id: u.internalId,
            name: u.name,
            email: u.email,
            photo_url: u.photoUrl,
            user_initial: u.initial,
            metadata: toJson(u.metadata),
            created_at: u.createdAt,
            updated_at: u.updatedAt
          })
        } ON CONFLICT (api_key, user_id) DO UPDATE SET name = excluded.name, email = excluded.email,
          photo_url = excluded.photo_url, user_initial = excluded.user_initial, metadata = excluded.metadata,
          updated_at = excluded.updated_at`.pipe(ignoreRows),
      findMembership: (apiKey, organizationId, level, scopeId, userId) =>
        sql`SELECT * FROM user_memberships WHERE api_key = ${apiKey} AND organization_id = ${organizationId}
          AND level = ${level} AND scope_id = ${scopeId} AND user_id = ${userId}`.pipe(
          firstRow(toMembership)
        ),
      putMembership: (m) =>
        sql`INSERT INTO user_memberships ${
          sql.insert({
            api_key: m.apiKey,
            organization_id: m.organizationId,
            level: m.level,
            scope_id: m.scopeId,
            user_id: m.userId,
            access_role: m.accessRole,
            expires_at: m.expiresAt ?? null,
            created_at: m.createdAt,
            updated_at: m.updatedAt
          })
        } ON CONFLICT (api_key, organization_id, level, scope_id, user_id)
          DO UPDATE SET access_role = excluded.access_role, expires_at = excluded.expires_at, updated_at = excluded.updated_at`.pipe(ignoreRows),
      deleteMembership: (apiKey, organizationId, level, scopeId, userId) =>
        sql`DELETE FROM user_memberships WHERE api_key = ${apiKey} AND organization_id = ${organizationId}
          AND level = ${level} AND scope_id = ${scopeId} AND user_id = ${userId} RETURNING user_id`.pipe(
          mapRows((rows) => rows.length > 0)
        ),
      deleteOrganizationMemberships: (apiKey, organizationId, userId) =>
        sql`DELETE FROM user_memberships WHERE api_key = ${apiKey} AND organization_id = ${organizationId}
          AND user_id = ${userId} RETURNING level, scope_id`.pipe(
          mapRows((rows: ReadonlyArray<Pick<MembershipSqlRow, "level" | "scope_id">>) => rows.map((r) => ({ level: r.level, scopeId: r.scope_id }))
            .sort((a, b) => compareText(a.level, b.level) || compareText(a.scopeId, b.scopeId)))
        ),
      list: (apiKey, organizationId, filter, options) =>
        sql`SELECT * FROM users WHERE api_key = ${apiKey} AND user_id IN (SELECT m.user_id FROM user_memberships m WHERE ${
          sql.and([
            ...membershipConditions(apiKey, organizationId, options),
            sql`m.level = ${filter.level}`,
            ...(filter.scopeId !== undefined ? [sql`m.scope_id = ${filter.scopeId}`] : []),
            ...(options.after !== undefined ? [sql`m.user_id > ${options.after}`] : [])
          ])
        }) ORDER BY user_id ${limitRows(sql, options.limit)}`.pipe(allRows(toUser)),
      listByDocument: (apiKey, organizationId, options) => {
        const { after } = options
        return sql`SELECT m.scope_id AS document_id, u.* FROM user_memberships m
          JOIN users u ON u.api_key = m.api_key AND u.user_id = m.user_id WHERE ${
          sql.and([
            ...membershipConditions(apiKey, organizationId, options),
            sql`m.level = 'document'`,
            ...(after !== undefined
              ? [sql`(m.scope_id > ${after.documentId} OR (m.scope_id = ${after.documentId} AND m.user_id > ${after.userId}))`]
              : [])
          ])
        } ORDER BY m.scope_id, m.user_id ${limitRows(sql, options.limit)}`.pipe(
          allRows((r: UserSqlRow & { readonly document_id: string }) => ({ documentId: r.document_id, user: toUser(r) }))
        )
      }
    }
  })
)
