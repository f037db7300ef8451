import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { firstRow, ignoreRows, mapRows } from "../sql/MapRows.js"
import { type IntegerColumn, num } from "../sql/Rows.js"
import { compareText } from "../TextOrder.js"
import { type UserGroupRow, UserGroupsRepo } from "./UserGroupsRepo.js"

/** One `user_groups` row as the drivers return it (column types: sql/Rows.ts). */
interface UserGroupSqlRow {
  readonly api_key: string
  readonly organization_id: string
  readonly group_id: string
  readonly name: string
  readonly created_at: IntegerColumn
  readonly updated_at: IntegerColumn
}

const toGroup = (r: UserGroupSqlRow): UserGroupRow => ({
  apiKey: r.api_key,
  organizationId: r.organization_id,
  groupId: r.group_id,
  name: r.name,
  createdAt: num(r.created_at),
  updatedAt: num(r.updated_at)
})

export const SqlUserGroupsRepo = Layer.effect(
  UserGroupsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      findGroup: (apiKey, organizationId, groupId) =>
        sql`SELECT * FROM user_groups WHERE api_key = ${apiKey} AND organization_id = ${organizationId} AND group_id = ${groupId}`
          .pipe(firstRow(toGroup)),
      putGroup: (g) =>
        sql`INSERT INTO user_groups ${
          sql.insert({
            api_key: g.apiKey,
            organization_id: g.organizationId,
            group_id: g.groupId,
            name: g.name,
            created_at: g.createdAt,
            updated_at: g.updatedAt
          })
        } ON CONFLICT (api_key, organization_id, group_id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at`
          .pipe(ignoreRows),
      addMember: (apiKey, organizationId, groupId, userId, now) =>
        sql`INSERT INTO user_group_members ${
          sql.insert({ api_key: apiKey, organization_id: organizationId, group_id: groupId, user_id: userId, created_at: now })
        } ON CONFLICT (api_key, organization_id, group_id, user_id) DO NOTHING`.pipe(ignoreRows),
      removeMember: (apiKey, organizationId, groupId, userId) =>
        sql`DELETE FROM user_group_members WHERE api_key = ${apiKey} AND organization_id = ${organizationId}
          AND group_id = ${groupId} AND user_id = ${userId} RETURNING user_id`.pipe(
          mapRows((rows) => rows.length > 0)
        ),
      removeAllMembers: (apiKey, organizationId, groupId) =>
        sql`DELETE FROM user_group_members WHERE api_key = ${apiKey} AND organization_id = ${organizationId}
          AND group_id = ${groupId} RETURNING user_id`.pipe(
          mapRows((rows: ReadonlyArray<{ readonly user_id: string }>) => rows.map((r) => r.user_id).sort(compareText))
        ),
      removeFromOrganizationGroups: (apiKey, organizationId, userId) =>
        sql`DELETE FROM user_group_members WHERE api_key = ${apiKey} AND organization_id = ${organizationId}
          AND user_id = ${userId} RETURNING group_id`.pipe(
          mapRows((rows: ReadonlyArray<{ readonly group_id: string }>) => rows.map((r) => r.group_id).sort(compareText))
        )
    }
  })
)
