// memory/suggest under load (issue 14): `pnpm -s build && node bench/suggest.mjs`
// One key with 30,000 judgments in one organization and document; the time of one suggest,
// and /healthz's latency while 8 clients call suggest without pause (docs/benchmarks.md).
import { benchDatabase, cli, createWorkspace, poster, startPinned as start, stopServer as stop } from "./lib.mjs"
const database = await benchDatabase("sqlite")
const env = { ...process.env, DATABASE_URL: database.url }
const creds = createWorkspace(env)
const post = poster(creds)
const s = await start(process.execPath, [cli, "serve"], env)
const words = "claim invoice refund policy damage delivery late missing item broken warranty receipt customer account fraud duplicate charge".split(" ")
const text = (i) => Array.from({ length: 25 }, (_, k) => words[(i * 7 + k * 3) % words.length]).join(" ")
const t0 = Date.now()
for (let b = 0; b < 300; b++) {
  await post(s.url, "/v2/memory/judgments/add", { judgments: Array.from({ length: 100 }, (_, i) => ({ organizationId: "org", documentId: "doc", content: text(b * 100 + i), reasoning: text(b * 100 + i + 1), decision: i % 3 ? "approved" : "rejected", judgeType: "human", reviewerId: `r${i % 9}` })) })
}
console.log("seeded 30k in", Date.now() - t0, "ms")
const q = { query: "refund for a broken item delivered late", organizationId: "org", documentId: "doc" }
for (let i = 0; i < 5; i++) { const t = performance.now(); await post(s.url, "/v2/memory/suggest", q); console.log("suggest ms", (performance.now() - t).toFixed(1)) }
// 8 loops of suggest, and /healthz latency meanwhile
let stopLoops = false
const loops = Array.from({ length: 8 }, async () => { while (!stopLoops) await post(s.url, "/v2/memory/suggest", q) })
const lat = []
for (let i = 0; i < 20; i++) { const t = performance.now(); await fetch(s.url + "/healthz"); lat.push(performance.now() - t); await new Promise((r) => setTimeout(r, 100)) }
stopLoops = true; await Promise.all(loops)
lat.sort((a, b) => a - b)
console.log("healthz under 8 suggest loops: median", lat[10].toFixed(1), "max", lat[19].toFixed(1))
await stop(s); await database.drop()
