// Realtime fan-out (issue 25): `pnpm -s build && node bench/realtime.mjs`
//   [--scenarios fanout,cross,idle,presence] [--sockets 1000] [--rate 10] [--duration 30] [--warmup 3]
//   [--ramp 20,40,80,160,320,640] [--step 5] [--cross-sockets 500] [--idle 10000] [--client-processes 2]
//   [--sources 4] [--pg-url postgres://postgres@127.0.0.1:5432/postgres]
//   [--presence-users 200] [--presence-hz 20] [--presence-seconds 10]
// Every server runs in its own process pinned to core 0 (in "cross", server B on core 1); the
// sockets run in --client-processes processes of their own (bench/realtime-clients.mjs) and the
// writer in this one, both on core 1. Scenarios, each beside its baseline in the same run:
// - fanout: --sockets sockets subscribed to one document on `atrium serve` (SQLite), a writer adding
//   --rate comments a second for --duration s through the server API (commentannotations/add, one
//   new thread each), then a ramp of write rates (--ramp, --step s each) until the server no longer
//   delivers every message at 90 % of the rate offered. Baseline: a bare `ws` server (bench/raw-broadcast-server.mjs)
//   broadcasting Atrium's own event message (same size, a new timestamp) to the same sockets at
//   the same rates. Latency is receipt − the event's `timestamp` (Atrium: the commit time).
// - cross: two `atrium serve` on one new PostgreSQL database, --cross-sockets on each, the writer on
//   A: p99 on B (across servers) against p99 on A (same server).
// - idle: --idle subscribed sockets on one `atrium serve` (SQLite), and on the bare server: RSS and
//   heap (after GC, bench/memory-probe.mjs) before and after, per connection.
// - presence: --presence-users users on one document (atrium serve, SQLite), each page sending its
//   cursor as a presence frame --presence-hz times a second for --presence-seconds s; every other
//   user's page receives it. Latency is receipt − the send time the cursor carries. Baseline: the
//   bare `ws` server relaying each frame to the document's other sockets at once (no coalescing,
//   no storage). Atrium passes a user's cursor on at most every 50 ms (20 Hz) and writes it at most
//   once a second.
import { execFileSync, fork } from "node:child_process"
import { existsSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { benchDatabase, cli, createWorkspace, percentile, PG_ADMIN_URL, poster, root, sleep, startPinned, stopServer } from "./lib.mjs"

const { values: args } = parseArgs({
  options: {
    scenarios: { type: "string", default: "fanout,cross,idle,presence" },
    sockets: { type: "string", default: "1000" },
    rate: { type: "string", default: "10" },
    duration: { type: "string", default: "30" },
    warmup: { type: "string", default: "3" },
    ramp: { type: "string", default: "20,40,80,160,320,640" },
    step: { type: "string", default: "5" },
    "cross-sockets": { type: "string", default: "500" },
    idle: { type: "string", default: "10000" },
    "client-processes": { type: "string", default: "2" },
    sources: { type: "string", default: "4" },
    "pg-url": { type: "string", default: PG_ADMIN_URL },
    "presence-users": { type: "string", default: "200" },
    "presence-hz": { type: "string", default: "20" },
    "presence-seconds": { type: "string", default: "10" }
  }
})
const scenarios = args.scenarios.split(",")
const where = { organizationId: "org-bench", documentId: "doc-bench" }
const P99_TARGET_MS = 100
const localAddresses = Array.from({ length: Number(args.sources) }, (_, i) => `127.0.0.${i + 1}`)
const probe = join(root, "bench/memory-probe.mjs")
const pin = (pid, core) => execFileSync("taskset", ["-pc", String(core), String(pid)], { stdio: "ignore" })
pin(process.pid, 1) // the writer and the sockets on core 1, the server on core 0

// --- pieces ---------------------------------------------------------------------------------

/** Server CPU time so far, in ms (utime + stime of /proc/<pid>/stat, in clock ticks of 10 ms). */
const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** A server's memory after GC, through bench/memory-probe.mjs (the server runs with it). */
const memoryOf = async (server, file) => {
  rmSync(file, { force: true })
  process.kill(server.child.pid, "SIGUSR2")
  for (let i = 0; i < 200 && !existsSync(file); i++) await sleep(50)
  const usage = JSON.parse(readFileSync(file, "utf8"))
  return { rss: usage.rss, heapUsed: usage.heapUsed, external: usage.external + usage.arrayBuffers }
}

/** A process of sockets (bench/realtime-clients.mjs) on core 1; `call(cmd, args)` answers its result. */
const clientProcess = () => {
  const child = fork(join(root, "bench/realtime-clients.mjs"), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] })
  pin(child.pid, 1)
  let ids = 0
  const waiting = new Map()
  child.on("message", ({ id, ok, error }) => {
    const [resolve, reject] = waiting.get(id)
    waiting.delete(id)
    error === undefined ? resolve(ok) : reject(new Error(error))
  })
  const call = (cmd, more = {}) =>
    new Promise((resolve, reject) => {
      const id = ++ids
      waiting.set(id, [resolve, reject])
      child.send({ id, cmd, ...more })
    })
  return { child, call, close: () => call("close").catch(() => {}) }
}

