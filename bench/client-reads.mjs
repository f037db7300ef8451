// Client read against server read (issue 24): `pnpm -s build && node bench/client-reads.mjs`
//   [--storage sqlite|postgres] [--duration 10] [--warmup 3] [--connections 10] [--threads 1000] [--rounds 3]
// One document with --threads threads of 5 comments each, seeded through Atrium. On one `atrium
// serve`, the same 50-thread page read two ways: (a) /v2/commentannotations/get with the API key,
// the host's read; (b) /v2/client/commentannotations/get with a user's bearer token (a viewer
// grant on the document in the token), which adds the token's check, the access rule for the
// document and each thread's visibility. Both answers must be identical (the page token aside)
// before either is measured. a and b alternate within each round, their order swapped every
// round; the figure is b/a, the share of the server read's throughput the client read keeps.
import { parseArgs } from "node:util"
import { benchDatabase, cli, comparable, createWorkspace, median, RUN_OPTIONS, poster, seedThreads, startPinned as start, stopServer as stop, wrk as runWrk } from "./lib.mjs"

const { values: args } = parseArgs({
  options: {
    ...RUN_OPTIONS,
    threads: { type: "string", default: "1000" },
    rounds: { type: "string", default: "3" }
  }
})
const database = await benchDatabase(args.storage, { pgAdminUrl: args["pg-url"] })
const env = { ...process.env, DATABASE_URL: database.url }
const organizationId = "org-bench"
const documentId = "doc-bench"
const data = { organizationId, documentId, pageSize: 50 }

try {
  const creds = createWorkspace(env)
  const post = poster(creds)
  const server = await start(process.execPath, [cli, "serve"], env)
  let token
  try {
    const t0 = Date.now()
    await seedThreads((path, body) => post(server.url, path, body), { organizationId, documentId, threadCount: Number(args.threads) })
    console.log(`seeded ${args.threads} threads of 5 comments in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
    const generated = await post(server.url, "/v2/auth/generate_token", {
      userId: "reader",
      userProperties: { name: "Reader", email: "reader@example.com" },
      permissions: { resources: [{ type: "document", id: documentId, organizationId, accessRole: "viewer" }] }
    })
    token = generated.result.data.token
  } finally {
    await stop(server)
  }
  await database.analyze()

  const reads = [
    { name: "(a) /v2/commentannotations/get, API key", path: "/v2/commentannotations/get", bearer: undefined },
    { name: "(b) /v2/client/commentannotations/get, bearer token", path: "/v2/client/commentannotations/get", bearer: token }
  ]
  const runs = []
  for (let round = 1; round <= Number(args.rounds); round++) {
    const running = await start(process.execPath, [cli, "serve"], env)
    try {
      const [a, b] = [await post(running.url, reads[0].path, data), await poster({ bearer: token })(running.url, reads[1].path, data)].map(comparable)
      if (a !== b) throw new Error(`the client read answers ${b.slice(0, 500)}, not the server read's ${a.slice(0, 500)}`)
      for (const read of round % 2 === 1 ? reads : [...reads].reverse()) {
        const wrk = (seconds) => runWrk({ url: running.url + read.path, data, bearer: read.bearer, creds, seconds, connections: args.connections })
        await wrk(Number(args.warmup))
        const { p99ms, rps } = await wrk(Number(args.duration))
        runs.push({ round, read: read.name, rps, p99ms })
        console.log(`round ${round} | ${read.name}: ${rps.toFixed(0)} req/s, p99 ${p99ms.toFixed(2)} ms`)
      }
    } finally {
      await stop(running)
    }
  }

  console.log(`\n${database.storage}; ${args.threads} threads, a page of 50; wrk -t1 -c${args.connections} -d${args.duration}s after ${args.warmup}s warm-up, ${args.rounds} rounds (a and b on one server per round, order swapped each round); server on core 0, wrk on core 1; node ${process.version}\n`)
  console.log("| read | req/s (median) | p99 ms (median) |\n|---|---:|---:|")
  const of = (read) => runs.filter((r) => r.read === read.name)
  for (const read of reads) console.log(`| ${read.name} | ${median(of(read).map((r) => r.rps)).toFixed(0)} | ${median(of(read).map((r) => r.p99ms)).toFixed(2)} |`)
  const [aRuns, bRuns] = reads.map(of)
  const ratio = median(bRuns.map((r) => r.rps)) / median(aRuns.map((r) => r.rps))
  console.log(`\nb/a: ${ratio.toFixed(2)} (median); per round ${bRuns.map((r, k) => (r.rps / aRuns[k].rps).toFixed(2)).join(", ")}; target ≥ 0.85`)
} finally {
  await database.drop()
}
