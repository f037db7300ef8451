/**
 * Servers started as their own processes, as an operator or a user starts them: the `atrium`
 * command, the examples. Shared by the tests that boot one (packages/server, examples/*).
 */
import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:net"

export interface ServerProcess {
  readonly child: ChildProcess
  /** The URL the process printed after "listening on". */
  readonly url: string
  /** Everything it has printed so far, stdout and stderr. */
  readonly output: () => string
  /** Sends `signal` (default SIGTERM) and resolves with the exit code. */
  readonly stop: (signal?: NodeJS.Signals) => Promise<number | null>
}

const running = new Set<ChildProcess>()

/** Kills what a failed test left running; call it from `afterAll`. */
export const killServerProcesses = () => {
  for (const child of running) if (child.exitCode === null) child.kill("SIGKILL")
  running.clear()
}

/** `node <args>` (or `command <args>`); resolves once it prints `listening on <url>`, fails if it exits first. */
export const startServerProcess = async (
  args: ReadonlyArray<string>,
  options: { readonly cwd?: string; readonly env?: NodeJS.ProcessEnv; readonly command?: string } = {}
): Promise<ServerProcess> => {
  const child = spawn(options.command ?? process.execPath, args, { cwd: options.cwd, env: options.env ?? process.env })
  running.add(child)
  let output = ""
  child.stderr.on("data", (chunk) => (output += chunk))
  const url = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`${options.command ?? "node"} ${args.join(" ")} exited early with ${code}: ${output}`)))
    child.stdout.on("data", (chunk) => {
      output += chunk
      const match = /listening on (http:\/\/[^\s"]+)/.exec(output)
      if (match) resolve(match[1]!)
    })
  })
  return {
    child,
    url,
    output: () => output,
    stop: (signal = "SIGTERM") => {
      // A process killed by a signal has no exit code, only its signal: it has exited all the same.
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode)
      const exit = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
      child.kill(signal)
      return exit
    }
  }
}

/** A port nothing listens on now, for a process that must be told its port up front. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
