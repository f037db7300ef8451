// Baseline (a): the least a server can do to answer the same two requests:
// node:http + better-sqlite3 on the same database file, no auth, no validation.
import { createRequire } from "node:module"
import { createServer } from "node:http"
import { activitiesAnswer, DOCUMENT_BY_ID, documentsAnswer, LATEST_ACTIVITIES, onData, sqlite, writeJson } from "./answers.mjs"

const require = createRequire(new URL("../packages/sql-sqlite/package.json", import.meta.url))
const Database = require("better-sqlite3")
const db = new Database(process.env.BENCH_DB, { readonly: true })
const documentById = db.prepare(sqlite(DOCUMENT_BY_ID))
const latestActivities = db.prepare(sqlite(LATEST_ACTIVITIES))
const apiKey = process.env.BENCH_API_KEY

createServer((req, res) => {
  if (req.method === "GET") return writeJson(res, { status: "ok" }) // readiness probe
  onData(req, (data) =>
    writeJson(res, req.url === "/v2/organizations/documents/get"
      ? documentsAnswer(data.documentIds.map((id) => documentById.get(apiKey, data.organizationId, id)))
      : activitiesAnswer(latestActivities.all(apiKey, data.organizationId, data.pageSize + 1), data.pageSize)))
}).listen(Number(process.env.PORT), "127.0.0.1", () => console.log("listening"))
