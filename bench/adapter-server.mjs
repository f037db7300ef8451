// The servers of `bench/adapters.mjs` that are not examples, chosen by BENCH_TARGET, on PORT:
//   express-bare  Express + express.json() + pg querying PostgreSQL (DATABASE_URL) for documents/get
//   fastify-bare  Fastify (its JSON parser) + better-sqlite3 querying the SQLite file DB_FILE
//   node-http-pg  Atrium alone on node:http on PostgreSQL (DATABASE_URL): examples/node-http is on SQLite
// The bare servers do no authentication and no validation: the least each framework can do. They
// answer with the JSON Atrium gives for the seeded workspace (its API key is BENCH_API_KEY).
import { createRequire } from "node:module"
import { DOCUMENT_BY_ID, documentsAnswer, sqlite } from "./answers.mjs"

const requireFrom = (folder) => createRequire(new URL(`../${folder}/package.json`, import.meta.url))
const target = process.env.BENCH_TARGET
const port = Number(process.env.PORT)
const path = "/collab/v2/organizations/documents/get"
const apiKey = process.env.BENCH_API_KEY
const healthz = { status: "ok" }

if (target === "express-bare") {
  const express = requireFrom("examples/express")("express")
  const { default: pg } = await import("pg")
  // 10 connections, as Atrium's pool. A named query: prepared once per connection (Atrium's statements
  // are not), an advantage the bare server keeps.
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 })
  const documentById = (data, id) =>
    pool.query({ name: "document-by-id", text: DOCUMENT_BY_ID, values: [apiKey, data.organizationId, id] }).then((r) => r.rows[0])
  const app = express()
  app.use(express.json())
  app.get("/collab/healthz", (_req, res) => res.json(healthz))
  app.post(path, async (req, res) => {
    const { data } = req.body
    res.json(documentsAnswer(await Promise.all(data.documentIds.map((id) => documentById(data, id)))))
  })
  app.listen(port, "127.0.0.1", () => console.log("listening"))
} else if (target === "fastify-bare") {
  const Fastify = requireFrom("examples/fastify")("fastify")
  const Database = requireFrom("packages/sql-sqlite")("better-sqlite3")
  const db = new Database(process.env.DB_FILE, { readonly: true })
  const documentById = db.prepare(sqlite(DOCUMENT_BY_ID))
  const app = Fastify()
  app.get("/collab/healthz", async () => healthz)
  app.post(path, async ({ body: { data } }) => documentsAnswer(data.documentIds.map((id) => documentById.get(apiKey, data.organizationId, id))))
  await app.listen({ port, host: "127.0.0.1" })
  console.log("listening")
} else if (target === "node-http-pg") {
  const dist = (pkg) => new URL(`../packages/${pkg}/dist/index.js`, import.meta.url)
  const { createAtrium } = await import(dist("core"))
  const { toNodeListener } = await import(dist("node-http"))
  const { PgStorage } = await import(dist("sql-pg"))
  const { createServer } = await import("node:http")
  const atrium = createAtrium({ storage: PgStorage.layer({ url: process.env.DATABASE_URL }) })
  createServer(toNodeListener(atrium, { basePath: "/collab" })).listen(port, "127.0.0.1", () => console.log("listening"))
} else {
  throw new Error(`unknown BENCH_TARGET ${target}`)
}
