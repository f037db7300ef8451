// What the bare baseline servers (raw-server*.mjs, adapter-server.mjs) send: the statements they
// run and the JSON Atrium gives for documents/get and activities/get, built the same way in each.

/** PostgreSQL placeholders; `sqlite()` turns them into `?`. */
export const DOCUMENT_BY_ID = "SELECT id, name, disabled, access_type FROM documents WHERE api_key = $1 AND organization_id = $2 AND id = $3"
export const LATEST_ACTIVITIES =
  "SELECT record FROM activities WHERE api_key = $1 AND organization_id = $2 ORDER BY occurred_at DESC, id DESC LIMIT $3"
export const sqlite = (statement) => statement.replace(/\$\d+/g, "?")

/** documents/get's answer from the rows found (missing ones undefined). */
export const documentsAnswer = (rows) => ({
  result: {
    status: "success",
    message: "Document(s) retrieved successfully.",
    data: rows.filter(Boolean).map((r) => ({ documentName: r.name, disabled: r.disabled === 1, accessType: r.access_type, id: r.id }))
  }
})

/** activities/get's answer from `pageSize + 1` rows, newest first (the extra row says there is a next page). */
export const activitiesAnswer = (rows, pageSize) => ({
  result: {
    status: "success",
    message: "Activity(s) retrieved successfully.",
    data: rows.slice(0, pageSize).map((r) => JSON.parse(r.record)),
    ...(rows.length > pageSize && { pageToken: "next" })
  }
})

/** Writes `body` as JSON with its length, as Atrium does. */
export const writeJson = (res, body) => {
  const text = JSON.stringify(body)
  res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) })
  res.end(text)
}

/** Reads a request's JSON body and hands its `data` to `f`. */
export const onData = (req, f) => {
  const chunks = []
  req.on("data", (chunk) => chunks.push(chunk))
  req.on("end", () => f(JSON.parse(Buffer.concat(chunks).toString("utf8")).data))
}

// --- comments (bench/comments.mjs) ------------------------------------------------

/** A thread page: newest first, `pageSize + 1` rows (the extra one says there is a next page). */
export const THREAD_PAGE =
  "SELECT * FROM comment_annotations WHERE api_key = $1 AND organization_id = $2 AND document_id = $3 ORDER BY last_updated DESC, id DESC LIMIT $4"
/** The comments (or reactions) of the page's threads, `$3` onwards their ids. */
export const threadChildren = (table, order, count) =>
  `SELECT * FROM ${table} WHERE api_key = $1 AND organization_id = $2 AND annotation_id IN (${
    Array.from({ length: count }, (_, i) => `$${i + 3}`).join(", ")
  }) ORDER BY ${order}`
export const COMMENT_ORDER = "annotation_id, created_at, seq, id"
export const REACTION_ORDER = "annotation_id, comment_id, created_at, reaction_id, user_id"
export const THREAD_BY_ID = "SELECT * FROM comment_annotations WHERE api_key = $1 AND organization_id = $2 AND id = $3"
/** Whether the thread has comment `$4`, and the `seq` its next comment takes: what Atrium asks before it inserts. */
export const COMMENT_BY_ID = "SELECT id FROM comments WHERE api_key = $1 AND organization_id = $2 AND annotation_id = $3 AND id = $4"
export const NEXT_SEQ = "SELECT COALESCE(MAX(seq), -1) + 1 AS next FROM comments WHERE api_key = $1 AND organization_id = $2 AND annotation_id = $3"
export const INSERT_COMMENT =
  "INSERT INTO comments (api_key, organization_id, annotation_id, id, created_by, created_at, last_updated, record, seq) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
/** Moves a thread's lastUpdated forward: `[now, apiKey, organizationId, annotationId, now]` (SQLite's `?` binds in order). */
export const TOUCH_THREAD =
  "UPDATE comment_annotations SET last_updated = $1 WHERE api_key = $2 AND organization_id = $3 AND id = $4 AND last_updated < $5"

const groupBy = (rows, key) => {
  const groups = new Map()
  for (const row of rows) {
    const group = groups.get(key(row))
    if (group) group.push(row)
    else groups.set(key(row), [row])
  }
  return groups
}

const reactionsOf = (rows) =>
  [...groupBy(rows, (r) => r.reaction_id).values()].map((group) => ({
    annotationId: `${group[0].annotation_id}:${Number(group[0].comment_id)}:${group[0].reaction_id}`,
    type: "reaction",
    icon: group[0].reaction_id,
    commentAnnotationId: group[0].annotation_id,
    fromUsers: group.map((r) => ({ from: JSON.parse(r.record).from, lastUpdated: Number(r.created_at) })),
    lastUpdated: Math.max(...group.map((r) => Number(r.created_at)))
  }))

/** commentannotations/get's answer from `pageSize + 1` thread rows and their comments and reactions. */
export const threadsAnswer = (threads, comments, reactions, pageSize) => {
  const commentsOf = groupBy(comments, (c) => c.annotation_id)
  const reactionsByThread = groupBy(reactions, (r) => r.annotation_id)
  return {
    result: {
      status: "success",
      message: "Annotation(s) fetched successfully.",
      data: threads.slice(0, pageSize).map((t) => {
        const threadReactions = reactionsByThread.get(t.id) ?? []
        return {
          ...JSON.parse(t.record),
          annotationId: t.id,
          annotationNumber: Number(t.annotation_number),
          sourceType: "rest-api",
          createdAt: Number(t.created_at),
          lastUpdated: Number(t.last_updated),
          metadata: { apiKey: t.api_key, organizationId: t.organization_id, documentId: t.document_id },
          comments: (commentsOf.get(t.id) ?? []).map((c) => {
            const grouped = reactionsOf(threadReactions.filter((r) => Number(r.comment_id) === Number(c.id)))
            const record = JSON.parse(c.record)
            return {
              commentId: Number(c.id),
              type: "text",
              status: "added",
              taggedUserContacts: [],
              attachments: [],
              ...record,
              createdAt: Number(c.created_at),
              lastUpdated: new Date(Number(c.last_updated)).toISOString(),
              reactionAnnotationIds: grouped.map((g) => g.annotationId),
              reactionAnnotations: grouped
            }
          })
        }
      }),
      ...(threads.length > pageSize && { nextPageToken: "next" })
    }
  }
}

/** comments/add's answer. */
export const commentsAddedAnswer = (ids) => ({ result: { status: "success", message: "Comment(s) added successfully.", data: ids } })

/** A comment's stored record, as Atrium stores one sent with only text and author. */
export const commentRecord = (input) => JSON.stringify({ taggedUserContacts: [], attachments: [], ...input, status: "added" })
