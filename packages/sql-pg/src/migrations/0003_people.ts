import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"

/** Users and their memberships, organization user groups, presence, per-user notification preferences. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE users (
    api_key TEXT COLLATE "C" NOT NULL,
    user_id TEXT COLLATE "C" NOT NULL,
    internal_id TEXT COLLATE "C" NOT NULL,
    name TEXT COLLATE "C",
    email TEXT COLLATE "C",
    photo_url TEXT COLLATE "C",
    user_initial TEXT COLLATE "C",
    metadata TEXT COLLATE "C" NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (api_key, user_id)
  )`
  // level: organization | document | folder; scope_id is '' at organization level.
  // The primary key serves users/get by scope, keyset by user id, and the grouped
  // (document id, user id) keyset of allDocuments.
  yield* sql`CREATE TABLE user_memberships (
    api_key TEXT COLLATE "C" NOT NULL,
    organization_id TEXT COLLATE "C" NOT NULL,
    level TEXT COLLATE "C" NOT NULL,
    scope_id TEXT COLLATE "C" NOT NULL,
    user_id TEXT COLLATE "C" NOT NULL,
    access_role TEXT COLLATE "C" NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (api_key, organization_id, level, scope_id, user_id)
  )`
  // users/get with allDocuments (distinct users of any document, keyset by user id).
  yield* sql`CREATE INDEX user_memberships_level_user ON user_memberships (api_key, organization_id, level, user_id)`
  // users/delete at organization scope (every membership of one user).
  yield* sql`CREATE INDEX user_memberships_user ON user_memberships (api_key, organization_id, user_id)`
  yield* sql`CREATE TABLE user_groups (
    api_key TEXT COLLATE "C" NOT NULL,
    organization_id TEXT COLLATE "C" NOT NULL,
    group_id TEXT COLLATE "C" NOT NULL,
    name TEXT COLLATE "C" NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (api_key, organization_id, group_id)
  )`
  yield* sql`CREATE TABLE user_group_members (
    api_key TEXT COLLATE "C" NOT NULL,
    organization_id TEXT COLLATE "C" NOT NULL,
    group_id TEXT COLLATE "C" NOT NULL,
    user_id TEXT COLLATE "C" NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (api_key, organization_id, group_id, user_id)
  )`
  // Removing a user from every group of an organization.
  yield* sql`CREATE INDEX user_group_members_user ON user_group_members (api_key, organization_id, user_id)`
  yield* sql`CREATE TABLE presence (
    api_key TEXT COLLATE "C" NOT NULL,
    organization_id TEXT COLLATE "C" NOT NULL,
    document_id TEXT COLLATE "C" NOT NULL,
    user_id TEXT COLLATE "C" NOT NULL,
    name TEXT COLLATE "C",
    email TEXT COLLATE "C",
    status TEXT COLLATE "C" NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (api_key, organization_id, document_id, user_id)
  )`
  // document_id is '' for the organization-level default of a user.
  yield* sql`CREATE TABLE notification_preferences (
    api_key TEXT COLLATE "C" NOT NULL,
    organization_id TEXT COLLATE "C" NOT NULL,
    user_id TEXT COLLATE "C" NOT NULL,
    document_id TEXT COLLATE "C" NOT NULL,
    inbox TEXT COLLATE "C",
    email TEXT COLLATE "C",
    slack TEXT COLLATE "C",
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (api_key, organization_id, user_id, document_id)
  )`
})
