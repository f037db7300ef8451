// Deletion benchmark (issue 28): `pnpm -s build && node bench/deletes.mjs [--storage sqlite|postgres] [--threads 20000]`
// How long organizations/delete of a large organization takes, and how long it stalls everyone
// else meanwhile. One organization gets --threads threads of 5 comments each (seeded through
// Atrium); a prober writes one activity to another organization every 5 ms, first for 3 s alone
// (the baseline, same run), then while the large organization is deleted, and the latencies of
// both phases are compared: a delete in one transaction holds SQLite's only writer for its whole
// length, which is what a deletion job would cut into pieces.
import { parseArgs } from "node:util"
import { benchDatabase, cli, createWorkspace, median, percentile, poster, seedThreads, sleep, startPinned as start, stopServer as stop } from "./lib.mjs"

const { values: args } = parseArgs({
  options: {
    storage: { type: "string", default: "sqlite" },
    "pg-url": { type: "string" },
    threads: { type: "string", default: "20000" }
  }
})
const database = await benchDatabase(args.storage, args["pg-url"] ? { pgAdminUrl: args["pg-url"] } : {})
const env = { ...process.env, DATABASE_URL: database.url }
const threadCount = Number(args.threads)

/** Writes one activity to the other organization every 5 ms until `until()` says stop; each write's latency in ms. */
const probe = async (post, url, until) => {
  const latencies = []
  let n = 0
  while (!until()) {
    const t0 = performance.now()
    await post(url, "/v2/activities/add", {
      organizationId: "org-other",
      documentId: "doc-other",
      activities: [{ id: `probe-${n++}`, featureType: "comment", actionType: "added", actionUser: { userId: "prober" } }]
    })
    latencies.push(performance.now() - t0)
    await sleep(5)
  }
  return latencies
}

const summary = (latencies) => ({
  writes: latencies.length,
  p50: median(latencies).toFixed(1),
  p99: percentile(latencies, 99).toFixed(1),
  max: Math.max(...latencies).toFixed(1)
})

try {
  const creds = createWorkspace(env)
  const post = poster(creds)
  const server = await start(process.execPath, [cli, "serve"], env)
  try {
    const t0 = Date.now()
    await seedThreads((path, data) => post(server.url, path, data), { organizationId: "org-big", documentId: "doc-big", threadCount })
    await post(server.url, "/v2/organizations/add", { organizations: [{ organizationId: "org-other" }] })
    console.log(`seeded ${threadCount} threads (${threadCount * 5} comments) in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
    await database.analyze()

    const baselineEnd = Date.now() + 3000
    const baseline = await probe(post, server.url, () => Date.now() > baselineEnd)

    let deleting = true
    const during = probe(post, server.url, () => !deleting)
    const d0 = performance.now()
    const answer = await post(server.url, "/v2/organizations/delete", { organizationIds: ["org-big"] })
    const deleteMillis = performance.now() - d0
    deleting = false
    if (answer.result.data["org-big"].success !== true) throw new Error(JSON.stringify(answer))
    const whileDeleting = await during

    console.log(`storage ${args.storage}: organizations/delete of ${threadCount} threads, ${threadCount * 5} comments: ${deleteMillis.toFixed(0)} ms`)
    console.log("other organization's writes (ms)")
    console.table({ "alone (baseline)": summary(baseline), "during the delete": summary(whileDeleting) })
  } finally {
    await stop(server)
  }
} finally {
  await database.drop()
}
