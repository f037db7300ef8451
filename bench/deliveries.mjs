// Webhook delivery benchmark (docs/benchmarks.md, "Webhook delivery"). Builds nothing: `pnpm -s build` first.
//   node bench/deliveries.mjs [--storage sqlite|postgres] [--messages 10000] [--endpoints 10] [--workers 1]
//   node bench/deliveries.mjs --rate-limit [--storage sqlite]      (one endpoint, rateLimit 50, 30 s)
// Drain: `messages` events are recorded in-process (each with a pending delivery to every
// endpoint), then `workers` × `atrium worker` start (worker i pinned to core i) and deliver them
// to receivers on loopback (another process); deliveries per second from all workers running
// to the last delivery, peak RSS of the workers, duplicates (must be 0). Baseline: a bare
// script pinned to core 0 that signs and POSTs the same number of requests to the same
// receivers with keep-alive, 32 at a time, no storage. Latency: `atrium serve` (its worker is
// woken by each commit) takes messages/create at a steady 100 per second for 10 s; the receivers
// measure each delivery's arrival from the event's timestamp (set just before its commit).
import { WebhookConfigs, WebhookEndpoints, WebhookMessages, createAtrium } from "@atrium/core"
import { PgStorage } from "@atrium/sql-pg"
import { SqliteStorage } from "@atrium/sql-sqlite"
import { execFile, spawn } from "node:child_process"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { parseArgs, promisify } from "node:util"
import { benchDatabase, cli, createWorkspace, peakRss, percentile, poster, root, sleep, startPinned, stopServer } from "./lib.mjs"

const { values: args } = parseArgs({
  options: {
    storage: { type: "string", default: "sqlite" },
    messages: { type: "string", default: "10000" },
    endpoints: { type: "string", default: "10" },
    workers: { type: "string", default: "1" },
    "rate-limit": { type: "boolean", default: false }
  }
})
const KEY = "bench_key"

/** The receivers' process: its URLs, and a way to ask it for what arrived. */
const startReceivers = async (count) => {
  const child = spawn(process.execPath, [join(root, "bench/receivers.mjs"), String(count)], { stdio: ["pipe", "pipe", "inherit"] })
  const lines = createInterface({ input: child.stdout })
  const waiting = []
  lines.on("line", (line) => waiting.shift()?.(JSON.parse(line)))
  const next = () => new Promise((resolve) => waiting.push(resolve))
  const { urls } = await next()
  const ask = (command) => {
    const answer = next()
    child.stdin.write(command + "\n")
    return answer
  }
  return { urls, stats: () => ask("stats"), reset: () => ask("reset"), stop: () => child.kill() }
}

/** Records `messages` events for KEY with every endpoint at `urls` (nothing delivers them yet). */
const seed = async (database, urls, messages, endpoint = {}) => {
  const storage = database.storage === "sqlite" ? SqliteStorage.layer({ filename: database.file }) : PgStorage.layer({ url: database.url })
  const atrium = createAtrium({ storage, options: { allowPrivateNetworks: true } })
  try {
    await atrium.ready()
    await atrium.runtime.runPromise(WebhookConfigs.update(KEY, { isEnabled: true }))
    for (const url of urls) await atrium.runtime.runPromise(WebhookEndpoints.create(KEY, { url, ...endpoint }))
    const started = performance.now()
    for (let n = 0; n < messages; n++) {
      await atrium.runtime.runPromise(WebhookMessages.publish(KEY, { eventType: "bench.event", payload: { n, text: "x".repeat(200) } }))
    }
    return (performance.now() - started) / 1000
  } finally {
    await atrium.dispose()
  }
}

const workerEnv = (database, extra = {}) => ({ ...process.env, DATABASE_URL: database.url, ATRIUM_ALLOW_PRIVATE_NETWORKS: "1", ...extra })

/** BENCH_WORKER_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") go to the workers' node only. */
const workerNodeArgs = (process.env.BENCH_WORKER_NODE_ARGS ?? "").split(" ").filter(Boolean)

/** `atrium worker` pinned to `core`; resolves once it runs. */
const startWorker = (database, core, extra) =>
  new Promise((resolve, reject) => {
    const child = spawn("taskset", ["-c", String(core), process.execPath, ...workerNodeArgs, cli, "worker"], { env: workerEnv(database, extra), stdio: ["ignore", "pipe", "inherit"] })
    child.once("exit", (code) => reject(new Error(`worker exited with ${code}`)))
    child.stdout.on("data", (chunk) => {
      if (String(chunk).includes("worker running")) resolve(child)
    })
  })

const waitForDeliveries = async (receivers, total, timeoutSeconds = 600) => {
  const deadline = Date.now() + timeoutSeconds * 1000
  for (;;) {
    const stats = await receivers.stats()
    if (stats.deliveries >= total) return stats
    if (Date.now() > deadline) throw new Error(`only ${stats.deliveries} of ${total} deliveries in ${timeoutSeconds} s`)
    await sleep(50)
  }
}

