// Request-path benchmark: `pnpm bench` (builds first). Needs wrk and taskset.
//   node bench/run.mjs [--storage sqlite|postgres] [--duration 10] [--warmup 3] [--connections 10] [--activities 100000] [--rounds 3] [--compare <other cli.js>]
// Each server is pinned to core 0 and wrk to core 1: on two cores, unpinned runs came out 10 to 30 % lower.
// For each request it measures req/s, p99 and peak RSS of (a) a raw node:http server on the same
// database (better-sqlite3, or pg on PostgreSQL) and (b) `atrium serve` on it, alternating a and b
// for `rounds` rounds (this kind of machine drifts by tens of percent from minute to minute), and
// prints the medians and b/a. Both servers must give the same answer before either is measured.
// --storage postgres: a new database on --pg-url's server (dropped at the end), ANALYZEd once
// seeded; PostgreSQL itself is not pinned, it shares both cores with the server and wrk.
import { join } from "node:path"
import { parseArgs } from "node:util"
import {
  benchDatabase,
  cli,
  comparable,
  createWorkspace,
  median,
  peakRss,
  RUN_OPTIONS,
  poster,
  root,
  startPinned as start,
  stopServer as stop,
  wrk as runWrk
} from "./lib.mjs"

const { values: args } = parseArgs({
  options: {
    ...RUN_OPTIONS,
    activities: { type: "string", default: "100000" },
    rounds: { type: "string", default: "3" },
    // Another build's `packages/server/dist/cli.js` (a checkout of an earlier commit), measured as (c) in the same rounds.
    compare: { type: "string" }
  }
})
const database = await benchDatabase(args.storage, { pgAdminUrl: args["pg-url"] })
const env = { ...process.env, DATABASE_URL: database.url }

