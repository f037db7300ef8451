// One server of `bench/adapters.mjs`, chosen by BENCH_TARGET, on PORT, over the SQLite file BENCH_DB:
//   express-bare    Express + express.json() + better-sqlite3 answering documents/get with the same JSON
//   express-atrium  Express with Atrium mounted: app.use("/collab", atrium(...))
//   fastify-bare    Fastify (its JSON parser) + better-sqlite3 answering the same
//   fastify-atrium  Fastify with Atrium registered: app.register(atriumPlugin, { prefix: "/collab" })
//   node-http-atrium  Atrium alone on node:http (toNodeListener): what Atrium costs without a framework
// The bare servers do no authentication and no validation: the least each framework can do.
import { createRequire } from "node:module"

const packages = new URL("../packages/", import.meta.url)
const requireFrom = (pkg) => createRequire(new URL(`${pkg}/package.json`, packages))
const target = process.env.BENCH_TARGET
const port = Number(process.env.PORT)
const path = "/collab/v2/organizations/documents/get"

const bareAnswer = () => {
  const Database = requireFrom("sql-sqlite")("better-sqlite3")
  const db = new Database(process.env.BENCH_DB, { readonly: true })
  const documentById = db.prepare("SELECT id, name, disabled, access_type FROM documents WHERE api_key = ? AND organization_id = ? AND id = ?")
  const apiKey = process.env.BENCH_API_KEY
  return ({ data }) => ({
    result: {
      status: "success",
      message: "Document(s) retrieved successfully.",
      data: data.documentIds
        .map((id) => documentById.get(apiKey, data.organizationId, id))
        .filter(Boolean)
        .map((r) => ({ documentName: r.name, disabled: r.disabled === 1, accessType: r.access_type, id: r.id }))
    }
  })
}

const atrium = async () => {
  const { createAtrium } = await import(new URL("core/dist/index.js", packages))
  const { SqliteStorage } = await import(new URL("sql-sqlite/dist/index.js", packages))
  return createAtrium({ storage: SqliteStorage.layer({ filename: process.env.BENCH_DB }) })
}

const healthz = { status: "ok" }

if (target === "node-http-atrium") {
  const { createServer } = await import("node:http")
  const { toNodeListener } = await import(new URL("node-http/dist/index.js", packages))
  createServer(toNodeListener(await atrium(), { basePath: "/collab" })).listen(port, "127.0.0.1", () => console.log("listening"))
} else if (target.startsWith("express")) {
  const express = requireFrom("express")("express")
  const app = express()
  if (target === "express-bare") {
    const answer = bareAnswer()
    app.get("/collab/healthz", (_req, res) => void res.json(healthz))
    app.post(path, express.json(), (req, res) => void res.json(answer(req.body)))
  } else {
    const { atrium: mount } = await import(new URL("express/dist/index.js", packages))
    app.use("/collab", mount(await atrium()))
  }
  app.listen(port, "127.0.0.1", () => console.log("listening"))
} else {
  const Fastify = requireFrom("fastify")("fastify")
  const app = Fastify()
  if (target === "fastify-bare") {
    const answer = bareAnswer()
    app.get("/collab/healthz", async () => healthz)
    app.post(path, async (request) => answer(request.body))
  } else {
    const { atriumPlugin } = await import(new URL("fastify/dist/index.js", packages))
    app.register(atriumPlugin, { atrium: await atrium(), prefix: "/collab" })
  }
  await app.listen({ port, host: "127.0.0.1" })
  console.log("listening")
}
