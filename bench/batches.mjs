// /healthz beside the largest allowed batches (issue 21; docs/benchmarks.md, "Largest batches").
//   pnpm -s build && node bench/batches.mjs [--rounds 7]
// `atrium serve` on SQLite, pinned to one core, with advanced webhooks on and one endpoint taking
// every event (each change also records its messages). For each heavy kind of call, at the
// largest size its schema allows (test-support/largestBatches.mjs, the same calls the test
// batch-latency.test.ts sends): `rounds` times, the call's own time and the worst /healthz probe
// asked one after another while it runs, the first sent with the call. Baseline, same run: the
// worst probe while the server is idle for 100 ms.
import { operations } from "@atrium/core"
import { listCaps } from "@atrium/core/testing"
import { createServer } from "node:http"
import { parseArgs } from "node:util"
import { capsOf, largestBatches, prepareLargestBatches } from "../test-support/largestBatches.mjs"
import { benchDatabase, cli, createWorkspace, median, poster, sleep, startPinned, stopServer } from "./lib.mjs"

const { values: args } = parseArgs({ options: { rounds: { type: "string", default: "7" } } })
const ROUNDS = Number(args.rounds)

const receiver = createServer((request, response) => request.resume().on("end", () => response.end("ok")))
await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve))

const database = await benchDatabase("sqlite")
const env = { ...process.env, DATABASE_URL: database.url, ATRIUM_ALLOW_PRIVATE_NETWORKS: "1" }
const creds = createWorkspace(env)
const server = await startPinned(process.execPath, [cli, "serve"], env)
const postTo = poster(creds)
const post = (path, data) => postTo(server.url, path, data)

const probe = async () => {
  const t0 = performance.now()
  const response = await fetch(server.url + "/healthz")
  await response.arrayBuffer()
  if (response.status !== 200) throw new Error(`/healthz answered ${response.status}`)
  return performance.now() - t0
}
/** The call's time and the worst probe asked while it runs. */
const beside = async (running) => {
  const t0 = performance.now()
  let settled = false
  const done = running().finally(() => (settled = true))
  let worst = 0
  do worst = Math.max(worst, await probe())
  while (!settled)
  await done
  return { call: performance.now() - t0, worst }
}

try {
  await post("/v2/workspace/advancedwebhookconfig/update", { isEnabled: true })
  await post("/v2/workspace/advancedwebhook/endpoints/create", { url: `http://127.0.0.1:${receiver.address().port}/hook` })
  await prepareLargestBatches(post)
  const kinds = largestBatches(capsOf(operations, listCaps))
  for (const [k, kind] of kinds.entries()) { // warm: the first calls of a process compile its code
    await kind.setup?.(post, `warm${k}`)
    await post(kind.path, kind.data(`warm${k}`))
  }
  const rows = []
  const measure = async (name, round, prepare) => {
    const calls = []
    const worst = []
    for (let r = 0; r < ROUNDS; r++) {
      const tag = `r${r}${Math.random().toString(36).slice(2, 6)}`
      await prepare?.(tag)
      const result = await beside(() => round(tag))
      calls.push(result.call)
      worst.push(result.worst)
    }
    rows.push({ name, call: median(calls), worst: median(worst), worstOfAll: Math.max(...worst) })
  }
  await measure("baseline: idle for 100 ms", () => sleep(100))
  for (const kind of kinds) await measure(kind.name, (r) => post(kind.path, kind.data(r)), kind.setup && ((r) => kind.setup(post, r)))
  console.log(`| call (largest allowed) | call, median | worst /healthz, median / max of ${ROUNDS} |`)
  console.log("|---|---|---|")
  for (const row of rows) console.log(`| ${row.name} | ${row.call.toFixed(0)} ms | ${row.worst.toFixed(0)} / ${row.worstOfAll.toFixed(0)} ms |`)
} finally {
  await stopServer(server)
  await database.drop()
  receiver.close()
}
