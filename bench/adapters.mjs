// Adapter benchmark: Atrium mounted in Express and in Fastify against the bare framework answering
// the same request. `pnpm -s build && node bench/adapters.mjs`. Needs wrk and taskset.
//   node bench/adapters.mjs [--duration 10] [--warmup 3] [--connections 10] [--rounds 3]
// As in run.mjs: each server pinned to core 0 and wrk to core 1, the four servers alternating for
// `rounds` rounds (this kind of machine drifts by tens of percent from minute to minute), medians.
// The request is organizations/documents/get with one documentId on a 1,000-document SQLite file:
// a one-row answer, where Atrium's fixed costs weigh most. Atrium alone on node:http is measured
// beside them, to tell the framework's share from Atrium's. Target: with Atrium mounted, a framework
// keeps at least half of its bare throughput (issue 4, item 7).
import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { cli, median, peakRss, root, startPinned, stopServer as stop, wrk as runWrk } from "./lib.mjs"

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "3" },
    connections: { type: "string", default: "10" },
    rounds: { type: "string", default: "3" }
  }
})
const dir = mkdtempSync(join(tmpdir(), "atrium-bench-adapters-"))
const dbFile = join(dir, "bench.db")
const env = { ...process.env, DATABASE_URL: `sqlite:${dbFile}` }

// --- seed through Atrium's own operations ---------------------------------
const creds = JSON.parse(execFileSync(process.execPath, [cli, "workspace", "create", "--email", "bench@example.com"], { env, encoding: "utf8" }))
const headers = { "content-type": "application/json", "x-service-api-key": creds.apiKey, "x-service-auth-token": creds.authToken }
const request = { path: "/collab/v2/organizations/documents/get", data: { organizationId: "org-bench", documentIds: ["doc-42"] } }

const start = (target) =>
  startPinned(process.execPath, [join(root, "bench/adapter-server.mjs")], { ...env, BENCH_TARGET: target, BENCH_DB: dbFile, BENCH_API_KEY: creds.apiKey }, "/collab/healthz")
const post = async (url, path, data) => {
  const response = await fetch(url + path, { method: "POST", headers, body: JSON.stringify({ data }) })
  const text = await response.text()
  if (response.status !== 200) throw new Error(`${path}: ${text}`)
  return text
}

const seeding = await start("express-atrium")
await post(seeding.url, "/collab/v1/organizations/documents/add", {
  organizationId: "org-bench",
  documents: Array.from({ length: 1000 }, (_, i) => ({ documentId: `doc-${i}`, documentName: `Document ${i}` }))
})
await stop(seeding)

// --- measure ----------------------------------------------------------------
const pairs = [
  { framework: "Express 5", bare: "express-bare", mounted: "express-atrium" },
  { framework: "Fastify 5", bare: "fastify-bare", mounted: "fastify-atrium" }
]
// Atrium alone on node:http too: the part of the mounted servers' cost that is Atrium's own.
const targets = [...pairs.flatMap((pair) => [pair.bare, pair.mounted]), "node-http-atrium"]

const wrk = (url, seconds) =>
  runWrk({ url: url + request.path, data: request.data, creds, seconds, connections: args.connections })

// Every server must give the same answer before it is measured.
let expected
const runs = []
for (let round = 1; round <= Number(args.rounds); round++) {
  for (const target of targets) {
    const server = await start(target)
    const answer = await post(server.url, request.path, request.data)
    expected ??= answer
    if (answer !== expected) throw new Error(`${target} answers ${answer}, not ${expected}`)
    await wrk(server.url, Number(args.warmup))
    const rss = peakRss(server.child.pid)
    const { p99ms, rps } = await wrk(server.url, Number(args.duration))
    const rssMb = rss()
    await stop(server)
    runs.push({ round, target, rps, p99ms, rssMb })
    console.log(`round ${round} | ${target}: ${rps.toFixed(0)} req/s, p99 ${p99ms.toFixed(2)} ms, peak RSS ${rssMb.toFixed(0)} MB`)
  }
}
const of = (target) => runs.filter((r) => r.target === target)

console.log(`\nwrk -t1 -c${args.connections} -d${args.duration}s after ${args.warmup}s warm-up, ${args.rounds} alternating rounds (median req/s and p99, highest peak RSS); server on core 0, wrk on core 1; node ${process.version}\n`)
console.log("| server | req/s | p99 ms | peak RSS MB |\n|---|---:|---:|---:|")
for (const target of targets) {
  const mine = of(target)
  console.log(`| ${target} | ${median(mine.map((r) => r.rps)).toFixed(0)} | ${median(mine.map((r) => r.p99ms)).toFixed(2)} | ${Math.max(...mine.map((r) => r.rssMb)).toFixed(0)} |`)
}
console.log("\n| framework | mounted/bare (median req/s) | per round | target |\n|---|---:|---|---|")
for (const pair of pairs) {
  const bare = of(pair.bare)
  const mounted = of(pair.mounted)
  const perRound = mounted.map((r, i) => (r.rps / bare[i].rps).toFixed(2)).join(", ")
  const ratio = median(mounted.map((r) => r.rps)) / median(bare.map((r) => r.rps))
  console.log(`| ${pair.framework} | **${ratio.toFixed(2)}** | ${perRound} | ≥ 0.5 |`)
}
rmSync(dir, { recursive: true, force: true })