/** `count` sockets on `url`, spread over `processes` processes, each subscribed to the document. */
const openSockets = async (url, tokens, processes) => {
  const groups = Array.from({ length: processes }, (_, p) => tokens.filter((_, i) => i % processes === p))
  const clients = groups.map(() => clientProcess())
  const socketUrl = `${url.replace(/^http/, "ws")}/v2/client/realtime`
  const opened = await Promise.all(clients.map((c, p) => c.call("open", { url: socketUrl, tokens: groups[p], where, localAddresses })))
  const failed = opened.reduce((n, o) => n + o.failed, 0)
  if (failed > 0) throw new Error(`${failed} of ${tokens.length} sockets failed to open; first: ${opened.find((o) => o.failed > 0).firstFailure}`)
  return { clients, ms: Math.max(...opened.map((o) => o.ms)), close: () => Promise.all(clients.map((c) => c.close())) }
}

/** The organization and the document, with a first thread. */
const createDocument = (url, creds) =>
  poster(creds)(url, "/v2/commentannotations/add", {
    ...where,
    createOrganization: true,
    createDocument: true,
    commentAnnotations: [{ annotationId: "first", commentData: [{ commentText: "first", from: { userId: "writer", name: "Writer", email: "writer@example.com" } }] }]
  })

/** Tokens for `count` users, each a viewer of the document (distinct users, as pages would be). */
const tokensFor = async (url, creds, count, prefix) => {
  const post = poster(creds)
  const tokens = new Array(count)
  let next = 0
  await Promise.all(Array.from({ length: 20 }, async () => {
    while (next < count) {
      const i = next++
      const answer = await post(url, "/v2/auth/generate_token", {
        userId: `${prefix}-${i}`,
        userProperties: { name: `User ${i}`, email: `${prefix}-${i}@example.com` },
        permissions: { resources: [{ type: "document", id: where.documentId, organizationId: where.organizationId, accessRole: "viewer" }] }
      })
      tokens[i] = answer.result.data.token
    }
  }))
  return tokens
}

/** One comment in a new thread, through the server API; its id carries the writer's send time. */
const atriumWrite = (url, creds) => {
  const headers = { "content-type": "application/json", "x-service-api-key": creds.apiKey, "x-service-auth-token": creds.authToken }
  return (n) =>
    fetch(url + "/v2/commentannotations/add", {
      method: "POST",
      headers,
      body: JSON.stringify({
        data: {
          ...where,
          commentAnnotations: [{
            annotationId: `w-${Date.now()}-${n}`,
            location: { id: "section-1" },
            commentData: [{ commentText: `Comment ${n}: a sentence or two of review text, as people write them.`, from: { userId: "writer", name: "Writer", email: "writer@example.com" } }]
          }]
        }
      })
    })
}

/** The baseline's writer: Atrium's event message (`template`), its annotation id renewed, to /broadcast. */
const broadcastWrite = (url, template) => (n) =>
  fetch(url + "/broadcast", { method: "POST", body: template.replace(/"annotationId":"w-\d+-\d+"/, `"annotationId":"w-${Date.now()}-${n}"`) })

/**
 * Writes at `rate` a second for `seconds`, open loop (each on its schedule, not after the previous
 * answer), then waits until the sockets have received everything (or stopped receiving for 2 s).
 * Answers the deliveries' latencies and the rate they arrived at, and the writes' own times.
 */
