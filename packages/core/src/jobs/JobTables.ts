/** A table holding users' or documents' data, as the jobs see it: its columns' names. */
export interface DataTable {
  /** Its name, also the name of its kind of data. */
  readonly name: string
  readonly apiKey: string
  /** Absent: rows are shared by all of the key's organizations (a deletion narrowed to organizations keeps them). */
  readonly organization?: string
  /** Present: rows belong to a user, and a user-data deletion removes them. */
  readonly user?: string
  /** Present: rows belong to a document, and a migration re-points them. */
  readonly document?: string
  /** Only rows with this value hold a document id in `document` (a column shared by several kinds of scope). */
  readonly documentRowsOnly?: { readonly column: string; readonly value: string }
  /**
   * The document column is part of the primary key: a migration then first drops rows already
   * under the new id, which belong to no document (the new id has no document row, checked
   * before anything moves).
   */
  readonly documentInKey?: boolean
  /**
   * The JSON column holding the whole record, the primary key, and where the record keeps its
   * copy of the document id: a move rewrites that copy too, row by row.
   */
  readonly record?: { readonly column: string; readonly key: ReadonlyArray<string>; readonly documentPath: ReadonlyArray<string> }
  /**
   * Rows of other tables that belong to one of these rows and go with it when a user-data
   * deletion removes it (a thread's comments, a comment's reactions): `on` pairs the child's
   * columns with this table's.
   */
  readonly children?: ReadonlyArray<{ readonly table: string; readonly on: ReadonlyArray<readonly [child: string, parent: string]> }>
}

/** The document rows themselves: the first kind a migration moves. */
export const DOCUMENT_ROWS = "documents"

const common = { apiKey: "api_key", organization: "organization_id" } as const

/**
 * Every table with a user's or a document's data. A deletion removes users' rows in this order
 * (the user record last); a migration moves documents' rows in this order (the document row first).
 */
export const dataTables: ReadonlyArray<DataTable> = [
  { name: DOCUMENT_ROWS, ...common, document: "id", documentInKey: true },
  {
    name: "activities",
    ...common,
    // The acting user.
    user: "user_id",
    document: "document_id",
    record: { column: "record", key: ["api_key", "organization_id", "id"], documentPath: ["metadata", "documentId"] }
  },
  { name: "agent_executions", ...common, document: "document_id" },
  // The user is the human reviewer who recorded the judgment.
  { name: "judgments", ...common, user: "reviewer_id", document: "document_id" },
  { name: "presence", ...common, user: "user_id", document: "document_id", documentInKey: true },
  // Per-user settings; the organization-level default has document_id ''.
  { name: "notification_preferences", ...common, user: "user_id", document: "document_id", documentInKey: true },
  { name: "user_group_members", ...common, user: "user_id" },
  {
    // Organization, folder and document access; scope_id is the document id at level "document".
    name: "user_memberships",
    ...common,
    user: "user_id",
    document: "scope_id",
    documentRowsOnly: { column: "level", value: "document" },
    documentInKey: true
  },
  {
    // Threads the user started go whole: their other comments answer the user's first one.
    name: "comment_annotations",
    ...common,
    user: "created_by",
    document: "document_id",
    children: ["comments", "comment_reactions", "comment_reads"].map((table) => ({
      table,
      on: [["api_key", "api_key"], ["organization_id", "organization_id"], ["annotation_id", "id"]] as const
    }))
  },
  {
    // The user's comments in other people's threads, with the reactions to them.
    name: "comments",
    ...common,
    user: "created_by",
    children: [{
      table: "comment_reactions",
      on: [["api_key", "api_key"], ["organization_id", "organization_id"], ["annotation_id", "annotation_id"], ["comment_id", "id"]]
    }]
  },
  { name: "comment_reactions", ...common, user: "user_id" },
  { name: "comment_reads", ...common, user: "user_id" },
  // The user record (name, email, …), one per API key: shared by its organizations.
  { name: "users", apiKey: "api_key", user: "user_id" }
]

export const userDataTables = dataTables.filter((table) => table.user !== undefined)
export const documentDataTables = dataTables.filter((table) => table.document !== undefined)

export const dataTable = (name: string): DataTable => {
  const table = dataTables.find((t) => t.name === name)
  if (table === undefined) throw new Error(`Unknown kind of job data: ${name}`)
  return table
}

/** A copy of a JSON record with `value` at `path`. */
export const withValue = (
  record: Readonly<Record<string, unknown>>,
  path: ReadonlyArray<string>,
  value: unknown
): Record<string, unknown> => {
  const [head, ...rest] = path
  const inner = record[head!]
  return {
    ...record,
    [head!]: rest.length === 0 ? value : withValue(typeof inner === "object" && inner !== null ? inner as Record<string, unknown> : {}, rest, value)
  }
}