// The PostgreSQL database is dropped whatever happens; a SQLite file goes with its folder.
try {
  // --- seed through Atrium's own operations ---------------------------------
  const creds = createWorkspace(env)
  const post = poster(creds)

  const seeding = await start(process.execPath, [cli, "serve"], env)
  // In calls of 100, the most documents/add and activities/add take (docs/protocol.md, "Limits").
  for (let from = 0; from < 1000; from += 100) {
    await post(seeding.url, "/v1/organizations/documents/add", {
      organizationId: "org-bench",
      documents: Array.from({ length: 100 }, (_, i) => ({ documentId: `doc-${from + i}`, documentName: `Document ${from + i}` }))
    })
  }
  const total = Number(args.activities)
  const batch = 100
  const t0 = Date.now()
  for (let done = 0; done < total; done += batch) {
    await post(seeding.url, "/v2/activities/add", {
      organizationId: "org-bench",
      documentId: `doc-${Math.floor(done / 1000) % 1000}`,
      activities: Array.from({ length: Math.min(batch, total - done) }, (_, i) => ({
        featureType: "comment",
        actionType: "comment.add",
        actionUser: { userId: `user-${(done + i) % 97}`, name: "Bench User", email: "bench@example.com" },
        targetEntityId: `annotation-${done + i}`,
        displayMessageTemplate: "{{user}} commented",
        displayMessageTemplateData: { user: { userId: `user-${(done + i) % 97}`, name: "Bench User" } },
        timestamp: 1_700_000_000_000 + done + i
      }))
    })
  }
  await stop(seeding)
  console.log(`seeded 1000 documents and ${total} activities in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
  await database.analyze()

  // --- measure ----------------------------------------------------------------
  const requests = [
    { name: "organizations/documents/get (1 documentId)", path: "/v2/organizations/documents/get", data: { organizationId: "org-bench", documentIds: ["doc-42"] } },
    { name: `activities/get (page of 50 of ${total / 1000}k)`, path: "/v2/activities/get", data: { organizationId: "org-bench", pageSize: 50 } }
  ]
  const targets = args.storage === "sqlite"
    ? [
      { name: "raw node:http + better-sqlite3", command: process.execPath, args: [join(root, "bench/raw-server.mjs")], env: { BENCH_DB: database.file, BENCH_API_KEY: creds.apiKey } },
      { name: "atrium serve (SQLite)", command: process.execPath, args: [cli, "serve"], env: {} },
      ...(args.compare ? [{ name: `atrium serve, ${args.compare}`, command: process.execPath, args: [args.compare, "serve"], env: {} }] : [])
    ]
    : [
      { name: "raw node:http + pg", command: process.execPath, args: [join(root, "bench/raw-server-pg.mjs")], env: { BENCH_PG_URL: database.url, BENCH_API_KEY: creds.apiKey } },
      { name: "atrium serve (PostgreSQL)", command: process.execPath, args: [cli, "serve"], env: {} },
      ...(args.compare ? [{ name: `atrium serve, ${args.compare}`, command: process.execPath, args: [args.compare, "serve"], env: {} }] : [])
    ]

  const wrk = (url, request, seconds) =>
    runWrk({ url: url + request.path, data: request.data, creds, seconds, connections: args.connections })

  const runs = []
  for (let round = 1; round <= Number(args.rounds); round++) {
    for (const request of requests) {
      for (const target of targets) {
        const server = await start(target.command, target.args, { ...env, ...target.env })
        const sample = await post(server.url, request.path, request.data)
        request.expected ??= comparable(sample)
        if (comparable(sample) !== request.expected) {
          await stop(server)
          throw new Error(`${target.name} answers ${request.name} with ${comparable(sample)}, not ${request.expected}`)
        }
        await wrk(server.url, request, Number(args.warmup))
        const rss = peakRss(server.child.pid)
        const { p99ms, rps } = await wrk(server.url, request, Number(args.duration))
        const rssMb = rss()
        await stop(server)
        runs.push({ request: request.name, target: target.name, rps, p99ms, rssMb, items: Array.isArray(sample.result.data) ? sample.result.data.length : 0 })
        console.log(`round ${round} | ${request.name} | ${target.name}: ${rps.toFixed(0)} req/s, p99 ${p99ms.toFixed(2)} ms, peak RSS ${rssMb.toFixed(0)} MB`)
      }
    }
  }
  const results = requests.flatMap((request) =>
    targets.map((target) => {
      const mine = runs.filter((r) => r.request === request.name && r.target === target.name)
      return {
        request: request.name,
        target: target.name,
        rps: median(mine.map((r) => r.rps)),
        p99ms: median(mine.map((r) => r.p99ms)),
        rssMb: Math.max(...mine.map((r) => r.rssMb)),
        items: mine[0].items
      }
    })
  )

  console.log(`\n${database.storage}; wrk -t1 -c${args.connections} -d${args.duration}s after ${args.warmup}s warm-up, ${args.rounds} alternating rounds (median req/s and p99, highest peak RSS); server on core 0, wrk on core 1; node ${process.version}\n`)
  console.log("| request | server | req/s | p99 ms | peak RSS MB | items |")
  console.log("|---|---|---:|---:|---:|---:|")
  for (const r of results) console.log(`| ${r.request} | ${r.target} | ${r.rps.toFixed(0)} | ${r.p99ms.toFixed(2)} | ${r.rssMb.toFixed(0)} | ${r.items} |`)
  console.log("\n| request | server | ratio to raw (req/s) | per round |\n|---|---|---:|---|")
  for (const request of requests) {
    const [a, ...others] = results.filter((r) => r.request === request.name)
    const [aRuns, ...otherRuns] = targets.map((target) => runs.filter((r) => r.request === request.name && r.target === target.name))
    for (const [i, b] of others.entries()) {
      console.log(`| ${request.name} | ${b.target} | ${(b.rps / a.rps).toFixed(2)} | ${otherRuns[i].map((r, k) => (r.rps / aRuns[k].rps).toFixed(2)).join(", ")} |`)
    }
  }
} finally {
  await database.drop()
}
