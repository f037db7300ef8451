// Bundle size and cold start of the example (docs/benchmarks.md, "Lambda: bundle size and cold start").
// Run after bundling: pnpm --filter @atrium/example-lambda coldstart   (or: node scripts/coldstart.mjs [runs])
// Each run is a new process on a new, empty SQLite file (a new container starts with an empty /tmp):
// the time is from spawning `node` to the first answered invocation, as the parent sees it.
import { spawn } from "node:child_process"
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const runs = Number(process.argv[2] ?? 5)
const dist = fileURLToPath(new URL("../dist", import.meta.url))
const driver = fileURLToPath(new URL("first-invocation.mjs", import.meta.url))

const sizeOf = (path) => {
  const stat = statSync(path)
  return stat.isDirectory() ? readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0) : stat.size
}
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(2)} MB (${bytes} bytes)`
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

/** Spawns `node args`; resolves with the last stdout line (parsed) and the ms from spawn to the first output. */
const once = (args, dbFile) =>
  new Promise((resolve, reject) => {
    const spawned = performance.now()
    const child = spawn(process.execPath, args, { env: { ...process.env, DB_FILE: dbFile } })
    let output = ""
    let answeredAt
    child.stdout.on("data", (chunk) => {
      output += chunk
      answeredAt ??= performance.now()
    })
    child.stderr.on("data", (chunk) => (output += chunk))
    child.once("exit", (code) => {
      if (code !== 0) return reject(new Error(`node ${args.join(" ")} exited with ${code}: ${output}`))
      resolve({ ...JSON.parse(output.trim().split("\n").at(-1)), spawnToAnswerMs: answeredAt - spawned })
    })
  })

const dir = mkdtempSync(join(tmpdir(), "atrium-coldstart-"))
try {
  // The same machine's floor, measured in the same run: node printing one line, nothing loaded.
  const floor = []
  const results = []
  for (let i = 0; i < runs; i++) {
    floor.push((await once(["-e", "console.log('{}')"], "")).spawnToAnswerMs)
    const result = await once([driver], join(dir, `run${i}.db`))
    if (result.statusCode !== 200) throw new Error(`first invocation answered ${result.statusCode}`)
    results.push(result)
  }
  const pick = (key) => results.map((r) => r[key])
  const ms = (values) => values.map((v) => v.toFixed(0)).join(", ")
  console.log(`bundle: dist/handler.mjs ${mb(statSync(join(dist, "handler.mjs")).size)}; native modules dist/node_modules ${mb(sizeOf(join(dist, "node_modules")))}`)
  console.log(`spawn → first answer, ms: median ${median(pick("spawnToAnswerMs")).toFixed(0)} (runs: ${ms(pick("spawnToAnswerMs"))})`)
  console.log(`  of which node boot ${median(pick("nodeBootMs")).toFixed(0)}, import of the bundle ${median(pick("importMs")).toFixed(0)}, first invocation (SQLite opened and migrated, workspace created) ${median(pick("firstInvocationMs")).toFixed(0)} (medians)`)
  console.log(`bare node (spawn → one line printed), ms: median ${median(floor).toFixed(0)} (runs: ${ms(floor)})`)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
