import * as SqlClient from "@effect/sql/SqlClient"
import type * as Statement from "@effect/sql/Statement"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { fromJson, num, toJson } from "../sql/Rows.js"
import { compareText } from "../TextOrder.js"
import { type DeletionScope, JobDataPort } from "./JobDataPort.js"
import { camelCase, type DataTable, exportKey, jobTables, withValue } from "./JobTables.js"

/** The job data port over these tables (every domain's `dataTables`: SqlStorage.ts gives them). */
export const SqlJobDataPort = (tables: ReadonlyArray<DataTable>) => {
  const { documentData, documentDeletion, folderDeletion, named: dataTable, organizationData, userData } = jobTables(tables)
  return Layer.effect(
    JobDataPort,
    Effect.map(SqlClient.SqlClient, (sql) => {
      /** Removes the rows of `spec` that `owned` picks, and their children first, while their parents still say whose they are. */
      const deleteOwned = (spec: DataTable, owned: Statement.Fragment) =>
        Effect.gen(function*() {
          for (const child of spec.children ?? []) {
            const joined = sql.and(child.on.map(([c, p]) => sql`${sql(child.table)}.${sql(c)} = parent.${sql(p)}`))
            yield* sql`DELETE FROM ${sql(child.table)} WHERE EXISTS (SELECT 1 FROM ${sql(spec.name)} parent WHERE ${owned} AND ${joined})`
          }
          // Only whether rows the access rule reads went: the task's or the deletion's event says which.
          if (spec.access !== true) {
            yield* sql`DELETE FROM ${sql(spec.name)} WHERE ${owned}`
            return false
          }
          return (yield* sql`DELETE FROM ${sql(spec.name)} WHERE ${owned} RETURNING 1 AS removed`).length > 0
        })

      /** Whether the JSON text in `column` holds `needle`, as written (no JSON functions in portable SQL). */
      const holds = (column: string, needle: string) =>
        sql.onDialectOrElse({
          pg: () => sql`strpos(${sql(column)}, ${needle}) > 0`,
          orElse: () => sql`instr(${sql(column)}, ${needle}) > 0`
        })

      /** The users' rows of `spec`: in the organization, or (undefined) everywhere in the key. */
      const usersRows = (spec: DataTable, apiKey: string, userIds: ReadonlyArray<string>, organizationId: string | undefined) =>
        sql.and([
          sql`${sql(spec.apiKey)} = ${apiKey}`,
          // A table with no user column holds users' data where its JSON text names them.
          spec.user !== undefined
            ? sql.in(spec.user, userIds)
            : sql.or(userIds.flatMap(spec.mentions!.user).map((needle) => holds(spec.mentions!.column, needle))),
          ...(organizationId !== undefined ? [sql`${sql(spec.organization!)} = ${organizationId}`] : [])
        ])

      /**
       * A table's columns and primary key, as the database has them: the export's order and its numbers.
       * Read once per table, concurrent first exports sharing the one read (the catalogue is slow on PostgreSQL).
       */
      type Shape = { readonly key: ReadonlyArray<string>; readonly numeric: ReadonlySet<string> }
      const readShape = (table: string) =>
        Effect.gen(function*() {
          const columns = yield* sql.onDialectOrElse({
            pg: () =>
              sql<{ name: string; type: string; pk: number | string | null }>`SELECT c.column_name AS name, c.data_type AS type,
                (SELECT k.ordinal_position FROM information_schema.key_column_usage k
                  JOIN information_schema.table_constraints t ON t.constraint_name = k.constraint_name AND t.table_schema = k.table_schema
                  WHERE t.constraint_type = 'PRIMARY KEY' AND k.table_schema = c.table_schema AND k.table_name = c.table_name AND k.column_name = c.column_name) AS pk
                FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ${table}`,
            orElse: () => sql<{ name: string; type: string; pk: number }>`SELECT name, type, pk FROM pragma_table_info(${table})`
          })
          const key = columns.filter((c) => c.pk !== null && Number(c.pk) > 0).sort((a, b) => Number(a.pk) - Number(b.pk)).map((c) => c.name)
          if (key.length === 0) return yield* Effect.die(new Error(`${table} has no primary key: a user-data export pages by it`))
          return { key, numeric: new Set(columns.filter((c) => /int|double|real|numeric/i.test(c.type)).map((c) => c.name)) } satisfies Shape
        })
      const shapes = new Map<string, Effect.Effect<Shape, unknown>>()
      const shapeOf = (table: string) => {
        let shape = shapes.get(table)
        if (shape === undefined) {
          shape = Effect.runSync(Effect.cached(readShape(table)))
          shapes.set(table, shape)
        }
        // A failed read (the database was away) is not kept: the next export reads again.
        return Effect.onError(shape, () => Effect.sync(() => shapes.delete(table)))
      }

      /** The rows of `spec` in the scope. */
      const inScope = (spec: DataTable, apiKey: string, scope: DeletionScope) => {
        const organization = [sql`${sql(spec.apiKey)} = ${apiKey}`, sql`${sql(spec.organization!)} = ${scope.organizationId}`]
        if (scope.level === "organization") return sql.and(organization)
        if (scope.level === "folder") {
          const { column, rowsOnly } = spec.folder!
          return sql.and([...organization, ...(rowsOnly ? [sql`${sql(rowsOnly.column)} = ${rowsOnly.value}`] : []), sql.in(column, scope.ids)])
        }
        if (spec.document !== undefined) {
          const only = spec.documentRowsOnly
          return sql.and([...organization, ...(only ? [sql`${sql(only.column)} = ${only.value}`] : []), sql.in(spec.document, scope.ids)])
        }
        const { column, document } = spec.mentions!
        return sql.and([...organization, sql.or(scope.ids.flatMap(document!).map((needle) => holds(column, needle)))])
      }

      return {
        userData: userData.map((t) => ({ kind: t.name, perOrganization: t.organization !== undefined, exportAs: exportKey(t) })),
        documentData: documentData.map((t) => t.name),
        deletionData: {
          organization: organizationData.map((t) => t.name),
          document: documentDeletion.map((t) => t.name),
          folder: folderDeletion.map((t) => t.name)
        },
        deleteScopeData: (apiKey, scope, data) =>
          scope.level !== "organization" && scope.ids.length === 0
            ? Effect.succeed(false)
            : deleteOwned(dataTable(data), inScope(dataTable(data), apiKey, scope)).pipe(Effect.orDie),
        deleteUserData: (apiKey, userIds, organizationId, data) =>
          Effect.gen(function*() {
            const spec = dataTable(data)
            const owned = usersRows(spec, apiKey, userIds, organizationId)
            if (spec.access !== true) {
              yield* deleteOwned(spec, owned)
              return []
            }
            // Whose access this removes, for the task's events: each organization and user once, in one order on every storage.
            const removed = yield* sql<{ readonly organization_id: string; readonly user_id: string }>`DELETE FROM ${sql(spec.name)} WHERE ${owned}
              RETURNING ${sql(spec.organization!)} AS organization_id, ${sql(spec.user!)} AS user_id`
            const pairs = new Map(removed.map((r) => [JSON.stringify([r.organization_id, r.user_id]), { organizationId: r.organization_id, userId: r.user_id }]))
            return [...pairs.values()].sort((a, b) => compareText(a.organizationId, b.organizationId) || compareText(a.userId, b.userId))
          }).pipe(Effect.orDie),
        exportUserData: (apiKey, userId, organizationId, data, after, limit) =>
          Effect.gen(function*() {
            const spec = dataTable(data)
            const { key, numeric } = yield* shapeOf(spec.name)
            const json = new Set(spec.json ?? [])
            // The table's rows of no organization (the user record) are the user's in every organization.
            const owned = usersRows(spec, apiKey, [userId], spec.organization === undefined ? undefined : organizationId)
            const from = after === undefined ? [] : [sql`(${sql.csv(key)}) > (${sql.csv(after.map((value) => sql`${value}`))})`]
            const rows = yield* sql<Record<string, unknown>>`SELECT * FROM ${sql(spec.name)} WHERE ${sql.and([owned, ...from])}
              ORDER BY ${sql.csv(key)} LIMIT ${limit}`
            const value = (column: string, raw: unknown) =>
              raw === null || raw === undefined ? null : json.has(column) ? fromJson(raw, null) : numeric.has(column) ? num(raw) : raw
            return rows.map((row) => ({
              key: key.map((column) => value(column, row[column])),
              record: Object.fromEntries(Object.entries(row)
                .filter(([column]) => column !== spec.apiKey)
                .map(([column, raw]) => [camelCase(column), value(column, raw)]))
            }))
          }).pipe(Effect.orDie),
        moveDocumentData: (apiKey, organizationId, fromId, toId, data) =>
          Effect.gen(function*() {
            const spec = dataTable(data)
            const table = sql(spec.name)
            const document = sql(spec.document!)
            const only = spec.documentRowsOnly
            const scope = sql.and([
              sql`${sql(spec.apiKey)} = ${apiKey}`,
              sql`${sql(spec.organization!)} = ${organizationId}`,
              ...(only !== undefined ? [sql`${sql(only.column)} = ${only.value}`] : [])
            ])
            // Whether the access rule's rows changed, for the task's event: rows dropped under the new id count too (a grant waiting for it).
            const returning = spec.access === true ? sql`RETURNING 1 AS changed` : sql``
            const dropped = spec.documentInKey ? yield* sql`DELETE FROM ${table} WHERE ${scope} AND ${document} = ${toId} ${returning}` : []
            if (spec.record === undefined) {
              const moved = yield* sql`UPDATE ${table} SET ${document} = ${toId} WHERE ${scope} AND ${document} = ${fromId} ${returning}`
              return spec.access === true && dropped.length + moved.length > 0
            }
            // No JSON functions in portable SQL: each record is rewritten here, then stored with its column copy.
            const { column, documentPath, key } = spec.record
            const rows = yield* sql<Record<string, unknown>>`SELECT ${sql.csv(key)}, ${sql(column)} FROM ${table} WHERE ${scope} AND ${document} = ${fromId}`
            for (const row of rows) {
              const record = toJson(withValue(fromJson(row[column], {}), documentPath, toId))
              yield* sql`UPDATE ${table} SET ${document} = ${toId}, ${sql(column)} = ${record}
                WHERE ${sql.and(key.map((k) => sql`${sql(k)} = ${row[k]}`))}`
            }
            return spec.access === true && dropped.length + rows.length > 0
          }).pipe(Effect.orDie)
      }
    })
  )
}