const phase = async ({ clients, write, rate, seconds, sockets, server }) => {
  await Promise.all(clients.map((c) => c.call("reset")))
  const total = Math.round(rate * seconds)
  const requestMs = []
  let failed = 0
  let firstFailure
  const cpu0 = cpuMs(server.child.pid)
  const t0 = Date.now()
  const writes = []
  for (let n = 0; n < total; n++) {
    const due = t0 + (n * 1000) / rate
    if (due > Date.now()) await sleep(due - Date.now())
    const sent = performance.now()
    writes.push(write(n).then(async (response) => {
      requestMs.push(performance.now() - sent)
      if (response.status !== 200) {
        failed++
        firstFailure ??= `${response.status} ${await response.text()}`
      } else await response.arrayBuffer()
    }, (error) => {
      failed++
      firstFailure ??= String(error)
    }))
  }
  await Promise.all(writes)
  const writing = Date.now() - t0
  const expected = (total - failed) * sockets
  let last = -1
  for (let quiet = 0; quiet < 2000;) {
    const counts = await Promise.all(clients.map((c) => c.call("count")))
    const received = counts.reduce((n, c) => n + c.received, 0)
    if (received >= expected) break
    quiet = received === last ? quiet + 100 : 0
    last = received
    await sleep(100)
  }
  const cpu = cpuMs(server.child.pid) - cpu0
  const reports = await Promise.all(clients.map((c) => c.call("report")))
  const latencies = reports.flatMap((r) => r.latencies)
  const fromWriter = reports.flatMap((r) => r.fromWriter)
  const received = latencies.length
  const lastAt = Math.max(...reports.map((r) => r.lastAt))
  return {
    rate,
    writes: total,
    failed,
    firstFailure,
    expected,
    received,
    writingMs: writing,
    // Delivered per second from the first write to the last receipt.
    deliveredPerSecond: received / (Math.max(lastAt - t0, writing) / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: maxOf(latencies),
    writerP99: percentile(fromWriter, 99),
    requestP50: percentile(requestMs, 50),
    requestP99: percentile(requestMs, 99),
    cpuPercent: (100 * cpu) / Math.max(lastAt - t0, writing),
    cpuMicrosPerMessage: (1000 * cpu) / Math.max(1, received),
    sample: reports.find((r) => r.sample)?.sample,
    perProcess: reports.map((r) => r.latencies)
  }
}

/** The largest value (Math.max(...values) overflows the stack at 100,000s). */
const maxOf = (values) => values.reduce((m, v) => (v > m ? v : m), -Infinity)
const fmt = (n, digits = 0) => (n === undefined || Number.isNaN(n) ? "–" : n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits }))
const phaseLine = (name, p) =>
  `| ${name} | ${fmt(p.rate)} | ${fmt(p.received)} / ${fmt(p.expected)} | ${fmt(p.deliveredPerSecond)} | ${p.p50} / ${p.p99} / ${p.max} | ${p.writerP99} | ${fmt(p.requestP50, 1)} / ${fmt(p.requestP99, 1)} | ${fmt(p.cpuPercent)} % | ${fmt(p.cpuMicrosPerMessage, 1)} |`
const PHASE_HEADER = "| server | writes/s | messages received / expected | delivered/s | latency p50 / p99 / max ms | from writer's send p99 ms | write request p50 / p99 ms | server CPU | server CPU µs/message |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|"
const complete = (p) => p.failed === 0 && p.received >= p.expected
const healthy = (p) => complete(p) && p.p99 <= P99_TARGET_MS
/** Keeping up: every message arrived, at no less than 90 % of the rate offered. */
const keepsUp = (p, sockets) => complete(p) && p.deliveredPerSecond >= 0.9 * p.rate * sockets

