import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { columnTypes } from "./ColumnTypes.js"

/** Users and their memberships, organization user groups, presence, per-user notification preferences. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const { text, bigint } = columnTypes(sql)
  yield* sql`CREATE TABLE users (
    api_key ${text} NOT NULL,
    user_id ${text} NOT NULL,
    internal_id ${text} NOT NULL,
    name ${text},
    email ${text},
    photo_url ${text},
    user_initial ${text},
    metadata ${text} NOT NULL,
    created_at ${bigint} NOT NULL,
    updated_at ${bigint} NOT NULL,
    PRIMARY KEY (api_key, user_id)
  )`
  // level: organization | document | folder; scope_id is '' at organization level.
  // The primary key serves users/get by scope, keyset by user id, and the grouped
  // (document id, user id) keyset of allDocuments.
  yield* sql`CREATE TABLE user_memberships (
    api_key ${text} NOT NULL,
    organization_id ${text} NOT NULL,
    level ${text} NOT NULL,
    scope_id ${text} NOT NULL,
    user_id ${text} NOT NULL,
    access_role ${text} NOT NULL,
    created_at ${bigint} NOT NULL,
    updated_at ${bigint} NOT NULL,
    PRIMARY KEY (api_key, organization_id, level, scope_id, user_id)
  )`
  // users/get with allDocuments (distinct users of any document, keyset by user id).
  yield* sql`CREATE INDEX user_memberships_level_user ON user_memberships (api_key, organization_id, level, user_id)`
  // users/delete at organization scope (every membership of one user).
  yield* sql`CREATE INDEX user_memberships_user ON user_memberships (api_key, organization_id, user_id)`
  yield* sql`CREATE TABLE user_groups (
    api_key ${text} NOT NULL,
    organization_id ${text} NOT NULL,
    group_id ${text} NOT NULL,
    name ${text} NOT NULL,
    created_at ${bigint} NOT NULL,
    updated_at ${bigint} NOT NULL,
    PRIMARY KEY (api_key, organization_id, group_id)
  )`
  yield* sql`CREATE TABLE user_group_members (
    api_key ${text} NOT NULL,
    organization_id ${text} NOT NULL,
    group_id ${text} NOT NULL,
    user_id ${text} NOT NULL,
    created_at ${bigint} NOT NULL,
    PRIMARY KEY (api_key, organization_id, group_id, user_id)
  )`
  // Removing a user from every group of an organization.
  yield* sql`CREATE INDEX user_group_members_user ON user_group_members (api_key, organization_id, user_id)`
  yield* sql`CREATE TABLE presence (
    api_key ${text} NOT NULL,
    organization_id ${text} NOT NULL,
    document_id ${text} NOT NULL,
    user_id ${text} NOT NULL,
    name ${text},
    email ${text},
    status ${text} NOT NULL,
    updated_at ${bigint} NOT NULL,
    PRIMARY KEY (api_key, organization_id, document_id, user_id)
  )`
  // document_id is '' for the organization-level default of a user.
  yield* sql`CREATE TABLE notification_preferences (
    api_key ${text} NOT NULL,
    organization_id ${text} NOT NULL,
    user_id ${text} NOT NULL,
    document_id ${text} NOT NULL,
    inbox ${text},
    email ${text},
    slack ${text},
    updated_at ${bigint} NOT NULL,
    PRIMARY KEY (api_key, organization_id, user_id, document_id)
  )`
})
