// Page-latency benchmark: does activities/get cost the same at page 1 and page 1,000 of
// 1,000,000 activities? `pnpm -s build && node bench/pages.mjs`. Needs taskset.
//   node bench/pages.mjs [--storage sqlite,postgres] [--activities 1000000] [--page-size 1000]
//                        [--through-api 1000000] [--samples 200] [--warmup 20]
// For each database: one organization filled with `activities` activities, `through-api` of them
// through activities/add (batches of 100) and the rest copied from those by one INSERT … SELECT
// that writes what activities/add would have written (checked against Atrium itself); then
// `atrium serve` (pinned to core 0; this script on core 1) walks every page token from page 1
// to the last, and page 1 and the last page are each fetched `samples` times, interleaved, after
// `warmup` rounds. Also timed: the SQL statement Atrium runs for each page, alone, on the database.
import { execFileSync } from "node:child_process"
import { createRequire } from "node:module"
import { parseArgs } from "node:util"
import { benchDatabase, cli, createWorkspace, median, percentile, PG_ADMIN_URL, poster, startPinned, stopServer } from "./lib.mjs"

const { values: args } = parseArgs({
  options: {
    storage: { type: "string", default: "sqlite,postgres" },
    "pg-url": { type: "string", default: PG_ADMIN_URL },
    activities: { type: "string", default: "1000000" },
    "page-size": { type: "string", default: "1000" },
    "through-api": { type: "string" },
    samples: { type: "string", default: "200" },
    warmup: { type: "string", default: "20" }
  }
})
const total = Number(args.activities)
const pageSize = Number(args["page-size"]) // the spec gives no maximum; Atrium's is 1,000
const throughApi = Number(args["through-api"] ?? total)
const pages = Math.ceil(total / pageSize)
// Batches of 100 (the most activities/add takes: docs/protocol.md, "Limits"), ten documents, a
// hundred users: a copy shifted by a multiple of 10,000 keeps each activity's document and user,
// so only its id, target and timestamp change.
const BATCH = 100
const T0 = 1_700_000_000_000
if (throughApi < total && (throughApi % 10_000 !== 0 || total % throughApi !== 0)) {
  throw new Error("--through-api must be a multiple of 10000 that divides --activities")
}
const ORG = "org-bench"
const documentOf = (j) => `doc-${Math.floor(j / BATCH) % 10}`
const activity = (j) => ({
  id: `act-${j}`,
  featureType: "comment",
  actionType: "comment.add",
  actionUser: { userId: `user-${j % 100}`, name: "Bench User", email: "bench@example.com" },
  targetEntityId: `annotation-${j}`,
  displayMessageTemplate: "{{user}} commented",
  displayMessageTemplateData: { user: { userId: `user-${j % 100}`, name: "Bench User" } },
  timestamp: T0 + j
})
const addActivities = (post, url, organizationId, from, count) =>
  post(url, "/v2/activities/add", {
    organizationId,
    documentId: documentOf(from),
    activities: Array.from({ length: count }, (_, i) => activity(from + i))
  })