/** The steady phase, then the ramp until the server no longer keeps up (p99 aside: the saturation figure reads it). */
const measureFanout = async (name, server, write, sockets, clients) => {
  await phase({ clients, write, rate: Number(args.rate), seconds: Number(args.warmup), sockets, server })
  const steady = await phase({ clients, write, rate: Number(args.rate), seconds: Number(args.duration), sockets, server })
  console.log(phaseLine(name, steady))
  const ramp = []
  for (const rate of args.ramp.split(",").filter(Boolean).map(Number)) {
    const step = await phase({ clients, write, rate, seconds: Number(args.step), sockets, server })
    ramp.push(step)
    console.log(phaseLine(`${name}, ramp`, step))
    if (!keepsUp(step, sockets)) break
  }
  return { steady, ramp }
}

// BENCH_SERVER_NODE_ARGS: node flags for every Atrium server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
const serverNodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? []
/** A server script in its own process on `core`, with the memory probe; Atrium's is `atrium serve`. */
const nodeServer = (script, env, core = 0) =>
  startPinned(process.execPath, ["--expose-gc", "--import", probe, ...(script === cli ? [...serverNodeArgs, script, "serve"] : [script])], env, "/healthz", core)

// --- scenarios ------------------------------------------------------------------------------

const results = {}

if (scenarios.includes("fanout")) {
  const sockets = Number(args.sockets)
  console.log(`\n## fanout: ${sockets} sockets, one document, ${args.rate} writes/s for ${args.duration} s, then the ramp ${args.ramp} (${args.step} s each)\n`)
  const database = await benchDatabase("sqlite")
  const env = { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: "warn", BENCH_MEMORY_FILE: join(tmpdir(), `atrium-bench-mem-${process.pid}`) }
  try {
    const creds = createWorkspace(env)
    const atrium = await nodeServer(cli, env)
    try {
      await createDocument(atrium.url, creds)
      const t0 = Date.now()
      const tokens = await tokensFor(atrium.url, creds, sockets, "fan")
      const opened = await openSockets(atrium.url, tokens, Number(args["client-processes"]))
      console.log(`(tokens and sockets: ${((Date.now() - t0) / 1000).toFixed(1)} s, sockets opened and subscribed in ${(opened.ms / 1000).toFixed(1)} s)`)
      try {
        console.log(PHASE_HEADER)
        results.atrium = await measureFanout("atrium serve (SQLite)", atrium, atriumWrite(atrium.url, creds), sockets, opened.clients)
      } finally {
        await opened.close()
      }
    } finally {
      await stopServer(atrium)
    }
    const bare = await nodeServer(join(root, "bench/raw-broadcast-server.mjs"), env)
    try {
      const opened = await openSockets(bare.url, Array.from({ length: sockets }, (_, i) => `t${i}`), Number(args["client-processes"]))
      try {
        results.bare = await measureFanout("bare ws broadcast", bare, broadcastWrite(bare.url, results.atrium.steady.sample), sockets, opened.clients)
      } finally {
        await opened.close()
      }
    } finally {
      await stopServer(bare)
    }
  } finally {
    await database.drop()
  }
  const best = (r) => Math.max(r.steady.deliveredPerSecond, ...r.ramp.map((p) => p.deliveredPerSecond))
  const saturation = (r) => Math.max(0, ...[r.steady, ...r.ramp].filter(healthy).map((p) => p.rate))
  console.log(`\nmessage size: ${Buffer.byteLength(results.atrium.steady.sample)} bytes (Atrium's), ${Buffer.byteLength(results.bare.steady.sample)} (bare)`)
  console.log(`steady ${args.rate} writes/s: Atrium p99 ${results.atrium.steady.p99} ms (target ≤ ${P99_TARGET_MS}), bare ${results.bare.steady.p99} ms`)
  console.log(`highest delivered/s: Atrium ${fmt(best(results.atrium))}, bare ${fmt(best(results.bare))}; ratio ${(best(results.atrium) / best(results.bare)).toFixed(2)} (target ≥ 0.5)`)
  console.log(`highest write rate with p99 ≤ ${P99_TARGET_MS} ms and nothing missing: Atrium ${saturation(results.atrium)}/s, bare ${saturation(results.bare)}/s (of the rates tried)`)
  // The figure the machine's other load moves least: server CPU per message delivered, steady phase.
  const perMessage = (r) => r.steady.cpuMicrosPerMessage
  console.log(`server CPU per message delivered (steady): Atrium ${fmt(perMessage(results.atrium), 1)} µs, bare ${fmt(perMessage(results.bare), 1)} µs; bare/Atrium ${(perMessage(results.bare) / perMessage(results.atrium)).toFixed(2)} (the throughput ratio on a saturated core)`)
}

