/**
 * Bundles the example, then runs the bundle as Lambda would: a process loads dist/handler.mjs and
 * invokes it with the sample events (one per event kind), then a second process (a new container
 * on the same /tmp) reads the data the first one wrote. Each process must exit by itself.
 */
import { spawn, spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { afterAll, beforeAll, expect, it } from "vitest"

const root = join(__dirname, "..")
const dir = mkdtempSync(join(tmpdir(), "atrium-lambda-example-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

beforeAll(() => {
  const tsup = join(dirname(createRequire(import.meta.url).resolve("tsup/package.json")), "dist", "cli-default.js")
  const built = spawnSync(process.execPath, [tsup, "--silent"], { cwd: root, encoding: "utf8" })
  if (built.status !== 0) throw new Error(`bundling failed: ${built.stdout}${built.stderr}`)
})

/** Runs `scripts/invoke.mjs` on the event files; resolves with one result per event once the process exits. */
const invoke = (...events: Array<string>) =>
  new Promise<Array<any>>((resolve, reject) => {
    const child = spawn(process.execPath, ["scripts/invoke.mjs", ...events], { cwd: root, env: { ...process.env, DB_FILE: join(dir, "atrium.db") } })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk) => (stdout += chunk))
    child.stderr.on("data", (chunk) => (stderr += chunk))
    child.once("error", reject)
    child.once("exit", (code) => {
      if (code !== 0) return reject(new Error(`exited with ${code}: ${stderr}`))
      resolve(stdout.trim().split("\n").map((line) => JSON.parse(line)))
    })
  })

it("answers each event kind from the bundle, and a new process finds the data in the same /tmp", async () => {
  const [created, rest, alb] = await invoke("events/http-api-create-workspace.json", "events/rest-api-healthz.json", "events/alb-healthz.json")
  expect(created).toMatchObject({ statusCode: 200, headers: { "content-type": "application/json; charset=utf-8" }, isBase64Encoded: false })
  const data = JSON.parse(created.body).result.data
  expect(rest).toEqual({ statusCode: 200, headers: { "content-type": "application/json; charset=utf-8" }, body: "{\"status\":\"ok\"}", isBase64Encoded: false })
  expect(alb).toEqual({
    statusCode: 200,
    statusDescription: "200 OK",
    multiValueHeaders: { "content-type": ["application/json; charset=utf-8"] },
    body: "{\"status\":\"ok\"}",
    isBase64Encoded: false
  })

  // The REST API sample turned into documents/get with the new workspace's credentials.
  const [apiKey, entry] = Object.entries(data.apiKeyList)[0] as [string, { authToken: string }]
  const event = JSON.parse(readFileSync(join(root, "events/rest-api-healthz.json"), "utf8"))
  const headers = { "Content-Type": "application/json", "X-Service-Api-Key": apiKey, "X-Service-Auth-Token": entry.authToken }
  Object.assign(event, {
    path: "/v2/organizations/documents/get",
    httpMethod: "POST",
    headers: { ...event.headers, ...headers },
    multiValueHeaders: { ...event.multiValueHeaders, ...Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])) },
    body: JSON.stringify({ data: { organizationId: "org-1" } })
  })
  writeFileSync(join(dir, "documents-get.json"), JSON.stringify(event))
  const [listed] = await invoke(join(dir, "documents-get.json"))
  expect(listed.statusCode).toBe(200)
  expect(JSON.parse(listed.body).result.data).toEqual([])
})
