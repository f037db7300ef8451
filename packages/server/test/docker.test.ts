/**
 * The Dockerfile, built and run for real: the image starts healthy (its HEALTHCHECK), serves the
 * API and /docs, runs as the unprivileged `node` user, keeps its SQLite database in the /data
 * volume across a restart, stops at once with exit code 0 on `docker stop` (SIGTERM to Node as
 * PID 1), and exits 1 with a clear message when its database cannot be opened.
 * Needs a Docker daemon. The base image is ATRIUM_DOCKER_NODE_IMAGE (default node:20-bookworm-slim);
 * machines without Docker Hub build a stand-in with scripts/docker-node-image.sh (.ci/run does).
 */
import { execFile } from "node:child_process"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { exerciseAtrium } from "../../../test-support/ExampleSmoke.js"
import { freePort } from "../../../test-support/ServerProcess.js"

const root = join(__dirname, "..", "..", "..")
const run = promisify(execFile)
const docker = async (...args: Array<string>) => (await run("docker", args, { cwd: root, maxBuffer: 64 << 20 })).stdout.trim()

const daemon = await docker("info", "--format", "{{.ServerVersion}}").then(() => true, () => false)
if (!daemon && process.env["CI"]) throw new Error("no Docker daemon: .ci/run starts one (dockerd); see packages/server/test/docker.test.ts")
if (!daemon) console.warn("docker.test.ts skipped: no Docker daemon")

const baseImage = process.env["ATRIUM_DOCKER_NODE_IMAGE"] ?? "node:20-bookworm-slim"
const tag = `atrium-smoke:${process.pid}`
const volume = `atrium-smoke-${process.pid}`
const names: Array<string> = []

/** Starts the image on the host's network at `port` (no published ports: works without Docker's NAT too). */
const start = async (port: number, env: Record<string, string> = {}) => {
  const name = `atrium-smoke-${process.pid}-${names.length}`
  names.push(name)
  const envArgs = Object.entries({ PORT: String(port), ...env }).flatMap(([key, value]) => ["-e", `${key}=${value}`])
  await docker("run", "-d", "--name", name, "--network", "host", "-v", `${volume}:/data`, ...envArgs, tag)
  return name
}
const state = async (name: string) => JSON.parse(await docker("inspect", "--format", "{{json .State}}", name))

describe.runIf(daemon)("the Docker image", () => {
  beforeAll(async () => {
    // Host networking for the build too: machines without Docker's bridge still reach the registries.
    await docker("build", "--network", "host", "--build-arg", `NODE_IMAGE=${baseImage}`, "-t", tag, ".")
  }, 15 * 60_000)

  afterAll(async () => {
    for (const name of names) await docker("rm", "-f", name).catch(() => undefined)
    await docker("volume", "rm", "-f", volume).catch(() => undefined)
    await docker("rmi", "-f", tag).catch(() => undefined)
  }, 60_000)

  it("starts healthy, serves the API as the node user, keeps its data across a restart, and stops on SIGTERM", async () => {
    const port = await freePort()
    const url = `http://127.0.0.1:${port}`
    const name = await start(port)
    await expect.poll(async () => (await state(name)).Health?.Status, { timeout: 60_000, interval: 1_000 }).toBe("healthy")
    expect(await docker("exec", name, "id", "-un")).toBe("node")
    await exerciseAtrium(url)
    expect((await fetch(`${url}/docs`)).status).toBe(200)
    const created = await (await fetch(`${url}/v2/workspace/create`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ data: { ownerEmail: "kept@example.com" } })
    })).json()
    const workspace = { "x-service-workspace-id": created.result.data.id, "x-service-workspace-auth-token": created.result.data.authToken }

    const stopping = Date.now()
    await docker("stop", "--time", "20", name)
    expect(Date.now() - stopping).toBeLessThan(10_000) // not the 20 s after which Docker kills it
    expect((await state(name)).ExitCode).toBe(0)
    expect(await docker("logs", name)).toContain("SIGTERM")

    // A new container on the same volume finds the workspace.
    await start(port)
    await expect.poll(() => fetch(`${url}/healthz`).then((r) => r.status, () => 0), { timeout: 30_000 }).toBe(200)
    const read = await fetch(`${url}/v2/workspace/get`, { method: "POST", headers: { "content-type": "application/json", ...workspace }, body: JSON.stringify({ data: {} }) })
    expect(read.status).toBe(200)
    expect((await read.json()).result.data.owner.email).toBe("kept@example.com")
  }, 180_000)

  it("exits 1, saying why, when its database cannot be opened", async () => {
    const port = await freePort()
    const name = await start(port, { DATABASE_URL: `postgres://atrium@127.0.0.1:${await freePort()}/nowhere` })
    await expect.poll(async () => (await state(name)).Status, { timeout: 60_000, interval: 500 }).toBe("exited")
    expect((await state(name)).ExitCode).toBe(1)
    expect((await run("docker", ["logs", name])).stderr).toMatch(/cannot open the database/)
  }, 90_000)
})
