import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MemoryDb } from "../testing/memory/MemoryDb.js"
import { JobDataPort } from "./JobDataPort.js"
import { dataTable, documentDataTables, userDataTables, valueAt, withValue } from "./JobTables.js"

export const MemoryJobDataPort = Layer.effect(
  JobDataPort,
  Effect.map(MemoryDb, (db) => ({
    userData: userDataTables.map((t) => ({ kind: t.name, perOrganization: t.organization !== undefined })),
    documentData: documentDataTables.map((t) => t.name),
    deleteUserData: (apiKey, userIds, organizationId, data) =>
      Effect.sync(() => {
        const spec = dataTable(data)
        const table = db.table<any>(spec.name)
        for (const row of table.values()) {
          if (
            valueAt(row, spec.apiKey.path) === apiKey &&
            userIds.includes(valueAt(row, spec.user!.path) as string) &&
            (organizationId === undefined || valueAt(row, spec.organization!.path) === organizationId)
          ) table.delete(spec.memoryKey(row))
        }
      }),
    moveDocumentData: (apiKey, organizationId, fromId, toId, data) =>
      Effect.sync(() => {
        const spec = dataTable(data)
        const document = spec.document!.path
        const only = spec.documentRowsOnly
        const table = db.table<any>(spec.name)
        const rows = table.values().filter((row) =>
          valueAt(row, spec.apiKey.path) === apiKey && valueAt(row, spec.organization!.path) === organizationId &&
          (only === undefined || valueAt(row, only.field.path) === only.value)
        )
        if (spec.documentInKey) {
          for (const row of rows) if (valueAt(row, document) === toId) table.delete(spec.memoryKey(row))
        }
        for (const row of rows) {
          if (valueAt(row, document) !== fromId) continue
          const moved = withValue(row, document, toId)
          table.delete(spec.memoryKey(row))
          table.set(spec.memoryKey(moved), moved)
        }
      })
  }))
)
