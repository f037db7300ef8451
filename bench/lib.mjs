// What every bench script shares: the database of a run, seeding through Atrium's operations,
// starting a pinned server, sampling its RSS, running wrk, medians and percentiles.
import { execFile, execFileSync, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"

export const root = new URL("..", import.meta.url).pathname
export const cli = join(root, "packages/server/dist/cli.js")
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
export const median = (values) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]
/** Nearest-rank percentile, `p` in 0..100. */
export const percentile = (values, p) => {
  const sorted = [...values].sort((x, y) => x - y)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]
}

export const PG_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres"

/**
 * The database of one run: a SQLite file in a new temporary folder, or a new PostgreSQL
 * database on the server of `pgAdminUrl`. `url` is Atrium's DATABASE_URL; `analyze()` gathers
 * the planner's statistics once seeded; `drop()` removes it (PostgreSQL's connections to it are
 * closed by force; close SQLite's first).
 */
export const benchDatabase = async (storage, { pgAdminUrl = PG_ADMIN_URL } = {}) => {
  if (storage === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "atrium-bench-"))
    const file = join(dir, "bench.db")
    // Nothing to gather: Atrium runs no ANALYZE on SQLite, and SQLite's planner picks the
    // activities timeline index without statistics (pages.mjs prints its plans).
    return { storage, url: `sqlite:${file}`, file, analyze: async () => {}, drop: async () => rmSync(dir, { recursive: true, force: true }) }
  }
  if (storage !== "postgres") throw new Error(`storage must be sqlite or postgres, not ${storage}`)
  const { default: pg } = await import("pg") // only PostgreSQL runs need the driver
  const name = `atrium_bench_${Date.now().toString(36)}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`
  const run = async (connectionString, statement) => {
    const client = new pg.Client({ connectionString })
    await client.connect()
    try {
      await client.query(statement)
    } finally {
      await client.end()
    }
  }
  await run(pgAdminUrl, `CREATE DATABASE ${name}`)
  const url = new URL(pgAdminUrl)
  url.pathname = `/${name}`
  return {
    storage,
    url: url.toString(),
    // Without statistics the planner may read and sort all of an organization's activities
    // instead of walking the timeline index (docs/benchmarks.md). Autovacuum would gather them
    // within a minute of the seeding, but a server may run without it, as this machine's does.
    analyze: () => run(url.toString(), "ANALYZE"),
    drop: () => run(pgAdminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  }
}

/** `atrium workspace create` on `env.DATABASE_URL`: `{ apiKey, authToken, ... }`. */
export const createWorkspace = (env) =>
  JSON.parse(execFileSync(process.execPath, [cli, "workspace", "create", "--email", "bench@example.com"], { env, encoding: "utf8" }))

/** The options every wrk bench takes: its storage, and how long and how hard wrk runs. */
export const RUN_OPTIONS = {
  storage: { type: "string", default: "sqlite" },
  "pg-url": { type: "string", default: PG_ADMIN_URL },
  duration: { type: "string", default: "10" },
  warmup: { type: "string", default: "3" },
  connections: { type: "string", default: "10" }
}

/**
 * `post(url, path, data)` with the credentials (the API key's, or `{ bearer }`: a user's token, for
 * the client API): the parsed answer; throws on any status but 200.
 */
export const poster = (creds) => {
  const headers = creds.bearer === undefined
    ? { "content-type": "application/json", "x-service-api-key": creds.apiKey, "x-service-auth-token": creds.authToken }
    : { "content-type": "application/json", authorization: `Bearer ${creds.bearer}` }
  return async (url, path, data) => {
    const response = await fetch(url + path, { method: "POST", headers, body: JSON.stringify({ data }) })
    const body = await response.json()
    if (response.status !== 200) throw new Error(`${path}: ${JSON.stringify(body)}`)
    return body
  }
}

/**
 * One document with `threadCount` threads of 5 comments each, through commentannotations/add,
 * ten threads a call (the 50 comments it takes: docs/protocol.md, "Limits"). `post(path, data)`.
 */
