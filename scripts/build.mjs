// `pnpm build`: every package's build, in dependency order (pnpm -r), with one line as each
// package starts and ends, and how long it took: the first build takes minutes, and a silent one
// looks hung (issue 27). A package that fails has its whole output printed; the exit code is
// pnpm's.
import { spawn } from "node:child_process"

const started = performance.now()
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`
const child = spawn("pnpm", ["-r", "--reporter=append-only", "run", "build"], { stdio: ["ignore", "pipe", "pipe"] })

/** Per package (`packages/core`): when it started and what it printed. */
const packages = new Map()
let built = 0
/** How many pnpm builds ("Scope: 10 of 11 workspace projects"); "?" until it says. */
let total = "?"
let rest = ""
const onLine = (line) => {
  const scope = /^Scope: (\d+) of /.exec(line)
  if (scope) return void (total = scope[1])
  // pnpm's append-only reporter: "packages/core build$ tsup" as one starts, "packages/core build: <line>" after.
  const start = /^(\S+) build\$ /.exec(line)
  if (start) {
    packages.set(start[1], { since: performance.now(), output: [] })
    return void process.stdout.write(`atrium: building ${start[1]}…\n`)
  }
  const said = /^(\S+) build: (.*)$/.exec(line)
  const entry = said && packages.get(said[1])
  if (!entry) return
  if (said[2] === "Done") {
    built++
    return void process.stdout.write(`atrium: built ${said[1]} in ${seconds(entry.since)} (${built} of ${total})\n`)
  }
  if (said[2].startsWith("Failed")) {
    process.stderr.write(`atrium: ${said[1]} failed to build:\n${entry.output.join("\n")}\n`)
  }
  entry.output.push(said[2])
}
const read = (chunk) => {
  const lines = (rest + chunk).split("\n")
  rest = lines.pop()
  lines.forEach(onLine)
}
child.stdout.setEncoding("utf8").on("data", read)
child.stderr.setEncoding("utf8").on("data", read)
child.on("exit", (code) => {
  if (rest !== "") onLine(rest)
  if (code === 0) process.stdout.write(`atrium: ${built} packages built in ${seconds(started)}\n`)
  else process.stderr.write(`atrium: the build failed (exit ${code})\n`)
  process.exit(code ?? 1)
})
