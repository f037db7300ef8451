// Load bench (issue 14): `pnpm -s build && node --expose-gc bench/load.mjs [--storage sqlite|postgres]`
//   [--duration 60] [--connections 50] [--warmup 5]
// `atrium serve`'s server (serve() of @atrium/server), run in this process on core 0, under wrk
// on core 1 with 50 connections for 60 s: a mix of reads and writes (bench/mixed.lua, one after
// another in turn) over a seeded workspace. Prints req/s, p50/p99/max latency, errors, peak RSS,
// and the heap after a full GC before and after the run (flat: nothing kept per request).
import { execFile } from "node:child_process"
import { join } from "node:path"
import { promisify, parseArgs } from "node:util"
import { benchDatabase, createWorkspace, poster, root, sleep } from "./lib.mjs"

const { values: args } = parseArgs({
  options: {
    storage: { type: "string", default: "sqlite" },
    duration: { type: "string", default: "60" },
    warmup: { type: "string", default: "5" },
    connections: { type: "string", default: "50" }
  }
})
if (typeof globalThis.gc !== "function") throw new Error("run with node --expose-gc")
const { readEnv, serve } = await import(join(root, "packages/server/dist/index.js"))

const database = await benchDatabase(args.storage)
const env = { ...process.env, DATABASE_URL: database.url }
try {
  const creds = createWorkspace(env)
  const running = await serve({ ...readEnv({ ...env, PORT: "0", HOST: "127.0.0.1" }) }, { log: () => undefined })
  const post = poster(creds)
  const t0 = Date.now()
  // 10 organizations of 20 documents, 100 activities and 20 threads of 3 comments each.
  for (let o = 0; o < 10; o++) {
    const organizationId = `org-${o}`
    await post(running.url, "/v2/organizations/add", { organizations: [{ organizationId, organizationName: `Organization ${o}` }] })
    await post(running.url, "/v1/organizations/documents/add", { organizationId, documents: Array.from({ length: 20 }, (_, d) => ({ documentId: `doc-${d}`, documentName: `Document ${d}` })) })
    await post(running.url, "/v2/activities/add", {
      organizationId,
      documentId: "doc-0",
      activities: Array.from({ length: 100 }, (_, a) => ({ featureType: "comment", actionType: "added", actionUser: { userId: `user-${a % 7}` } }))
    })
    await post(running.url, "/v2/commentannotations/add", {
      organizationId,
      documentId: "doc-0",
      commentAnnotations: Array.from({ length: 20 }, (_, t) => ({
        annotationId: `thread-${t}`,
        commentData: Array.from({ length: 3 }, (_, c) => ({ commentText: `Comment ${c} on ${t}`, from: { userId: `user-${c}` } }))
      }))
    })
  }
  console.log(`seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`)

  // Half reads, half writes; "%N%" is new per request.
  const mix = [
    ["/v2/organizations/documents/get", { organizationId: "org-1", pageSize: 20 }],
    ["/v2/activities/add", { organizationId: "org-2", documentId: "doc-1", activities: [{ featureType: "comment", actionType: "added", actionUser: { userId: "user-%N%" } }] }],
    ["/v2/activities/get", { organizationId: "org-3", pageSize: 50 }],
    ["/v2/commentannotations/comments/add", { organizationId: "org-4", documentId: "doc-0", annotationId: "thread-1", commentData: [{ commentText: "load %N%", from: { userId: "user-1" } }] }],
    ["/v2/commentannotations/get", { organizationId: "org-5", documentId: "doc-0", pageSize: 10 }],
    ["/v2/organizations/add", { organizations: [{ organizationId: "load-org-%N%", organizationName: "Load" }] }],
    ["/v2/users/get", { organizationId: "org-6" }],
    ["/v2/users/add", { organizationId: "org-7", users: [{ userId: "load-user-%N%", name: "Load" }] }]
  ]
  const requests = mix.map(([path, data]) => `${path} ${JSON.stringify({ data })}`).join("\n")
  const wrk = (seconds) =>
    promisify(execFile)("taskset", ["-c", "1", "wrk", "-t1", `-c${args.connections}`, `-d${seconds}s`, "--latency", "-s", join(root, "bench/mixed.lua"), running.url], {
      encoding: "utf8",
      env: { ...process.env, BENCH_REQUESTS: requests, BENCH_API_KEY: creds.apiKey, BENCH_AUTH_TOKEN: creds.authToken }
    }).then(({ stdout }) => stdout)

  await wrk(Number(args.warmup))
  await sleep(500)
  globalThis.gc()
  const heapBefore = process.memoryUsage().heapUsed
  let peakRss = 0
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 100)
  const out = await wrk(Number(args.duration))
  clearInterval(sampler)
  await sleep(500)
  globalThis.gc()
  const heapAfter = process.memoryUsage().heapUsed
  await running.close()

  const latency = (label) => {
    const m = new RegExp(`${label}\\s+([\\d.]+)(us|ms|s)`).exec(out)
    return m ? Number(m[1]) * (m[2] === "us" ? 0.001 : m[2] === "s" ? 1000 : 1) : NaN
  }
  const max = /Latency\s+\S+\s+\S+\s+([\d.]+)(us|ms|s)/.exec(out)
  const maxMs = Number(max[1]) * (max[2] === "us" ? 0.001 : max[2] === "s" ? 1000 : 1)
  const total = Number(/(\d+) requests in/.exec(out)[1])
  const errors = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0) + Number(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)?.slice(1).reduce((a, b) => a + Number(b), 0) ?? 0)
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1])
  const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1)
  console.log(`\n${database.storage}; wrk -t1 -c${args.connections} -d${args.duration}s after ${args.warmup} s warm-up, ${mix.length} requests in turn (4 reads, 4 writes); server in this process on core 0, wrk on core 1; node ${process.version}\n`)
  console.log("| requests | req/s | p50 ms | p99 ms | max ms | errors | peak RSS MB | heap after GC, before / after MB |")
  console.log("|---:|---:|---:|---:|---:|---:|---:|---|")
  console.log(`| ${total} | ${rps.toFixed(0)} | ${latency("50%").toFixed(2)} | ${latency("99%").toFixed(2)} | ${maxMs.toFixed(1)} | ${errors} | ${mb(peakRss)} | ${mb(heapBefore)} / ${mb(heapAfter)} |`)
} finally {
  await database.drop()
}
