// Adapter benchmark: the Express and Fastify examples against the bare framework answering the same
// request from the same database. `pnpm -s build && node bench/adapters.mjs`. Needs wrk, taskset
// and PostgreSQL (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres; its user needs CREATEDB).
//   node bench/adapters.mjs [--duration 2] [--warmup 3] [--connections 10] [--rounds 10] [--only express|fastify]
// The mounted servers are the examples, started as they are: examples/express/server.mjs on a
// PostgreSQL database made for this run (dropped at the end), examples/fastify/server.mjs on a
// SQLite file. Each pair shares its database: bare Express + express.json() + pg on the same
// PostgreSQL database, bare Fastify + better-sqlite3 on the same file (bench/adapter-server.mjs).
// Atrium alone on node:http is measured beside each, on the same database (examples/node-http on
// SQLite, bench/adapter-server.mjs on PostgreSQL), to tell the framework's share from Atrium's.
// As in run.mjs: each server pinned to core 0 and wrk to core 1 (PostgreSQL itself runs unpinned).
// This kind of machine drifts by tens of percent within a minute, so a framework's three servers
// are started together (only the one under load uses the core) and measured in short slices,
// taking turns (the order reversed every other round, so a trend hits each alike); each round's
// ratio compares two slices seconds apart, and the result is the median of those ratios.
// The request is organizations/documents/get with one documentId among 1,000 documents: a one-row
// answer, where Atrium's fixed costs weigh most. Target: with Atrium mounted, a framework keeps at
// least half of its bare throughput (issue 4, item 7).
import { join } from "node:path"
import { parseArgs } from "node:util"
import { benchDatabase, createWorkspace, median, peakRss, PG_ADMIN_URL, root, startPinned, stopServer, wrk as runWrk } from "./lib.mjs"

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "2" }, // one slice
    warmup: { type: "string", default: "3" },
    connections: { type: "string", default: "10" },
    rounds: { type: "string", default: "10" },
    only: { type: "string" } // one framework's three servers (and database) only
  }
})

// The two databases of the run: `url` for `atrium workspace create`, `env` for the servers.
const databases = {}
const open = async (key, storage, label, env) => {
  const database = await benchDatabase(storage, { pgAdminUrl: process.env.BENCH_PG_URL ?? PG_ADMIN_URL })
  databases[key] = { ...database, label, env: env(database) }
}
const example = (name) => ({ script: join(root, `examples/${name}/server.mjs`) })
const notExample = (target) => ({ script: join(root, "bench/adapter-server.mjs"), env: { BENCH_TARGET: target } })
const allServers = {
  "express-bare": { db: "pg", ...notExample("express-bare") },
  "examples/express": { db: "pg", ...example("express") },
  "node-http-pg": { db: "pg", ...notExample("node-http-pg") },
  "fastify-bare": { db: "sqlite", ...notExample("fastify-bare") },
  "examples/fastify": { db: "sqlite", ...example("fastify") },
  "examples/node-http": { db: "sqlite", ...example("node-http") }
}
const allPairs = [
  { key: "express", framework: "Express 5", db: "pg", bare: "express-bare", mounted: "examples/express" },
  { key: "fastify", framework: "Fastify 5", db: "sqlite", bare: "fastify-bare", mounted: "examples/fastify" }
]
if (args.only !== undefined && !allPairs.some((pair) => pair.key === args.only)) throw new Error("--only takes express or fastify")
const pairs = allPairs.filter((pair) => args.only === undefined || pair.key === args.only)
const servers = Object.fromEntries(Object.entries(allServers).filter(([, server]) => pairs.some((pair) => pair.db === server.db)))
const request = { path: "/collab/v2/organizations/documents/get", data: { organizationId: "org-bench", documentIds: ["doc-42"] } }

