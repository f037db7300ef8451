// Runs the whole vitest suite and ends with one plain "N passed, N failed" line
// (what CI reads), keeping vitest's exit code.
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"

const report = ".vitest-report.json"
rmSync(report, { force: true })
const vitest = join(dirname(createRequire(import.meta.url).resolve("vitest/package.json")), "vitest.mjs")
const run = spawnSync(
  process.execPath,
  [vitest, "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...process.argv.slice(2)],
  { stdio: "inherit" }
)
if (run.error) throw run.error
if (existsSync(report)) {
  const { numFailedTests, numPassedTests, numPendingTests } = JSON.parse(readFileSync(report, "utf8"))
  console.log(`\n${numPassedTests} passed, ${numFailedTests} failed` + (numPendingTests ? `, ${numPendingTests} skipped` : ""))
}
process.exit(run.status ?? 1)
