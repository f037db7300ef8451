import type * as SqlClient from "@effect/sql/SqlClient"

/**
 * The condition that leaves a disabled organization's rows out of a read across organizations
 * (docs/decisions.md, "Access"): a row of `table` (whose column `organization_id` names its
 * organization, or is NULL for none) is kept unless its organization is disabled. An anti-join on
 * the organizations' primary key (api_key, id): one index probe per row, so the table's own
 * indexes still choose, order and limit the read, on SQLite and PostgreSQL alike.
 */
export const inEnabledOrganization = (sql: SqlClient.SqlClient, table: string, apiKey: string) =>
  sql`NOT EXISTS (SELECT 1 FROM organizations WHERE organizations.api_key = ${apiKey} AND organizations.id = ${
    sql(table)
  }.organization_id AND organizations.disabled = 1)`