const running = new Set() // the servers up now, stopped on the way out whatever happens
const start = async (name) => {
  const { db, script, env } = servers[name]
  const database = databases[db]
  const server = await startPinned(process.execPath, [script], { ...process.env, ...database.env, ...env, BENCH_API_KEY: database.creds.apiKey }, "/collab/healthz")
  running.add(server)
  return server
}
const stop = async (server) => {
  await stopServer(server)
  running.delete(server)
}
const post = async (url, creds, path, data) => {
  const headers = { "content-type": "application/json", "x-service-api-key": creds.apiKey, "x-service-auth-token": creds.authToken }
  const response = await fetch(url + path, { method: "POST", headers, body: JSON.stringify({ data }) })
  const text = await response.text()
  if (response.status !== 200) throw new Error(`${path}: ${text}`)
  return text
}

const runs = []
try {
  const kinds = { pg: ["postgres", "PostgreSQL", ({ url }) => ({ DATABASE_URL: url })], sqlite: ["sqlite", "SQLite", ({ file }) => ({ DB_FILE: file })] }
  for (const { db } of pairs) await open(db, ...kinds[db])

  // --- seed each database through Atrium's own operations: the CLI, then its example -----------
  for (const { db, mounted } of pairs) {
    const database = databases[db]
    database.creds = createWorkspace({ ...process.env, DATABASE_URL: database.url })
    const seeding = await start(mounted)
    // In calls of 100, the most documents/add takes (docs/protocol.md, "Limits").
    for (let from = 0; from < 1000; from += 100) {
      await post(seeding.url, database.creds, "/collab/v1/organizations/documents/add", {
        organizationId: "org-bench",
        documents: Array.from({ length: 100 }, (_, i) => ({ documentId: `doc-${from + i}`, documentName: `Document ${from + i}` }))
      })
    }
    await stop(seeding)
  }

  // --- measure: per framework, its three servers up together, measured in turns -------------
  let expected // every server must give the same answer before it is measured
  for (const pair of pairs) {
    const names = Object.keys(servers).filter((name) => servers[name].db === pair.db)
    const creds = databases[pair.db].creds
    const up = {}
    for (const name of names) up[name] = await start(name)
    const wrk = (name, seconds) => runWrk({ url: up[name].url + request.path, data: request.data, creds, seconds, connections: args.connections })
    for (const name of names) {
      const answer = await post(up[name].url, creds, request.path, request.data)
      expected ??= answer
      if (answer !== expected) throw new Error(`${name} answers ${answer}, not ${expected}`)
      await wrk(name, Number(args.warmup))
    }
    for (let round = 1; round <= Number(args.rounds); round++) {
      for (const name of round % 2 === 1 ? names : [...names].reverse()) {
        const rss = peakRss(up[name].child.pid)
        const { p99ms, rps } = await wrk(name, Number(args.duration))
        runs.push({ round, target: name, rps, p99ms, rssMb: rss() })
        console.log(`round ${round} | ${name}: ${rps.toFixed(0)} req/s, p99 ${p99ms.toFixed(2)} ms`)
      }
    }
    for (const name of names) await stop(up[name])
  }
} finally {
  for (const server of running) await stopServer(server)
  for (const database of Object.values(databases)) await database.drop()
}
const of = (target) => runs.filter((r) => r.target === target)

console.log(`\nwrk -t1 -c${args.connections}, each framework's three servers in turns: ${args.rounds} rounds of ${args.duration}s slices after ${args.warmup}s warm-up each (median req/s and p99, highest peak RSS); server on core 0, wrk on core 1; node ${process.version}\n`)
console.log("| server | database | req/s | p99 ms | peak RSS MB |\n|---|---|---:|---:|---:|")
for (const target of Object.keys(servers)) {
  const mine = of(target)
  console.log(`| ${target} | ${databases[servers[target].db].label} | ${median(mine.map((r) => r.rps)).toFixed(0)} | ${median(mine.map((r) => r.p99ms)).toFixed(2)} | ${Math.max(...mine.map((r) => r.rssMb)).toFixed(0)} |`)
}
console.log("\n| framework | mounted/bare (median of the rounds) | rounds | target |\n|---|---:|---|---|")
for (const pair of pairs) {
  const bare = of(pair.bare)
  const ratios = of(pair.mounted).map((r, i) => r.rps / bare[i].rps)
  console.log(`| ${pair.framework} | **${median(ratios).toFixed(2)}** | ${ratios.map((r) => r.toFixed(2)).join(", ")} | ≥ 0.5 |`)
}
