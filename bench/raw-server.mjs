// Baseline (a): the least a server can do to answer the same two requests:
// node:http + better-sqlite3 on the same database file, no auth, no validation.
import { createRequire } from "node:module"
import { createServer } from "node:http"

const require = createRequire(new URL("../packages/sql-sqlite/package.json", import.meta.url))
const Database = require("better-sqlite3")
const db = new Database(process.env.BENCH_DB, { readonly: true })
const documentById = db.prepare("SELECT id, name, disabled, access_type FROM documents WHERE api_key = ? AND organization_id = ? AND id = ?")
const latestActivities = db.prepare(
  "SELECT record FROM activities WHERE api_key = ? AND organization_id = ? ORDER BY occurred_at DESC, id DESC LIMIT ?"
)
const apiKey = process.env.BENCH_API_KEY

const answer = (res, body) => {
  const text = JSON.stringify(body)
  res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) })
  res.end(text)
}

createServer((req, res) => {
  if (req.method === "GET") return answer(res, { status: "ok" }) // readiness probe
  const chunks = []
  req.on("data", (chunk) => chunks.push(chunk))
  req.on("end", () => {
    const { data } = JSON.parse(Buffer.concat(chunks).toString("utf8"))
    if (req.url === "/v2/organizations/documents/get") {
      const rows = data.documentIds.map((id) => documentById.get(apiKey, data.organizationId, id)).filter(Boolean)
      answer(res, {
        result: {
          status: "success",
          message: "Document(s) retrieved successfully.",
          data: rows.map((r) => ({ documentName: r.name, disabled: r.disabled === 1, accessType: r.access_type, id: r.id }))
        }
      })
    } else {
      const rows = latestActivities.all(apiKey, data.organizationId, data.pageSize + 1)
      answer(res, {
        result: {
          status: "success",
          message: "Activity(s) retrieved successfully.",
          data: rows.slice(0, data.pageSize).map((r) => JSON.parse(r.record)),
          ...(rows.length > data.pageSize && { pageToken: "next" })
        }
      })
    }
  })
}).listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening"))