if (scenarios.includes("cross")) {
  const perServer = Number(args["cross-sockets"])
  console.log(`\n## cross: two atrium serve on one PostgreSQL database, ${perServer} sockets on each, writer on A, ${args.rate} writes/s for ${args.duration} s\n`)
  const database = await benchDatabase("postgres", { pgAdminUrl: args["pg-url"] })
  const env = { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: "warn" }
  try {
    const creds = createWorkspace(env)
    const a = await nodeServer(cli, env, 0)
    const b = await nodeServer(cli, env, 1)
    try {
      await createDocument(a.url, creds)
      const tokens = await tokensFor(a.url, creds, 2 * perServer, "cross")
      const onA = await openSockets(a.url, tokens.slice(0, perServer), 1)
      const onB = await openSockets(b.url, tokens.slice(perServer), 1)
      try {
        const clients = [...onA.clients, ...onB.clients]
        const write = atriumWrite(a.url, creds)
        await phase({ clients, write, rate: Number(args.rate), seconds: Number(args.warmup), sockets: 2 * perServer, server: a })
        const p = await phase({ clients, write, rate: Number(args.rate), seconds: Number(args.duration), sockets: 2 * perServer, server: a })
        const [same, across] = p.perProcess
        results.cross = { p, same, across }
        console.log(`messages received ${p.received} of ${p.expected}; write request p50 / p99 ${fmt(p.requestP50, 1)} / ${fmt(p.requestP99, 1)} ms\n`)
        console.log("| sockets | received | latency p50 / p99 / max ms |\n|---|---:|---:|")
        console.log(`| on A (same server as the writer) | ${same.length} | ${percentile(same, 50)} / ${percentile(same, 99)} / ${maxOf(same)} |`)
        console.log(`| on B (across servers, through LISTEN/NOTIFY) | ${across.length} | ${percentile(across, 50)} / ${percentile(across, 99)} / ${maxOf(across)} |`)
        console.log(`\ncross-server p99 ${percentile(across, 99)} ms (target ≤ 250) against same-server ${percentile(same, 99)} ms`)
      } finally {
        await onA.close()
        await onB.close()
      }
    } finally {
      await stopServer(a)
      await stopServer(b)
    }
  } finally {
    await database.drop()
  }
}

if (scenarios.includes("idle")) {
  const count = Number(args.idle)
  console.log(`\n## idle: ${count} subscribed sockets on one server, memory after GC\n`)
  const database = await benchDatabase("sqlite")
  const file = join(tmpdir(), `atrium-bench-mem-${process.pid}`)
  const env = { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: "warn", BENCH_MEMORY_FILE: file }
  const rows = []
  try {
    const creds = createWorkspace(env)
    const measure = async (name, server, tokens) => {
      // One socket first, so what starts with the first connection (the hub, its timers) is in "before".
      const first = await openSockets(server.url, tokens.slice(0, 1), 1)
      await first.close()
      await sleep(500)
      const before = await memoryOf(server, file)
      const opened = await openSockets(server.url, tokens, Number(args["client-processes"]))
      try {
        await sleep(2000)
        const after = await memoryOf(server, file)
        rows.push({ name, before, after, ms: opened.ms })
      } finally {
        await opened.close()
      }
    }
    const atrium = await nodeServer(cli, env)
    try {
      await createDocument(atrium.url, creds)
      const t0 = Date.now()
      const tokens = await tokensFor(atrium.url, creds, count, "idle")
      console.log(`(${count} tokens in ${((Date.now() - t0) / 1000).toFixed(1)} s)`)
      await measure("atrium serve (SQLite)", atrium, tokens)
    } finally {
      await stopServer(atrium)
    }
    const bare = await nodeServer(join(root, "bench/raw-broadcast-server.mjs"), env)
    try {
      await measure("bare ws server", bare, Array.from({ length: count }, (_, i) => `t${i}`))
    } finally {
      await stopServer(bare)
    }
  } finally {
    await database.drop()
    rmSync(file, { force: true })
  }
  const kb = (bytes) => fmt(bytes / 1024, 1)
  const mb = (bytes) => fmt(bytes / 1024 / 1024, 1)
  console.log("| server | RSS before → after MB | heap before → after MB | RSS KB / connection | heap KB / connection | external KB / connection | opened in s |\n|---|---:|---:|---:|---:|---:|---:|")
  for (const r of rows) {
    console.log(`| ${r.name} | ${mb(r.before.rss)} → ${mb(r.after.rss)} | ${mb(r.before.heapUsed)} → ${mb(r.after.heapUsed)} | ${kb((r.after.rss - r.before.rss) / count)} | ${kb((r.after.heapUsed - r.before.heapUsed) / count)} | ${kb((r.after.external - r.before.external) / count)} | ${fmt(r.ms / 1000, 1)} |`)
  }
  results.idle = rows
}

