import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { columnTypes } from "./ColumnTypes.js"

/**
 * Which of an API key's access facts a server may keep (issue 23): a counter per key that every
 * write to a table the access rule reads moves on, by trigger, so a server holding a user's facts
 * asks one row per check whether they are still current, and a write made by another server, a
 * deletion job or a hand-written statement cannot be missed (docs/decisions.md, "Access").
 * On PostgreSQL the triggers run at commit (deferred): the key's row is locked only while the
 * transaction commits, so a transaction that writes a grant and then waits on a lock cannot hold
 * the row while another, holding that lock, waits for the row.
 * Document inserts are left out on purpose: a document that does not exist is never kept, so its
 * creation has nothing to invalidate, and comments/add creating documents does not queue on the row.
 */
const WATCHED: ReadonlyArray<{ readonly table: string; readonly events: ReadonlyArray<string> }> = [
  { table: "organizations", events: ["INSERT", "UPDATE OF disabled", "DELETE"] },
  { table: "user_memberships", events: ["INSERT", "UPDATE", "DELETE"] },
  { table: "user_group_members", events: ["INSERT", "UPDATE", "DELETE"] },
  { table: "folders", events: ["INSERT", "UPDATE", "DELETE"] },
  { table: "documents", events: ["UPDATE OF disabled, access_type, inherit_access, folder_id", "DELETE"] },
  { table: "workspace_settings", events: ["INSERT", "UPDATE", "DELETE"] }
]

/** A trigger's name: the table and the event's first word. */
const triggerName = (table: string, event: string) => `${table}_access_version_${event.split(" ")[0]!.toLowerCase()}`

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const { text, bigint } = columnTypes(sql)
  yield* sql`CREATE TABLE access_versions (
    api_key ${text} PRIMARY KEY,
    version ${bigint} NOT NULL
  )`
  yield* sql.onDialectOrElse({
    pg: () =>
      Effect.gen(function*() {
        // Bodies on one line: a printed script (`atrium migrate --print`) ends statements with ";\n".
        yield* sql.unsafe(`CREATE FUNCTION atrium_bump_access_version() RETURNS trigger LANGUAGE plpgsql AS $$ ${
          [
            "DECLARE key TEXT;",
            "BEGIN",
            "IF TG_OP = 'DELETE' THEN key := OLD.api_key; ELSE key := NEW.api_key; END IF;",
            "INSERT INTO access_versions (api_key, version) VALUES (key, 1) ON CONFLICT (api_key) DO UPDATE SET version = access_versions.version + 1;",
            "RETURN NULL;",
            "END"
          ].join(" ")
        } $$`)
        for (const { table, events } of WATCHED) {
          for (const event of events) {
            yield* sql.unsafe(`CREATE CONSTRAINT TRIGGER ${triggerName(table, event)} AFTER ${event} ON ${table}
              DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION atrium_bump_access_version()`)
          }
        }
      }),
    orElse: () =>
      Effect.gen(function*() {
        for (const { table, events } of WATCHED) {
          for (const event of events) {
            const row = event === "DELETE" ? "OLD" : "NEW"
            yield* sql.unsafe(`CREATE TRIGGER ${triggerName(table, event)} AFTER ${event} ON ${table} BEGIN INSERT INTO access_versions (api_key, version) VALUES (${row}.api_key, 1) ON CONFLICT (api_key) DO UPDATE SET version = version + 1; END`)
          }
        }
      })
  })
})
