// What every bench script shares: starting a pinned server, sampling its RSS, running wrk, medians.
import { execFile, spawn } from "node:child_process"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { promisify } from "node:util"

export const root = new URL("..", import.meta.url).pathname
export const cli = join(root, "packages/server/dist/cli.js")
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
export const median = (values) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]

/** Starts `command args` pinned to core 0 on a random port; resolves once `readyPath` answers. */
export const startPinned = async (command, args, env, readyPath = "/healthz") => {
  const port = 20000 + Math.floor(Math.random() * 20000)
  const child = spawn("taskset", ["-c", "0", command, ...args], {
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
 * wrk pinned to core 1, POSTing `{data}` with the credentials; asynchronous, so the RSS sampler
 * keeps running meanwhile. Fails on any non-2xx answer.
 */
export const wrk = async ({ connections, creds, data, seconds, url }) => {
  const { stdout: out } = await promisify(execFile)(
    "taskset",
    ["-c", "1", "wrk", "-t1", `-c${connections}`, `-d${seconds}s`, "--latency", "-s", join(root, "bench/post.lua"), url],
    {
      encoding: "utf8",
      env: { ...process.env, BENCH_BODY: JSON.stringify({ data }), BENCH_API_KEY: creds.apiKey, BENCH_AUTH_TOKEN: creds.authToken }
    }
  )
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1])
  const p99 = /99%\s+([\d.]+)(us|ms|s)/.exec(out)
  const p99ms = Number(p99[1]) * (p99[2] === "us" ? 0.001 : p99[2] === "s" ? 1000 : 1)
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(out)
  if (non2xx) throw new Error(`${non2xx[1]} non-2xx answers:\n${out}`)
  return { rps, p99ms }
}
