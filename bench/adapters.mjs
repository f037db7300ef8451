// Adapter benchmark: Atrium mounted in Express and in Fastify against the bare framework answering
// the same request. `pnpm -s build && node bench/adapters.mjs`. Needs wrk and taskset.
//   node bench/adapters.mjs [--duration 10] [--warmup 3] [--connections 10] [--rounds 3]
// As in run.mjs: each server pinned to core 0 and wrk to core 1, the four servers alternating for
// `rounds` rounds (this kind of machine drifts by tens of percent from minute to minute), medians.
// The request is organizations/documents/get with one documentId on a 1,000-document SQLite file:
// a one-row answer, where Atrium's fixed costs weigh most. Atrium alone on node:http is measured
// beside them, to tell the framework's share from Atrium's. Target: with Atrium mounted, a framework
// keeps at least half of its bare throughput (issue 4, item 7).
import { execFile, execFileSync, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs, promisify } from "node:util"

const { values: args } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "3" },
    connections: { type: "string", default: "10" },
    rounds: { type: "string", default: "3" }
  }
})
const root = new URL("..", import.meta.url).pathname
const cli = join(root, "packages/server/dist/cli.js")
const dir = mkdtempSync(join(tmpdir(), "atrium-bench-adapters-"))
const dbFile = join(dir, "bench.db")
const env = { ...process.env, DATABASE_URL: `sqlite:${dbFile}` }
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

// --- seed through Atrium's own operations ---------------------------------
const creds = JSON.parse(execFileSync(process.execPath, [cli, "workspace", "create", "--email", "bench@example.com"], { env, encoding: "utf8" }))
const headers = { "content-type": "application/json", "x-service-api-key": creds.apiKey, "x-service-auth-token": creds.authToken }
const request = { path: "/collab/v2/organizations/documents/get", data: { organizationId: "org-bench", documentIds: ["doc-42"] } }

const start = async (target) => {
  const port = 20000 + Math.floor(Math.random() * 20000)
  const child = spawn("taskset", ["-c", "0", process.execPath, join(root, "bench/adapter-server.mjs")], {
    env: { ...env, PORT: String(port), BENCH_TARGET: target, BENCH_DB: dbFile, BENCH_API_KEY: creds.apiKey },
    stdio: ["ignore", "pipe", "inherit"]
  })
  child.stdout.resume()
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(url + "/collab/healthz")
      return { child, url }
    } catch {
      await sleep(100)
    }
  }
  throw new Error(`${target} did not start`)
}
const stop = async ({ child }) => {
  const exited = new Promise((resolve) => child.once("exit", resolve))
  child.kill("SIGTERM")
  await exited
}
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

const peakRss = (pid) => {
  let peak = 0
  const timer = setInterval(() => {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1])
      peak = Math.max(peak, kb)
    } catch {}
  }, 50)
  return () => (clearInterval(timer), peak / 1024)
}

// Asynchronous, so the RSS sampler keeps running while wrk does.
const wrk = async (url, seconds) => {
  const { stdout: out } = await promisify(execFile)("taskset", ["-c", "1", "wrk", "-t1", `-c${args.connections}`, `-d${seconds}s`, "--latency", "-s", join(root, "bench/post.lua"), url + request.path], {
    encoding: "utf8",
    env: { ...process.env, BENCH_BODY: JSON.stringify({ data: request.data }), BENCH_API_KEY: creds.apiKey, BENCH_AUTH_TOKEN: creds.authToken }
  })
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1])
  const p99 = /99%\s+([\d.]+)(us|ms|s)/.exec(out)
  const p99ms = Number(p99[1]) * (p99[2] === "us" ? 0.001 : p99[2] === "s" ? 1000 : 1)
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out)
  if (non2xx) throw new Error(`${non2xx[1]} non-2xx answers:\n${out}`)
  return { rps, p99ms }
}

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
const median = (values) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]
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
