// Comments benchmark (issue 12): `pnpm -s build && node bench/comments.mjs [--storage sqlite|postgres]`
//   [--duration 10] [--warmup 3] [--connections 10] [--threads 1000] [--rounds 3] [--compare <other cli.js>]
// One document with --threads threads of 5 comments each, seeded through Atrium. Measures
// commentannotations/get of a 50-thread page (with their 250 comments) and comments/add (one
// comment, each request to the next of the threads) on (a) a raw node:http server answering the
// same requests from the same tables (bench/raw-comments-server.mjs) and (b) `atrium serve`,
// alternating a and b for --rounds rounds, as bench/run.mjs does (all the read's rounds first: the
// writes grow the threads), and prints medians and b/a.
// The read's answers must be identical before either is measured; the write's must have the
// same shape (its ids are random). Advanced webhooks are off: no event is recorded.
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
  seedThreads,
  startPinned as start,
  stopServer as stop,
  wrk as runWrk
} from "./lib.mjs"

const { values: args } = parseArgs({
  options: {
    ...RUN_OPTIONS,
    threads: { type: "string", default: "1000" },
    rounds: { type: "string", default: "3" },
    // Another build's `packages/server/dist/cli.js` (a checkout of an earlier commit), measured as (c) in the same rounds.
    compare: { type: "string" }
  }
})
const database = await benchDatabase(args.storage, { pgAdminUrl: args["pg-url"] })
const env = { ...process.env, DATABASE_URL: database.url }
const organizationId = "org-bench"
const documentId = "doc-bench"
const threadCount = Number(args.threads)

try {
  const creds = createWorkspace(env)
  const post = poster(creds)
  const seeding = await start(process.execPath, [cli, "serve"], env)
  const t0 = Date.now()
  await seedThreads((path, data) => post(seeding.url, path, data), { organizationId, documentId, threadCount })
  await stop(seeding)
  console.log(`seeded ${threadCount} threads of 5 comments in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
  await database.analyze()

  const requests = [
    {
      name: `commentannotations/get (page of 50 of ${threadCount} threads)`,
      path: "/v2/commentannotations/get",
      data: { organizationId, documentId, pageSize: 50 },
      same: comparable
    },
    {
      name: "comments/add (1 comment)",
      path: "/v2/commentannotations/comments/add",
      data: { organizationId, documentId, annotationId: "thread-%N%", commentData: [{ commentText: "Agreed, let's ship it.", from: { userId: "user-1", name: "User 1" } }] },
      rotate: threadCount,
      // Random ids: the same message and one id.
      same: (body) => JSON.stringify({ message: body.result.message, ids: body.result.data.length })
    }
  ]
  const raw = args.storage === "sqlite"
    ? { BENCH_DB: database.file }
    : { BENCH_PG_URL: database.url }
  const targets = [
    { name: `raw node:http + ${args.storage === "sqlite" ? "better-sqlite3" : "pg"}`, args: [join(root, "bench/raw-comments-server.mjs")], env: { ...raw, BENCH_API_KEY: creds.apiKey } },
    { name: `atrium serve (${args.storage === "sqlite" ? "SQLite" : "PostgreSQL"})`, args: [cli, "serve"], env: {} },
    ...(args.compare ? [{ name: `atrium serve, ${args.compare}`, args: [args.compare, "serve"], env: {} }] : [])
  ]

  const runs = []
  // Every read round before the writes: each write round adds thousands of comments to the threads.
  for (const request of requests) {
    for (let round = 1; round <= Number(args.rounds); round++) {
      for (const target of targets) {
        const server = await start(process.execPath, target.args, { ...env, ...target.env })
        try {
          const sampleData = JSON.parse(JSON.stringify(request.data).replaceAll("%N%", "0"))
          const sample = request.same(await post(server.url, request.path, sampleData))
          request.expected ??= sample
          if (sample !== request.expected) {
            throw new Error(`${target.name} answers ${request.name} with ${sample.slice(0, 500)}, not ${request.expected.slice(0, 500)}`)
          }
          const wrk = (seconds) => runWrk({ url: server.url + request.path, data: request.data, rotate: request.rotate, creds, seconds, connections: args.connections })
          await wrk(Number(args.warmup))
          const rss = peakRss(server.child.pid)
          const { p99ms, rps } = await wrk(Number(args.duration))
          runs.push({ request: request.name, target: target.name, rps, p99ms, rssMb: rss() })
        } finally {
          await stop(server)
        }
        const run = runs.at(-1)
        console.log(`round ${round} | ${request.name} | ${target.name}: ${run.rps.toFixed(0)} req/s, p99 ${run.p99ms.toFixed(2)} ms, peak RSS ${run.rssMb.toFixed(0)} MB`)
      }
    }
  }

  console.log(`\n${database.storage}; wrk -t1 -c${args.connections} -d${args.duration}s after ${args.warmup}s warm-up, ${args.rounds} alternating rounds (median req/s and p99, highest peak RSS); server on core 0, wrk on core 1; node ${process.version}\n`)
  console.log("| request | server | req/s | p99 ms | peak RSS MB |")
  console.log("|---|---|---:|---:|---:|")
  for (const request of requests) {
    for (const target of targets) {
      const mine = runs.filter((r) => r.request === request.name && r.target === target.name)
      console.log(`| ${request.name} | ${target.name} | ${median(mine.map((r) => r.rps)).toFixed(0)} | ${median(mine.map((r) => r.p99ms)).toFixed(2)} | ${Math.max(...mine.map((r) => r.rssMb)).toFixed(0)} |`)
    }
  }
  console.log("\n| request | server | ratio to raw (median req/s) | per round |\n|---|---|---:|---|")
  for (const request of requests) {
    const [aRuns, ...others] = targets.map((target) => runs.filter((r) => r.request === request.name && r.target === target.name))
    for (const [i, bRuns] of others.entries()) {
      const ratio = median(bRuns.map((r) => r.rps)) / median(aRuns.map((r) => r.rps))
      console.log(`| ${request.name} | ${targets[i + 1].name} | ${ratio.toFixed(2)} | ${bRuns.map((r, k) => (r.rps / aRuns[k].rps).toFixed(2)).join(", ")} |`)
    }
  }
} finally {
  await database.drop()
}
