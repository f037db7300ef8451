// Baseline (a) on PostgreSQL: the least a server can do to answer the same two requests as
// raw-server.mjs: node:http + pg on the same database, no auth, no validation.
// A pg.Pool of 10 connections, as Atrium's pool (@effect/sql-pg over pg.Pool, default max 10);
// wrk's 10 connections can then each have a database connection in both servers.
// Statements are parameterized but unnamed, as Atrium's are: PostgreSQL parses and plans each.
import { createServer } from "node:http"
import pg from "pg"
import { activitiesAnswer, DOCUMENT_BY_ID, documentsAnswer, LATEST_ACTIVITIES, onData, writeJson } from "./answers.mjs"

const pool = new pg.Pool({ connectionString: process.env.BENCH_PG_URL, max: 10 })
await pool.query("SELECT 1") // fail at start, not on the first request
const apiKey = process.env.BENCH_API_KEY

const documents = async (data) => {
  const found = await Promise.all(data.documentIds.map((id) => pool.query(DOCUMENT_BY_ID, [apiKey, data.organizationId, id])))
  return documentsAnswer(found.map(({ rows }) => rows[0]))
}

const activities = async (data) =>
  activitiesAnswer((await pool.query(LATEST_ACTIVITIES, [apiKey, data.organizationId, data.pageSize + 1])).rows, data.pageSize)

createServer((req, res) => {
  if (req.method === "GET") return writeJson(res, { status: "ok" }) // readiness probe
  onData(req, (data) => {
    const reply = req.url === "/v2/organizations/documents/get" ? documents(data) : activities(data)
    reply.then((body) => writeJson(res, body), (error) => {
      console.error(error)
      res.writeHead(500).end()
    })
  })
}).listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening"))
