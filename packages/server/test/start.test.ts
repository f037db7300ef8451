/**
 * `pnpm start`, the README's first command, as a user runs it: from the existing build it is
 * listening within 2 s (it rebuilt every package, about a minute, on every start), and SIGTERM to
 * the pnpm process stops the server (its node child used to keep serving).
 */
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, expect, it } from "vitest"

const root = join(__dirname, "..", "..", "..")
const dir = mkdtempSync(join(tmpdir(), "atrium-start-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const groups: Array<number> = []
afterAll(() => {
  for (const group of groups) {
    try {
      process.kill(-group, "SIGKILL")
    } catch {
      // already gone
    }
  }
})

it("serves from the existing build within 2 s, and stops when the pnpm process gets SIGTERM", async () => {
  const started = performance.now()
  // Its own process group, so a failed run can be cleaned up whole; the test signals pnpm alone.
  const pnpm = spawn("pnpm", ["start"], {
    cwd: root,
    detached: true,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", DATABASE_URL: `sqlite:${join(dir, "start.db")}` }
  })
  groups.push(pnpm.pid!)
  let output = ""
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`pnpm start did not listen within 60 s:\n${output}`)), 60_000)
    pnpm.stdout.on("data", (chunk) => {
      output += chunk
      const match = /listening on (http:\/\/[^\s"]+)/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    })
    pnpm.stderr.on("data", (chunk) => (output += chunk))
  })
  const took = performance.now() - started
  expect(output).not.toContain("atrium: building")
  expect(took, output).toBeLessThan(2000)
  expect((await fetch(`${url}/healthz`)).status).toBe(200)

  pnpm.kill("SIGTERM")
  let stopped = false
  for (let i = 0; i < 50 && !stopped; i++) {
    await sleep(100)
    stopped = await fetch(`${url}/healthz`).then(() => false, () => true)
  }
  expect(stopped, "the server still answers after pnpm got SIGTERM").toBe(true)
}, 90_000)