const drain = async (receivers, messages, endpoints, workers) => {
  const database = await benchDatabase(args.storage)
  try {
    const seconds = await seed(database, receivers.urls.slice(0, endpoints), messages)
    console.log(`seeded ${messages} messages × ${endpoints} endpoints in ${seconds.toFixed(1)} s`)
    await receivers.reset()
    const children = await Promise.all(Array.from({ length: workers }, (_, i) => startWorker(database, i % 2)))
    // From the moment every worker runs (start-up, about half a second, is not delivery); what
    // arrived before then is subtracted.
    const started = performance.now()
    const early = (await receivers.stats()).deliveries
    const rss = children.map((child) => peakRss(child.pid))
    const stats = await waitForDeliveries(receivers, messages * endpoints)
    const elapsed = (performance.now() - started) / 1000
    const peaks = rss.map((stop) => stop())
    for (const child of children) {
      const exited = new Promise((resolve) => child.once("exit", resolve))
      child.kill("SIGTERM")
      await exited
    }
    return { perSecond: (messages * endpoints - early) / elapsed, elapsed, peakRssMb: Math.max(...peaks), duplicates: stats.duplicates, received: stats.received }
  } finally {
    await database.drop()
  }
}

const baseline = async (receivers, total) => {
  await receivers.reset()
  const { stdout } = await promisify(execFile)("taskset", ["-c", "0", process.execPath, join(root, "bench/baseline-deliveries.mjs"), JSON.stringify(receivers.urls), String(total), "32"], { encoding: "utf8" })
  return JSON.parse(stdout)
}

const latency = async (receivers, endpoints) => {
  const database = await benchDatabase(args.storage)
  try {
    const env = { ...process.env, DATABASE_URL: database.url, ATRIUM_ALLOW_PRIVATE_NETWORKS: "1" }
    const creds = createWorkspace(env)
    const post = poster(creds)
    const server = await startPinned(process.execPath, [cli, "serve"], env)
    try {
      const headers = { "x-service-api-key": creds.apiKey, "x-service-auth-token": creds.authToken }
      void headers
      await post(server.url, "/v2/workspace/advancedwebhookconfig/update", { isEnabled: true })
      for (const url of receivers.urls.slice(0, endpoints)) await post(server.url, "/v2/workspace/advancedwebhook/endpoints/create", { url })
      await receivers.reset()
      const rate = 100
      const seconds = 10
      const started = Date.now()
      for (let n = 0; n < rate * seconds; n++) {
        const due = started + (n * 1000) / rate
        if (due > Date.now()) await sleep(due - Date.now())
        void post(server.url, "/v2/workspace/advancedwebhook/messages/create", { eventType: "bench.event", payload: { n } })
      }
      const stats = await waitForDeliveries(receivers, rate * seconds * endpoints, 60)
      return { p50: percentile(stats.latencies, 50), p99: percentile(stats.latencies, 99), max: Math.max(...stats.latencies), rate, seconds }
    } finally {
      await stopServer(server)
    }
  } finally {
    await database.drop()
  }
}

const rateLimited = async (receivers) => {
  const database = await benchDatabase(args.storage)
  try {
    await seed(database, receivers.urls.slice(0, 1), 2500, { rateLimit: 50 })
    await receivers.reset()
    const worker = await startWorker(database, 0)
    await sleep(32_000)
    worker.kill("SIGTERM")
    const { perSecond } = await receivers.stats()
    // Whole seconds only: drop the first and last, which the window cuts.
    const counts = perSecond.sort(([a], [b]) => a - b).slice(1, -1).map(([, n]) => n)
    return { seconds: counts.length, mean: counts.reduce((a, b) => a + b, 0) / counts.length, min: Math.min(...counts), max: Math.max(...counts) }
  } finally {
    await database.drop()
  }
}

const receivers = await startReceivers(Number(args.endpoints))
try {
  if (args["rate-limit"]) {
    console.log(JSON.stringify({ storage: args.storage, rateLimit: 50, ...(await rateLimited(receivers)) }))
  } else {
    const messages = Number(args.messages)
    const endpoints = Number(args.endpoints)
    const workers = Number(args.workers)
    const bare = await baseline(receivers, messages * endpoints)
    console.log(`baseline: ${Math.round(bare.perSecond)} deliveries/s (${bare.seconds.toFixed(1)} s)`)
    const atrium = await drain(receivers, messages, endpoints, workers)
    console.log(`atrium ${args.storage}, ${workers} worker(s): ${Math.round(atrium.perSecond)} deliveries/s (${atrium.elapsed.toFixed(1)} s), peak RSS ${atrium.peakRssMb.toFixed(0)} MB, duplicates ${atrium.duplicates}, ratio ${(atrium.perSecond / bare.perSecond).toFixed(2)}`)
    const steady = await latency(receivers, endpoints)
    console.log(`latency at ${steady.rate} messages/s × ${endpoints} endpoints through atrium serve: p50 ${steady.p50} ms, p99 ${steady.p99} ms, max ${steady.max} ms`)
  }
} finally {
  receivers.stop()
}
