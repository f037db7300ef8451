// Baseline (a) on PostgreSQL: the least a server can do to answer the same two requests as
// raw-server.mjs: node:http + pg on the same database, no auth, no validation.
// A pg.Pool of 10 connections, as Atrium's pool (@effect/sql-pg over pg.Pool, default max 10);
// wrk's 10 connections can then each have a database connection in both servers.
// Statements are parameterized but unnamed, as Atrium's are: PostgreSQL parses and plans each.
import { createServer } from "node:http"
import pg from "pg"

const pool = new pg.Pool({ connectionString: process.env.BENCH_PG_URL, max: 10 })
await pool.query("SELECT 1") // fail at start, not on the first request
const apiKey = process.env.BENCH_API_KEY
const documentById = "SELECT id, name, disabled, access_type FROM documents WHERE api_key = $1 AND organization_id = $2 AND id = $3"
const latestActivities = "SELECT record FROM activities WHERE api_key = $1 AND organization_id = $2 ORDER BY occurred_at DESC, id DESC LIMIT $3"

const answer = (res, body) => {
  const text = JSON.stringify(body)
  res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) })
  res.end(text)
}

const documents = async (data) => {
  const found = await Promise.all(data.documentIds.map((id) => pool.query(documentById, [apiKey, data.organizationId, id])))
  return {
    result: {
      status: "success",
      message: "Document(s) retrieved successfully.",
      data: found.flatMap(({ rows }) => rows).map((r) => ({ documentName: r.name, disabled: r.disabled === 1, accessType: r.access_type, id: r.id }))
    }
  }
}

const activities = async (data) => {
  const { rows } = await pool.query(latestActivities, [apiKey, data.organizationId, data.pageSize + 1])
  return {
    result: {
      status: "success",
      message: "Activity(s) retrieved successfully.",
      data: rows.slice(0, data.pageSize).map((r) => JSON.parse(r.record)),
      ...(rows.length > data.pageSize && { pageToken: "next" })
    }
  }
}

createServer((req, res) => {
  if (req.method === "GET") return answer(res, { status: "ok" }) // readiness probe
  const chunks = []
  req.on("data", (chunk) => chunks.push(chunk))
  req.on("end", () => {
    const { data } = JSON.parse(Buffer.concat(chunks).toString("utf8"))
    const reply = req.url === "/v2/organizations/documents/get" ? documents(data) : activities(data)
    reply.then((body) => answer(res, body), (error) => {
      console.error(error)
      res.writeHead(500).end()
    })
  })
}).listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening"))