export const seedThreads = async (post, { organizationId, documentId, threadCount }) => {
  for (let done = 0; done < threadCount; done += 10) {
    await post("/v2/commentannotations/add", {
      organizationId,
      documentId,
      createOrganization: done === 0,
      createDocument: done === 0,
      commentAnnotations: Array.from({ length: Math.min(10, threadCount - done) }, (_, i) => {
        const n = done + i
        const at = 1_700_000_000_000 + n * 1000
        return {
          annotationId: `thread-${n}`,
          createdAt: at,
          location: { id: `section-${n % 20}` },
          commentData: Array.from({ length: 5 }, (_, c) => ({
            commentText: `Comment ${c} on thread ${n}: a sentence or two of review text, as people write them.`,
            from: { userId: `user-${(n + c) % 37}`, name: `User ${(n + c) % 37}`, email: `user${(n + c) % 37}@example.com` },
            createdAt: at + c
          }))
        }
      })
    })
  }
}

/**
 * An answer with its keys sorted and any `pageToken` reduced to whether there is one: a
 * baseline's page token ("next") is not Atrium's encrypted one, everything else must match.
 */
export const comparable = (body) =>
  JSON.stringify(body, (key, value) =>
    key === "pageToken" || key === "nextPageToken" ? "<present>"
    : value && typeof value === "object" && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : value)

/** Starts `command args` pinned to `core` (0 unless told) on a random port; resolves once `readyPath` answers. */
export const startPinned = async (command, args, env, readyPath = "/healthz", core = 0) => {
  const port = 20000 + Math.floor(Math.random() * 20000)
  const child = spawn("taskset", ["-c", String(core), command, ...args], {
    env: { ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "inherit"]
  })
  child.stdout.resume()
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(url + readyPath)
      return { child, url }
    } catch {
      await sleep(100)
    }
  }
  child.kill("SIGKILL") // not left running behind the failed bench
  throw new Error(`${args.at(-1) ?? command} did not start`)
}

export const stopServer = async ({ child }) => {
  const exited = new Promise((resolve) => child.once("exit", resolve))
  child.kill("SIGTERM")
  await exited
}

/** Samples a process's RSS every 50 ms; the returned function stops and gives the peak in MB. */
export const peakRss = (pid) => {
  let peak = 0
  const timer = setInterval(() => {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1])
      peak = Math.max(peak, kb)
    } catch {}
  }, 50)
  return () => (clearInterval(timer), peak / 1024)
}

/**
 * wrk pinned to core 1, POSTing `{data}` with the credentials (the API key's, or `bearer`: a
 * user's token, for the client API); asynchronous, so the RSS sampler keeps running meanwhile.
 * Fails on any non-2xx answer.
 */
export const wrk = async ({ bearer, connections, creds, data, rotate, seconds, url }) => {
  // rotate: each request's body has its "%N%" replaced by the next of 0 … rotate - 1 (mixed.lua).
  const script = join(root, rotate === undefined ? "bench/post.lua" : "bench/mixed.lua")
  const { stdout: out } = await promisify(execFile)(
    "taskset",
    ["-c", "1", "wrk", "-t1", `-c${connections}`, `-d${seconds}s`, "--latency", "-s", script, url],
    {
      encoding: "utf8",
      env: {
        ...process.env,
        BENCH_BODY: JSON.stringify({ data }),
        ...(rotate !== undefined && { BENCH_REQUESTS: `${new URL(url).pathname} ${JSON.stringify({ data })}`, BENCH_ROTATE: String(rotate) }),
        ...(bearer === undefined ? { BENCH_API_KEY: creds.apiKey, BENCH_AUTH_TOKEN: creds.authToken } : { BENCH_BEARER: bearer })
      }
    }
  )
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1])
  const p99 = /99%\s+([\d.]+)(us|ms|s)/.exec(out)
  const p99ms = Number(p99[1]) * (p99[2] === "us" ? 0.001 : p99[2] === "s" ? 1000 : 1)
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out)
  if (non2xx) throw new Error(`${non2xx[1]} non-2xx answers:\n${out}`)
  return { rps, p99ms }
}
