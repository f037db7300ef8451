// `pnpm start`: builds only when a package's sources are newer than its build, then runs
// `atrium serve` in this very process (no child to outlive it). pnpm does not pass SIGTERM on to
// the script it runs; the command stops when the pnpm process that started it goes away (cli.ts).
import { execFileSync } from "node:child_process"
import { existsSync, readdirSync, statSync } from "node:fs"
import { join } from "node:path"

const root = new URL("..", import.meta.url).pathname

/** The newest modification time under `path` (a file or a folder), 0 when it does not exist. */
const newest = (path) => {
  if (!existsSync(path)) return 0
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), 0)
}

/** The oldest modification time of the files directly in `dir`, 0 when there are none. */
const oldestFile = (dir) => {
  if (!existsSync(dir)) return 0
  const times = readdirSync(dir).map((name) => statSync(join(dir, name))).filter((s) => s.isFile()).map((s) => s.mtimeMs)
  return times.length === 0 ? 0 : Math.min(...times)
}

const shared = Math.max(newest(join(root, "tsup.shared.ts")), newest(join(root, "tsconfig.base.json")))
const stale = readdirSync(join(root, "packages")).filter((name) => {
  const dir = join(root, "packages", name)
  const inputs = Math.max(shared, newest(join(dir, "src")), newest(join(dir, "package.json")), newest(join(dir, "tsup.config.ts")))
  return oldestFile(join(dir, "dist")) < inputs
})
if (stale.length > 0) {
  process.stdout.write(`atrium: building (${stale.join(", ")} changed)\n`)
  execFileSync("pnpm", ["-s", "build"], { cwd: root, stdio: "inherit" })
}

process.argv = [process.argv[0], join(root, "packages/server/dist/cli.js"), "serve"]
await import(join(root, "packages/server/dist/cli.js"))