if (scenarios.includes("presence")) {
  const users = Number(args["presence-users"])
  const hz = Number(args["presence-hz"])
  const seconds = Number(args["presence-seconds"])
  console.log(`\n## presence: ${users} users sending cursor presence at ${hz} Hz on one document for ${seconds} s\n`)
  const database = await benchDatabase("sqlite")
  const env = { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: "warn" }
  const rows = []
  /** The users' cursors for `seconds` (after a warm-up of the same), then the wait until every page stopped receiving. */
  const measure = async (name, server, tokens) => {
    const opened = await openSockets(server.url, tokens, Number(args["client-processes"]))
    try {
      await Promise.all(opened.clients.map((c) => c.call("presence", { hz, seconds: Number(args.warmup) })))
      await sleep(1000)
      await Promise.all(opened.clients.map((c) => c.call("reset")))
      const cpu0 = cpuMs(server.child.pid)
      const t0 = Date.now()
      const sent = (await Promise.all(opened.clients.map((c) => c.call("presence", { hz, seconds })))).reduce((n, r) => n + r.sent, 0)
      let last = -1
      for (let quiet = 0; quiet < 1000;) {
        const received = (await Promise.all(opened.clients.map((c) => c.call("count")))).reduce((n, c) => n + c.received, 0)
        quiet = received === last ? quiet + 100 : 0
        last = received
        await sleep(100)
      }
      const reports = await Promise.all(opened.clients.map((c) => c.call("report")))
      const latencies = reports.flatMap((r) => r.latencies)
      const lastAt = Math.max(...reports.map((r) => r.lastAt))
      const cpu = cpuMs(server.child.pid) - cpu0
      const elapsed = Math.max(lastAt - t0, seconds * 1000)
      rows.push({
        name,
        sent,
        offered: sent * (users - 1),
        received: latencies.length,
        deliveredPerSecond: latencies.length / (elapsed / 1000),
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        max: maxOf(latencies),
        cpuPercent: (100 * cpu) / elapsed,
        cpuMicrosPerMessage: (1000 * cpu) / Math.max(1, latencies.length)
      })
    } finally {
      await opened.close()
    }
  }
  try {
    const creds = createWorkspace(env)
    const atrium = await nodeServer(cli, env)
    try {
      await createDocument(atrium.url, creds)
      await measure("atrium serve (SQLite)", atrium, await tokensFor(atrium.url, creds, users, "cursor"))
    } finally {
      await stopServer(atrium)
    }
    const bare = await nodeServer(join(root, "bench/raw-broadcast-server.mjs"), env)
    try {
      await measure("bare ws relay", bare, Array.from({ length: users }, (_, i) => `u${i}`))
    } finally {
      await stopServer(bare)
    }
  } finally {
    await database.drop()
  }
  console.log("| server | frames sent | messages received / sent × (users − 1) | delivered/s | latency p50 / p99 / max ms | server CPU | server CPU µs/message |\n|---|---:|---:|---:|---:|---:|---:|")
  for (const r of rows) {
    console.log(`| ${r.name} | ${fmt(r.sent)} | ${fmt(r.received)} / ${fmt(r.offered)} | ${fmt(r.deliveredPerSecond)} | ${r.p50} / ${r.p99} / ${r.max} | ${fmt(r.cpuPercent)} % | ${fmt(r.cpuMicrosPerMessage, 1)} |`)
  }
  results.presence = rows
}

console.log(`\nnode ${process.version}; load average at the end: ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}`)
