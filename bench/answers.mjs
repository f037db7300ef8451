// What the bare baseline servers (raw-server*.mjs, adapter-server.mjs) send: the statements they
// run and the JSON Atrium gives for documents/get and activities/get, built the same way in each.

/** PostgreSQL placeholders; `sqlite()` turns them into `?`. */
export const DOCUMENT_BY_ID = "SELECT id, name, disabled, access_type FROM documents WHERE api_key = $1 AND organization_id = $2 AND id = $3"
export const LATEST_ACTIVITIES =
  "SELECT record FROM activities WHERE api_key = $1 AND organization_id = $2 ORDER BY occurred_at DESC, id DESC LIMIT $3"
export const sqlite = (statement) => statement.replace(/\$\d/g, "?")

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