/** The bench's own connection to the database, `?` placeholders in both dialects. */
const openSql = async (database) => {
  if (database.storage === "sqlite") {
    const Database = createRequire(new URL("../packages/sql-sqlite/package.json", import.meta.url))("better-sqlite3")
    const db = new Database(database.file)
    const statements = new Map()
    const prepared = (text) => statements.get(text) ?? statements.set(text, db.prepare(text)).get(text)
    return {
      all: async (text, params = []) => prepared(text).all(...params),
      run: async (text, params = []) => void prepared(text).run(...params),
      plan: async (text, params) => (await db.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params)).map((r) => r.detail).join("\n"),
      close: async () => db.close()
    }
  }
  const { default: pg } = await import("pg")
  const client = new pg.Client({ connectionString: database.url })
  await client.connect()
  const numbered = (text) => {
    let n = 0
    return text.replace(/\?/g, () => `$${++n}`)
  }
  return {
    all: async (text, params = []) => (await client.query(numbered(text), params)).rows,
    run: async (text, params = []) => void await client.query(numbered(text), params),
    plan: async (text, params) =>
      (await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${numbered(text)}`, params)).rows.map((r) => r["QUERY PLAN"]).join("\n"),
    close: () => client.end()
  }
}

/**
 * Copies the activities written through the API `total / throughApi - 1` times, the copy k of
 * activity j being activity j + k·throughApi: new id, target and timestamp, in the columns and in
 * the JSON record (the same text, edited in place, so its key order and spacing stay Atrium's).
 * In the order of n, as the API would have written them: rows of one page stay together on disk.
 */
const multiply = (sql, apiKey) =>
  sql.run(
    `INSERT INTO activities (api_key, organization_id, id, document_id, target_entity_id, feature_type, action_type, user_id, occurred_at, record)
     WITH RECURSIVE copies(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM copies WHERE k < ${total / throughApi - 1}),
       source AS (SELECT a.*, occurred_at - ${T0} AS j FROM activities a WHERE api_key = ? AND organization_id = ?),
       shifted AS (SELECT source.*, j + k * ${throughApi} AS n FROM source CROSS JOIN copies)
     SELECT api_key, organization_id, 'act-' || n, document_id, 'annotation-' || n, feature_type, action_type, user_id, ${T0} + n,
       replace(replace(replace(record,
         '"id":"act-' || j || '"', '"id":"act-' || n || '"'),
         '"targetEntityId":"annotation-' || j || '"', '"targetEntityId":"annotation-' || n || '"'),
         '"timestamp":' || (${T0} + j) || '}', '"timestamp":' || (${T0} + n) || '}')
     FROM shifted ORDER BY n`,
    [apiKey, ORG]
  )

/**
 * The copies must be what Atrium writes: the same activities added through the API to another
 * organization give the same row, organization aside; then they leave again.
 */
const checkCopies = async (sql, post, url, apiKey) => {
  const columns = "id, document_id, target_entity_id, feature_type, action_type, user_id, occurred_at, record"
  for (const j of [throughApi, Math.floor(total / 2) + 7, total - 1]) {
    await addActivities(post, url, "org-check", j, 1)
    const row = async (org) => (await sql.all(`SELECT ${columns} FROM activities WHERE api_key = ? AND organization_id = ? AND id = ?`, [apiKey, org, `act-${j}`]))[0]
    const copied = JSON.stringify(await row(ORG))
    const written = JSON.stringify(await row("org-check")).replace('\\"organizationId\\":\\"org-check\\"', `\\"organizationId\\":\\"${ORG}\\"`)
    if (copied !== written) throw new Error(`copy of act-${j} is not what Atrium writes:\n${copied}\n${written}`)
  }
  await sql.run("DELETE FROM activities WHERE api_key = ? AND organization_id = ?", [apiKey, "org-check"])
}

/** Every page from the first to the last through Atrium, checked; the token of the last page. */
const walk = async (post, url) => {
  let token
  let lastToken
  for (let page = 1; page <= pages; page++) {
    const { result } = await post(url, "/v2/activities/get", { organizationId: ORG, pageSize, ...(token && { pageToken: token }) })
    const first = total - 1 - (page - 1) * pageSize
    const expected = Math.min(pageSize, first + 1)
    if (result.data.length !== expected || result.data[0].id !== `act-${first}` || result.data.at(-1).id !== `act-${first - expected + 1}`) {
      throw new Error(`page ${page}: ${result.data.length} items from ${result.data[0]?.id} to ${result.data.at(-1)?.id}`)
    }
    if ((page < pages) !== (result.pageToken !== undefined)) throw new Error(`page ${page}: pageToken ${result.pageToken}`)
    lastToken = token
    token = result.pageToken
  }
  return lastToken
}

/** Time to the last byte of the answer, in ms. */
const timed = async (url, headers, body) => {
  const started = performance.now()
  const response = await fetch(url + "/v2/activities/get", { method: "POST", headers, body })
  await response.arrayBuffer()
  if (response.status !== 200) throw new Error(`activities/get answered ${response.status}`)
  return performance.now() - started
}

/** `samples` timings of each of `runs` (name → async () => ms), interleaved, after `warmup` rounds. */
const interleaved = async (runs, samples, warmup) => {
  const times = Object.fromEntries(Object.keys(runs).map((name) => [name, []]))
  for (let round = 0; round < warmup + samples; round++) {
    for (const [name, run] of Object.entries(runs)) {
      const ms = await run()
      if (round >= warmup) times[name].push(ms)
    }
  }
  return Object.fromEntries(Object.entries(times).map(([name, ms]) => [name, { median: median(ms), p99: percentile(ms, 99) }]))
}

const measure = async (storage) => {
  const database = await benchDatabase(storage, { pgAdminUrl: args["pg-url"] })
  let server
  let sql
  try {
    const env = { ...process.env, DATABASE_URL: database.url }
    const creds = createWorkspace(env)
    const post = poster(creds)
    server = await startPinned(process.execPath, [cli, "serve"], env)
    await post(server.url, "/v1/organizations/documents/add", {
      organizationId: ORG,
      documents: Array.from({ length: 10 }, (_, i) => ({ documentId: `doc-${i}`, documentName: `Document ${i}` }))
    })
    let started = Date.now()
    for (let from = 0; from < throughApi; from += BATCH) await addActivities(post, server.url, ORG, from, Math.min(BATCH, throughApi - from))
    const apiSeconds = (Date.now() - started) / 1000
    await stopServer(server)
    server = undefined
    console.log(`${storage}: ${throughApi} activities through activities/add in ${apiSeconds.toFixed(1)} s`)

    sql = await openSql(database)
    started = Date.now()
    if (throughApi < total) await multiply(sql, creds.apiKey)
    const copySeconds = (Date.now() - started) / 1000
    if (throughApi < total) console.log(`${storage}: ${total - throughApi} more by INSERT … SELECT in ${copySeconds.toFixed(1)} s`)
    await database.analyze() // as autovacuum would, a minute after such a load (lib.mjs says why)
    const [{ count }] = await sql.all("SELECT count(*) AS count FROM activities WHERE api_key = ? AND organization_id = ?", [creds.apiKey, ORG])
    if (Number(count) !== total) throw new Error(`${count} activities, not ${total}`)

    server = await startPinned(process.execPath, [cli, "serve"], env)
    if (throughApi < total) await checkCopies(sql, post, server.url, creds.apiKey)
    started = Date.now()
    const lastToken = await walk(post, server.url)
    console.log(`${storage}: walked ${pages} pages of ${pageSize} in ${((Date.now() - started) / 1000).toFixed(1)} s`)

    const headers = { "content-type": "application/json", "x-service-api-key": creds.apiKey, "x-service-auth-token": creds.authToken }
    const firstBody = JSON.stringify({ data: { organizationId: ORG, pageSize } })
    const lastBody = JSON.stringify({ data: { organizationId: ORG, pageSize, pageToken: lastToken } })
    const http = await interleaved(
      { first: () => timed(server.url, headers, firstBody), last: () => timed(server.url, headers, lastBody) },
      Number(args.samples),
      Number(args.warmup)
    )

    // The statement SqlActivitiesRepo.page runs for each page (limit: pageSize + 1), on the bench's own connection.
    const keyset = "SELECT record FROM activities WHERE (api_key = ? AND organization_id = ?%) ORDER BY occurred_at DESC, id DESC LIMIT ?"
    const cursor = { timestamp: T0 + total - (pages - 1) * pageSize, id: `act-${total - (pages - 1) * pageSize}` }
    const firstSql = [keyset.replace("%", ""), [creds.apiKey, ORG, pageSize + 1]]
    const lastSql = [
      keyset.replace("%", " AND occurred_at <= ? AND (occurred_at < ? OR id < ?)"),
      [creds.apiKey, ORG, cursor.timestamp, cursor.timestamp, cursor.id, pageSize + 1]
    ]
    const timedSql = async ([text, params]) => {
      const started = performance.now()
      await sql.all(text, params)
      return performance.now() - started
    }
    const alone = await interleaved({ first: () => timedSql(firstSql), last: () => timedSql(lastSql) }, 50, 5)
    const plans = { first: await sql.plan(...firstSql), last: await sql.plan(...lastSql) }
    return { storage, apiSeconds, copySeconds, http, alone, plans }
  } finally {
    if (server) await stopServer(server)
    await sql?.close()
    await database.drop()
  }
}

// This script (and its HTTP client) on core 1, the server on core 0, as wrk and the server in run.mjs.
execFileSync("taskset", ["-a", "-cp", "1", String(process.pid)], { stdio: "ignore" })
const results = []
for (const storage of args.storage.split(",")) results.push(await measure(storage))

const ms = (x) => x.toFixed(2)
console.log(
  `\n${total} activities in one organization, pages of ${pageSize}; ${args.samples} requests of page 1 and of page ${pages}, interleaved, after ${args.warmup} of each; server on core 0, client on core 1; node ${process.version}\n`
)
console.log(`| database | seeding | page 1 median / p99 ms | page ${pages} median / p99 ms | page ${pages} / page 1 (median) | SQL alone, page 1 / page ${pages} median ms | target |`)
console.log("|---|---|---:|---:|---:|---:|---|")
for (const r of results) {
  const seeding = `${r.apiSeconds.toFixed(0)} s through the API` + (throughApi < total ? ` + ${r.copySeconds.toFixed(0)} s INSERT … SELECT` : "")
  console.log(
    `| ${r.storage} | ${seeding} | ${ms(r.http.first.median)} / ${ms(r.http.first.p99)} | ${ms(r.http.last.median)} / ${ms(r.http.last.p99)} | **${(r.http.last.median / r.http.first.median).toFixed(2)}** | ${ms(r.alone.first.median)} / ${ms(r.alone.last.median)} | ≤ 1.5 |`
  )
}
for (const r of results) console.log(`\n${r.storage}, plan of page 1:\n${r.plans.first}\n\n${r.storage}, plan of page ${pages}:\n${r.plans.last}`)
