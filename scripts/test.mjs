// Runs the whole vitest suite and ends with one plain "N passed, N failed" line
// (what CI reads), keeping vitest's exit code.
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync, rmSync } from "node:fs"

const report = ".vitest-report.json"
rmSync(report, { force: true })
const run = spawnSync(
  "vitest",
  ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...process.argv.slice(2)],
  { stdio: "inherit", shell: process.platform === "win32" }
)
if (existsSync(report)) {
  const { numFailedTests, numPassedTests, numPendingTests } = JSON.parse(readFileSync(report, "utf8"))
  console.log(`\n${numPassedTests} passed, ${numFailedTests} failed` + (numPendingTests ? `, ${numPendingTests} skipped` : ""))
}
process.exit(run.status ?? 1)
