/**
 * Where a table keeps one value: its SQL column, and its path in a memory row
 * (the same path in the table's SQL JSON record, when it has one).
 */
export interface Field {
  readonly column: string
  readonly path: ReadonlyArray<string>
}

const field = (column: string, ...path: Array<string>): Field => ({ column, path })

const apiKey = field("api_key", "apiKey")
const organizationId = field("organization_id", "organizationId")
const userId = field("user_id", "userId")
const documentId = field("document_id", "documentId")

/** A table holding users' or documents' data, as the jobs see it. */
export interface DataTable {
  /** Its name, the same in SQL and in the memory store; also the name of its kind of data. */
  readonly name: string
  readonly apiKey: Field
  /** Absent: rows are shared by all of the key's organizations (a deletion narrowed to organizations keeps them). */
  readonly organization?: Field
  /** Present: rows belong to a user, and a user-data deletion removes them. */
  readonly user?: Field
  /** Present: rows belong to a document, and a migration re-points them. */
  readonly document?: Field
  /** Only rows with this value hold a document id in `document` (a column shared by several kinds of scope). */
  readonly documentRowsOnly?: { readonly field: Field; readonly value: string }
  /**
   * The document column is part of the row's key (SQL primary key, memory key):
   * a migration then first drops rows already under the new id, which belong to
   * no document (the new id has no document row, checked before anything moves).
   */
  readonly documentInKey?: boolean
  /**
   * SQL: the JSON column holding the whole record, and the primary key. A move
   * rewrites the record's copy of the document id too, row by row.
   */
  readonly record?: { readonly column: string; readonly key: ReadonlyArray<string> }
  /** The key its memory repository stores a row under. */
  readonly memoryKey: (row: any) => string
}

/** The document rows themselves: the first kind a migration moves. */
export const DOCUMENT_ROWS = "documents"

/**
 * Every table with a user's or a document's data: their repositories' table
 * names, columns and memory keys. A deletion removes users' rows in this order
 * (the user record last); a migration moves documents' rows in this order
 * (the document row first).
 */
export const dataTables: ReadonlyArray<DataTable> = [
  {
    name: DOCUMENT_ROWS,
    apiKey,
    organization: organizationId,
    document: field("id", "id"),
    documentInKey: true,
    memoryKey: (r) => `${r.apiKey}\n${r.organizationId}\n${r.id}`
  },
  {
    name: "activities",
    apiKey: field("api_key", "metadata", "apiKey"),
    organization: field("organization_id", "metadata", "organizationId"),
    // The acting user.
    user: field("user_id", "actionUser", "userId"),
    document: field("document_id", "metadata", "documentId"),
    record: { column: "record", key: ["api_key", "organization_id", "id"] },
    memoryKey: (r) => `${r.metadata.apiKey}\n${r.metadata.organizationId}\n${r.id}`
  },
  {
    name: "agent_executions",
    apiKey,
    organization: organizationId,
    document: documentId,
    memoryKey: (r) => `${r.apiKey}\n${r.id}`
  },
  {
    name: "judgments",
    apiKey,
    organization: organizationId,
    // The human reviewer who recorded the judgment.
    user: field("reviewer_id", "reviewerId"),
    document: documentId,
    memoryKey: (r) => `${r.apiKey}\n${r.id}`
  },
  {
    name: "presence",
    apiKey,
    organization: organizationId,
    user: userId,
    document: documentId,
    documentInKey: true,
    memoryKey: (r) => `${r.apiKey}\n${r.organizationId}\n${r.documentId}\n${r.userId}`
  },
  {
    // Per-user settings; the organization-level default has no document (null in memory, '' in SQL).
    name: "notification_preferences",
    apiKey,
    organization: organizationId,
    user: userId,
    document: documentId,
    documentInKey: true,
    memoryKey: (r) => `${r.apiKey}\n${r.organizationId}\n${r.userId}\n${r.documentId ?? ""}`
  },
  {
    name: "user_group_members",
    apiKey,
    organization: organizationId,
    user: userId,
    memoryKey: (r) => `${r.apiKey}\n${r.organizationId}\n${r.groupId}\n${r.userId}`
  },
  {
    // Organization, folder and document access; scope_id is the document id at level "document".
    name: "user_memberships",
    apiKey,
    organization: organizationId,
    user: userId,
    document: field("scope_id", "scopeId"),
    documentRowsOnly: { field: field("level", "level"), value: "document" },
    documentInKey: true,
    memoryKey: (r) => `${r.apiKey}\n${r.organizationId}\n${r.level}\n${r.scopeId}\n${r.userId}`
  },
  {
    // The user record (name, email, …), one per API key.
    name: "users",
    apiKey,
    user: userId,
    memoryKey: (r) => `${r.apiKey}\n${r.userId}`
  }
]

export const userDataTables = dataTables.filter((table) => table.user !== undefined)
export const documentDataTables = dataTables.filter((table) => table.document !== undefined)

export const dataTable = (name: string): DataTable => {
  const table = dataTables.find((t) => t.name === name)
  if (table === undefined) throw new Error(`Unknown kind of job data: ${name}`)
  return table
}

/** The value at `path` of a memory row or JSON record. */
export const valueAt = (row: any, path: ReadonlyArray<string>): unknown => path.reduce((value, key) => value?.[key], row)

/** A copy of `row` with `value` at `path` (rows are replaced, never mutated). */
export const withValue = (row: any, path: ReadonlyArray<string>, value: unknown): any => {
  const [head, ...rest] = path
  return { ...row, [head!]: rest.length === 0 ? value : withValue(row[head!], rest, value) }
}
