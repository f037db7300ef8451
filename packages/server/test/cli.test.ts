/** The `atrium` command as an operator runs it: the built CLI in its own process. */
import { execFile, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, describe, expect, it } from "vitest"

const cli = join(__dirname, "..", "dist", "cli.js")
const dir = mkdtempSync(join(tmpdir(), "atrium-cli-"))
const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, "cli.db")}` }
const run = (args: Array<string>, extraEnv: Record<string, string> = {}) =>
  promisify(execFile)(process.execPath, [cli, ...args], { env: { ...env, ...extraEnv }, encoding: "utf8" })

afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("atrium CLI", () => {
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
    await expect(run(["workspace", "create", "--email", "nope"])).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining("not a valid email") })
    await expect(run(["workspace", "create", "--email", "cli@example.com"])).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining("ALREADY_EXISTS") })
    await expect(run(["bogus"])).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('unknown command "bogus"') })
    await expect(run(["serve"], { DATABASE_URL: "postgres://x@127.0.0.1/db" })).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining("PostgreSQL") })
  })

  it("serve answers with the created credentials, logs one line per request, and stops cleanly on SIGTERM", async () => {
    const { stdout } = await run(["workspace", "create", "--email", "serve@example.com"])
    const created = JSON.parse(stdout)
    const child = spawn(process.execPath, [cli, "serve"], { env: { ...env, PORT: "0", HOST: "127.0.0.1" } })
    let output = ""
    child.stdout.on("data", (chunk) => (output += chunk))
    const url = await new Promise<string>((resolve, reject) => {
      child.once("exit", (code) => reject(new Error(`exited early with ${code}: ${output}`)))
      child.stdout.on("data", () => {
        const match = /listening on (http:\/\/[^ ]+)/.exec(output)
        if (match) resolve(match[1]!)
      })
    })
    const answer = await fetch(`${url}/v2/organizations/documents/get`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-service-api-key": created.apiKey, "x-service-auth-token": created.authToken },
      body: JSON.stringify({ data: { organizationId: "o" } })
    })
    expect(answer.status).toBe(200)
    const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
    child.kill("SIGTERM")
    expect(await exit).toBe(0)
    expect(output).toMatch(/POST \/v2\/organizations\/documents\/get 200 [\d.]+ms/)
    expect(output).toContain("SIGTERM, shutting down")
  })
})
