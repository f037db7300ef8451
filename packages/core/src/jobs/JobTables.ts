/**
 * A table holding an organization's, a document's or a user's data, as the jobs and the deletions
 * see it: its columns' names. Every table of the schema is one of these, a child of one (`children`),
 * or a domain's `otherTables` (test/jobs/inventory.test.ts holds the schema to that).
 */
export interface DataTable {
  /** Its name, also the name of its kind of data. */
  readonly name: string
  readonly apiKey: string
  /** Absent: rows are shared by all of the key's organizations (a deletion narrowed to organizations keeps them). */
  readonly organization?: string
  /** Present: rows belong to a user, and a user-data deletion removes them. */
  readonly user?: string
  /** Present: rows belong to a document: a document's deletion removes them, and a migration re-points them (unless `migrated` is false). */
  readonly document?: string
  /**
   * Present: rows belong to a folder (its id in `column`; with `rowsOnly`, only rows with that
   * value there): a folder's deletion removes them.
   */
  readonly folder?: { readonly column: string; readonly rowsOnly?: { readonly column: string; readonly value: string } }
  /** false: a migration leaves these rows of the document where they are (the realtime log: its numbers are the old id's). */
  readonly migrated?: boolean
  /**
   * The JSON text column whose rows may name a document or a user, and the texts that name one
   * (the webhook messages' payloads): a document's deletion, and a user-data deletion, remove the
   * rows holding any of them too. Read as the text written (JSON.stringify: no spaces), as
   * migration 0015 reads them.
   */
  readonly mentions?: {
    readonly column: string
    /** Absent: the table's document column says whose rows are a document's. */
    readonly document?: (documentId: string) => ReadonlyArray<string>
    readonly user: (userId: string) => ReadonlyArray<string>
  }
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
   * Rows of other tables that belong to one of these rows and go with it when a deletion removes
   * it (a thread's comments, a comment's reactions, a message's deliveries): `on` pairs the
   * child's columns with this table's.
   */
  readonly children?: ReadonlyArray<{ readonly table: string; readonly on: ReadonlyArray<readonly [child: string, parent: string]> }>
  /**
   * The access rule reads these rows (grants, user group members, the document rows): a task that
   * removes or moves them emits an access event in its transaction (docs/decisions.md, "Access").
   */
  readonly access?: boolean
  /** Columns holding JSON text: a user-data export gives them parsed. */
  readonly json?: ReadonlyArray<string>
  /** The export's name for this table's rows where the hosted service has one (`reactions`); absent: the table's name in camelCase. */
  readonly exportAs?: string
  /** Visited before every other table (the document rows) or after them (the user record); absent: in the domains' order. */
  readonly order?: "first" | "last"
}

/** The document rows themselves: the first kind a migration moves. */
export const DOCUMENT_ROWS = "documents"

/**
 * Every domain's tables (`dataTables` in its descriptor) in the order the jobs visit them: the
 * descriptors' order, except that a table marked `first` comes before all others and one marked
 * `last` after them. A deletion removes users' rows in this order (the user record last); a
 * migration moves documents' rows in this order (the document row first).
 */
export const inJobOrder = (tables: ReadonlyArray<DataTable>): ReadonlyArray<DataTable> => [
  ...tables.filter((table) => table.order === "first"),
  ...tables.filter((table) => table.order === undefined),
  ...tables.filter((table) => table.order === "last")
]

/**
 * The jobs' view of these tables: by name, those with users' rows, those a migration moves, and
 * those a deletion visits: every table with organizations' rows, and of them those with documents' rows.
 */
export const jobTables = (tables: ReadonlyArray<DataTable>) => {
  const ordered = inJobOrder(tables)
  return {
    userData: ordered.filter((table) => table.user !== undefined || table.mentions !== undefined),
    documentData: ordered.filter((table) => table.document !== undefined && table.migrated !== false),
    organizationData: ordered.filter((table) => table.organization !== undefined),
    documentDeletion: ordered.filter((table) => table.organization !== undefined && (table.document !== undefined || table.mentions?.document !== undefined)),
    folderDeletion: ordered.filter((table) => table.organization !== undefined && table.folder !== undefined),
    named: (name: string): DataTable => {
      const table = ordered.find((t) => t.name === name)
      if (table === undefined) throw new Error(`Unknown kind of job data: ${name}`)
      return table
    }
  }
}

/** A snake_case name in camelCase: `comment_annotations` → `commentAnnotations`. */
export const camelCase = (name: string): string => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())

/** The key a user-data export lists a table's rows under: its `exportAs`, else its name in camelCase. */
export const exportKey = (table: DataTable): string => table.exportAs ?? camelCase(table.name)

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
