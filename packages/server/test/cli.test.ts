/** The `atrium` command as an operator runs it: the built CLI in its own process. */
import { migrationRecord } from "@atrium/core/sql"
import { testDatabase } from "@atrium/sql-pg/testing"
import { execFile, spawn, spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, describe, expect, it } from "vitest"
import { freePort, killServerProcesses, startServerProcess } from "../../../test-support/ServerProcess.js"
import { ENVIRONMENT_VARIABLES } from "../src/Env.js"

const cli = join(__dirname, "..", "dist", "cli.js")
const dir = mkdtempSync(join(tmpdir(), "atrium-cli-"))
const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, "cli.db")}` }
const run = (args: Array<string>, extraEnv: Record<string, string> = {}, options: { readonly cwd?: string } = {}) =>
  promisify(execFile)(process.execPath, [cli, ...args], { env: { ...env, ...extraEnv }, encoding: "utf8", ...options })

afterAll(() => rmSync(dir, { recursive: true, force: true }))
const db = await testDatabase()
afterAll(() => db.drop())
/** PGlite ignores startup options (one session serves every connection), so it cannot honour a schema. */
const embedded = db.server.startsWith("PGlite")

/** `atrium serve` on an ephemeral port (test-support/ServerProcess.ts). */
const startServe = (extraEnv: Record<string, string> = {}) =>
  startServerProcess([cli, "serve"], { env: { ...env, PORT: "0", HOST: "127.0.0.1", ...extraEnv } })
afterAll(killServerProcesses)

const getDocuments = (url: string, created: { apiKey: string; authToken: string }) =>
  fetch(`${url}/v2/organizations/documents/get`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-service-api-key": created.apiKey, "x-service-auth-token": created.authToken },
    body: JSON.stringify({ data: { organizationId: "o" } })
  })

describe("atrium CLI", () => {
  it("migrate --print prints the SQL of each dialect and touches no database", async () => {
    const untouched = { DATABASE_URL: `sqlite:${join(dir, "untouched.db")}` }
    const pg = await run(["migrate", "--print", "--dialect", "pg"], untouched)
    expect(pg.stdout).toMatch(/^-- 0001_core\nCREATE TABLE workspaces \(\n\s+id TEXT COLLATE "C" PRIMARY KEY,/)
    const sqlite = await run(["migrate", "--print"], untouched)
    expect(sqlite.stdout).toMatch(/^-- 0001_core\nCREATE TABLE workspaces \(\n\s+id TEXT PRIMARY KEY,/)
    expect(sqlite.stdout).toContain("-- 0010_comment_reactions_reads\n")
    expect(existsSync(join(dir, "untouched.db"))).toBe(false)
    await expect(run(["migrate", "--print", "--dialect", "mysql"])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--dialect must be sqlite or pg")
    })
  })

  it("migrate applies the migrations once", async () => {
    const first = await run(["migrate"])
    expect(first.stdout).toMatch(/^atrium: applied 1_core/)
    const second = await run(["migrate"])
    expect(second.stdout).toBe("atrium: database is up to date\n")
  })

  it("workspace create prints exactly one JSON object with the four credentials", async () => {
    const { stdout } = await run(["workspace", "create", "--email", "cli@example.com", "--name", "CLI"])
    expect(stdout.trim().split("\n")).toHaveLength(1)
    const created = JSON.parse(stdout)
    expect(Object.keys(created).sort()).toEqual(["apiKey", "authToken", "workspaceAuthToken", "workspaceId"])
    for (const value of Object.values(created)) expect(value).toMatch(/^[A-Za-z0-9_]{20,}$/)
  })

  it("refuses a bad email, a second workspace for one email, and unknown commands", async () => {
    await expect(run(["workspace", "create", "--email", "nope"])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("not a valid email") })
    await expect(run(["workspace", "create", "--email", "cli@example.com"])).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining("ALREADY_EXISTS") })
    await expect(run(["bogus"])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('unknown command "bogus"') })
    await expect(run(["migrate"], { ATRIUM_PG_SCHEMA: "atrium" })).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining("not a PostgreSQL URL") })
  })

  it("--help prints a command's help and does nothing else; --version prints the version", async () => {
    const untouched = { DATABASE_URL: `sqlite:${join(dir, "help.db")}` }
    for (const command of [["serve"], ["worker"], ["migrate"], ["workspace", "create"]]) {
      const { stdout } = await run([...command, "--help"], untouched)
      expect(stdout).toContain(`Usage: atrium ${command.join(" ")}`)
      expect(stdout).toContain("DATABASE_URL")
    }
    // Even with the flags that would run it: nothing migrated, served or created.
    expect((await run(["workspace", "create", "--email=help@example.com", "-h"], untouched)).stdout).toContain("Usage: atrium workspace create")
    expect(existsSync(join(dir, "help.db"))).toBe(false)
    expect((await run(["--help"])).stdout).toContain("atrium <command> --help")
    const { version } = JSON.parse(readFileSync(join(__dirname, "..", "package.json"), "utf8"))
    expect((await run(["--version"])).stdout).toBe(`${version}\n`)
  })

  it("takes --flag=value, and refuses unknown flags, missing values and stray arguments with exit 2", async () => {
    const { stdout } = await run(["workspace", "create", "--email=equals@example.com", "--name=Equals"])
    expect(Object.keys(JSON.parse(stdout))).toContain("apiKey")
    for (const [args, message] of [
      [["migrate", "--bogus"], "Unknown option '--bogus'"],
      [["serve", "extra"], "Unexpected argument 'extra'"],
      [["workspace", "create", "--email"], "--email"],
      [["workspace", "create"], "workspace create needs --email"],
      [["migrate", "--dialect", "pg"], "--dialect goes with --print"],
      [["worker", "--once=yes"], "--once"]
    ] as const) {
      await expect(run([...args]), args.join(" ")).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining(message) })
    }
  })

  it("refuses an unknown DATABASE_URL scheme, and a database it cannot open, with exit 1 and what is wrong", async () => {
    await expect(run(["serve"], { DATABASE_URL: "mysql://user:secret@db/app", PORT: "0" })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/DATABASE_URL "mysql:\/\/…@db\/app" is not supported/)
    })
    expect(existsSync("mysql:")).toBe(false)
    const notADatabase = join(dir, "not-a-database.db")
    writeFileSync(notADatabase, "plain text, not SQLite")
    await expect(run(["serve"], { DATABASE_URL: `sqlite:${notADatabase}`, PORT: "0" })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`cannot open the database (SQLite at ${notADatabase}): file is not a database`)
    })
    await expect(run(["serve"], { DATABASE_URL: "postgres://postgres@127.0.0.1:1/none", PORT: "0" })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(
        /cannot open the database \(PostgreSQL at 127\.0\.0\.1:1\/none\): PostgreSQL: cannot connect to postgres@127\.0\.0\.1:1\/none: connect ECONNREFUSED 127\.0\.0\.1:1 \(is PostgreSQL running there\? check DATABASE_URL's host and port\)/
      )
    })
    // A bare word is a mistake in the settings, not a SQLite file to create in the working directory.
    await expect(run(["serve"], { DATABASE_URL: "garbage", PORT: "0" }, { cwd: dir })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`DATABASE_URL "garbage" is neither a database URL nor a file path: use sqlite:garbage (or ./garbage)`)
    })
    expect(existsSync(join(dir, "garbage"))).toBe(false)
  })

  it("refuses a port that is taken before it creates or migrates any database, naming PORT", async () => {
    const holder = await startServe()
    const port = new URL(holder.url).port
    const fresh = join(dir, "never-created.db")
    await expect(run(["serve"], { DATABASE_URL: `sqlite:${fresh}`, PORT: port })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`cannot listen on 127.0.0.1:${port}: the port is in use: stop what holds it or set PORT to another`)
    })
    expect(existsSync(fresh)).toBe(false)
    expect(await holder.stop()).toBe(0)
  })

  it("serve listens on 127.0.0.1 unless HOST says otherwise", async () => {
    const server = await startServerProcess([cli, "serve"], { env: { ...env, PORT: "0", HOST: "" } })
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(await server.stop()).toBe(0)
  })

  it("serve on every interface logs the address it bound (0.0.0.0) beside the one to open", async () => {
    const server = await startServerProcess([cli, "serve"], { env: { ...env, PORT: "0", HOST: "0.0.0.0" } })
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
    expect(await server.stop()).toBe(0)
    expect(server.output()).toMatch(/INFO  atrium listening on http:\/\/127\.0\.0\.1:(\d+) bound=0\.0\.0\.0:\1 /)
  })

  it("serve answers with the created credentials, logs one line per request, and stops cleanly on SIGTERM", async () => {
    const { stdout } = await run(["workspace", "create", "--email", "serve@example.com"])
    const created = JSON.parse(stdout)
    const server = await startServe()
    const answer = await getDocuments(server.url, created)
    expect(answer.status).toBe(200)
    const requestId = answer.headers.get("x-request-id")
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/)
    // The server's address in a browser points to the API reference, which is there.
    const root = await fetch(`${server.url}/`)
    expect(root.status).toBe(200)
    const pointer = await root.json()
    expect(pointer).toMatchObject({ name: "Atrium", docs: "docs", openapi: "openapi.json" })
    expect((await fetch(new URL(pointer.docs, `${server.url}/`))).headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect((await fetch(new URL(pointer.openapi, `${server.url}/`))).status).toBe(200)
    expect(await server.stop()).toBe(0)
    const output = server.output()
    expect(output).toMatch(/^\S+Z INFO  database is up to date storage="SQLite at .*"$/m)
    expect(output).toMatch(/^\S+Z INFO  atrium listening on http:\/\/127\.0\.0\.1:(\d+) bound=127\.0\.0\.1:\1 storage=".*" docs=http:\/\/127\.0\.0\.1:\1\/docs$/m)
    expect(output).toContain(`INFO  POST /v2/organizations/documents/get 200 `)
    expect(output).toMatch(new RegExp(`POST /v2/organizations/documents/get 200 [\\d.]+ms requestId=${requestId}$`, "m"))
    expect(output).toMatch(/INFO  atrium: SIGTERM, shutting down$/m)
  })

  it("LOG_FORMAT=json writes one JSON object per line; a proxy's x-request-id is kept; LOG_LEVEL filters", async () => {
    const fresh = join(dir, "json.db")
    const server = await startServe({ DATABASE_URL: `sqlite:${fresh}`, LOG_FORMAT: "json" })
    const answer = await fetch(`${server.url}/healthz`, { headers: { "x-request-id": "edge-7f3a" } })
    expect(answer.headers.get("x-request-id")).toBe("edge-7f3a")
    // Not an id (spaces, too long): a new one instead.
    const odd = await fetch(`${server.url}/healthz`, { headers: { "x-request-id": "a b" } })
    expect(odd.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
    expect(await server.stop()).toBe(0)
    const lines = server.output().trim().split("\n").map((line) => JSON.parse(line))
    for (const line of lines) {
      expect(line).toMatchObject({ time: expect.stringMatching(/Z$/), level: expect.stringMatching(/^(debug|info|warn|error)$/), msg: expect.any(String) })
    }
    expect(lines[0]).toMatchObject({ level: "info", msg: expect.stringMatching(/^migrations applied: 1_core, /), storage: `SQLite at ${fresh}` })
    // A request's method, path, status and duration are fields of their own, for log queries.
    expect(lines).toContainEqual({
      time: expect.any(String),
      level: "info",
      msg: "GET /healthz 200",
      method: "GET",
      path: "/healthz",
      status: 200,
      durationMs: expect.any(Number),
      requestId: "edge-7f3a"
    })
    expect(lines).toContainEqual(expect.objectContaining({ msg: "atrium: SIGTERM, shutting down" }))

    // At warn: requests answered, nothing logged (not even the start-up lines).
    const port = await freePort()
    const quiet = spawn(process.execPath, [cli, "serve"], { env: { ...env, PORT: String(port), LOG_LEVEL: "warn" } })
    let output = ""
    quiet.stdout.on("data", (chunk) => (output += chunk))
    await expect.poll(() => fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.status, () => 0), { timeout: 10_000 }).toBe(200)
    const exited = new Promise((resolve) => quiet.once("exit", resolve))
    quiet.kill("SIGTERM")
    expect(await exited).toBe(0)
    expect(output).toBe("")
  })

  it("documents every variable it reads, once: in --help and in the README's table", async () => {
    // The server's own variables, and Atrium's options (read by core, for embedded hosts too).
    const sources = [join(__dirname, "..", "src", "Env.ts"), join(__dirname, "..", "..", "core", "src", "EnvOptions.ts")].map((file) => readFileSync(file, "utf8")).join("\n")
    const read = new Set([...sources.matchAll(/\b(?:variable|text|integer|portNumber|yesNo|oneOf|otlpUrl|schedule)\("([A-Z_]+)"/g)].map((m) => m[1]!))
    const listed = ENVIRONMENT_VARIABLES.map((v) => v.name)
    expect(new Set(listed)).toEqual(read)
    expect(listed.length).toBe(read.size)
    const readme = readFileSync(join(__dirname, "..", "..", "..", "README.md"), "utf8")
    const table = readme.slice(readme.indexOf("## Environment"), readme.indexOf("\n## ", readme.indexOf("## Environment") + 1))
    expect([...table.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((m) => m[1])).toEqual(listed)
    const help = (await run(["--help"])).stdout
    for (const name of listed) expect(help).toContain(`  ${name} `)
  })

  // The README's "Create a workspace" lines, as written, with `pnpm atrium` this CLI. They need jq, as the README says.
  it.skipIf(spawnSync("jq", ["--version"]).status !== 0)("the README's workspace lines export the credentials once, and nothing when creating fails", async () => {
    const readme = readFileSync(join(__dirname, "..", "..", "..", "README.md"), "utf8")
    const block = /## Create a workspace\n\n```sh\n([\s\S]*?)```/.exec(readme)![1]!.replaceAll("you@example.com", "readme@example.com")
    const script = `pnpm() { [ "$1" = -s ] && shift; shift; node ${JSON.stringify(cli)} "$@"; }\n${block}\necho "API_KEY=\${API_KEY-unset} AUTH_TOKEN=\${AUTH_TOKEN-unset}"`
    const shell = (env: Record<string, string | undefined>) => spawnSync("bash", ["-c", script], { env, encoding: "utf8" })
    const first = shell(env)
    expect(first.status).toBe(0)
    const printed = JSON.parse(first.stdout.split("\n")[0]!)
    expect(first.stdout).toContain(`API_KEY=${printed.apiKey} AUTH_TOKEN=${printed.authToken}`)
    expect(printed.apiKey).toMatch(/^atr_/)
    // The same email again is refused: said on stderr, and no empty variables exported.
    const second = shell(env)
    expect(second.stderr).toContain("ALREADY_EXISTS")
    expect(second.stdout).toBe("API_KEY=unset AUTH_TOKEN=unset\n")
  })

  it("refuses an unknown LOG_LEVEL or LOG_FORMAT, naming the variable", async () => {
    await expect(run(["serve"], { LOG_LEVEL: "loud" })).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining(`LOG_LEVEL must be one of debug, info, warn, error, got "loud"`) })
    await expect(run(["serve"], { LOG_FORMAT: "xml" })).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining(`LOG_FORMAT must be one of text, json, got "xml"`) })
  })

  describe("on PostgreSQL (DATABASE_URL postgres://…)", () => {
    it("migrate applies the PostgreSQL migrations once; serve answers from the same database", async () => {
      const pg = { DATABASE_URL: db.url }
      const first = await run(["migrate"], pg)
      // Every migration, in order, named as the Migrator logs them ("0001_core" applies as "1_core").
      const all = Object.keys(migrationRecord).map((id) => id.replace(/^0+/, ""))
      expect(all.slice(0, 2)).toEqual(["1_core", "2_workspace_settings"])
      expect(first.stdout).toBe(`atrium: applied ${all.join(", ")}\n`)
      expect((await run(["migrate"], pg)).stdout).toBe("atrium: database is up to date\n")
      const created = JSON.parse((await run(["workspace", "create", "--email", "pg@example.com"], pg)).stdout)
      const server = await startServe(pg)
      expect(server.output()).toContain(`storage="PostgreSQL at ${new URL(db.url).host}${new URL(db.url).pathname}"`)
      expect((await getDocuments(server.url, created)).status).toBe(200)
      expect(await server.stop()).toBe(0)
    })

    it.skipIf(embedded)("says why it cannot connect: a missing database, an unknown role", async () => {
      const url = new URL(db.url)
      const missing = new URL(db.url)
      missing.pathname = "/atrium_no_such_database"
      await expect(run(["serve"], { DATABASE_URL: missing.href, PORT: "0" })).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringContaining(`database "atrium_no_such_database" does not exist (create the database (createdb <name>) or fix DATABASE_URL's database)`)
      })
      const stranger = new URL(db.url)
      stranger.username = "atrium_no_such_role"
      stranger.password = ""
      await expect(run(["migrate"], { DATABASE_URL: stranger.href })).rejects.toMatchObject({
        code: 1,
        stderr: expect.stringContaining(`PostgreSQL: cannot connect to atrium_no_such_role@${url.hostname}:${url.port || "5432"}${url.pathname}: role "atrium_no_such_role" does not exist`)
      })
    })

    it.skipIf(embedded)("ATRIUM_PG_SCHEMA puts the tables in that schema, and serve finds them there", async () => {
      const pg = { DATABASE_URL: db.url, ATRIUM_PG_SCHEMA: "tenant_cli" }
      expect((await run(["migrate"], pg)).stdout).toMatch(/^atrium: applied 1_core/)
      expect((await run(["migrate"], pg)).stdout).toBe("atrium: database is up to date\n")
      const created = JSON.parse((await run(["workspace", "create", "--email", "schema@example.com"], pg)).stdout)
      const server = await startServe(pg)
      expect(server.output()).toContain(", schema tenant_cli\"")
      expect((await getDocuments(server.url, created)).status).toBe(200)
      expect(await server.stop()).toBe(0)
      // The same database without the schema: no such workspace.
      const plain = await startServe({ DATABASE_URL: db.url })
      expect((await getDocuments(plain.url, created)).status).toBe(403)
      expect(await plain.stop()).toBe(0)
    })
  })
})
